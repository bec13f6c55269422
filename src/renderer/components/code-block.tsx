import { useState } from 'react';
import { copyText } from '../platform.js';

/** Copy to the clipboard with a short "Copied" / "Copy failed" state. */
export function useCopy(code: string): { state: 'idle' | 'copied' | 'failed'; copy(): Promise<void> } {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await copyText(code);
      setState('copied');
    } catch {
      setState('failed');
    }
    window.setTimeout(() => setState('idle'), 1500);
  }
  return { state, copy };
}

/** Code with a label and a Copy button. */
export function CodeBlock({ label, code }: { label: string; code: string }) {
  const { state, copy } = useCopy(code);
  return (
    <figure className="code-block">
      <figcaption className="code-block__head">
        <span>{label}</span>
        <button type="button" className="button button--small" onClick={copy} aria-label={`Copy ${label}`}>
          {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </figcaption>
      <pre>
        <code data-testid="code-block">{code}</code>
      </pre>
    </figure>
  );
}
