// Modal building blocks on the native <dialog> (focus trap, Escape), plus the confirmation, paste and About dialogs.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { AppInfo } from '../../shared/api.js';
import { ErrorBox, type ShownError } from './error-box.js';
import { ProductionConfirmField, productionConfirmed } from './production-confirm.js';

/** A modal dialog that opens on mount; Escape or Cancel calls onClose. */
export function Modal({
  title,
  onClose,
  children,
  testId,
  wide,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
  testId: string;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const id = `${testId}-title`;
  return (
    <dialog
      ref={ref}
      className={`dialog${wide ? ' dialog--wide' : ''}`}
      aria-labelledby={id}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="dialog__header">
        <h2 id={id}>{title}</h2>
      </header>
      {children}
    </dialog>
  );
}

/**
 * "Are you sure?" with the exact SQL that will run; the confirm button names the action. With
 * `production` (the profile name of a production connection) the user must also type that name,
 * and `onConfirm` receives what was typed so the request can carry it.
 */
export function ConfirmDialog({
  title,
  message,
  sql,
  confirmLabel,
  danger,
  production = null,
  onConfirm,
  onClose,
  testId,
  blocked = null,
}: {
  title: string;
  message: ReactNode;
  /** Why the confirm button is disabled (an invalid field in `message`); null when it is not. */
  blocked?: string | null;
  sql?: string;
  confirmLabel: string;
  danger?: boolean;
  production?: string | null;
  onConfirm(productionConfirmation?: string): void;
  onClose(): void;
  testId: string;
}) {
  const [typed, setTyped] = useState('');
  const ready = productionConfirmed(production, typed);
  return (
    <Modal title={title} onClose={onClose} testId={testId}>
      <div className="dialog__body">
        <div className="dialog__message">{message}</div>
        {sql && (
          <pre className="dialog__sql" data-testid="confirm-sql">
            {sql}
          </pre>
        )}
        <ProductionConfirmField name={production} value={typed} onChange={setTyped} />
        <footer className="dialog__footer">
          <button type="button" className="button" onClick={onClose} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            className={`button ${danger ? 'button--danger' : 'button--primary'}`}
            disabled={!ready || blocked !== null}
            title={blocked ?? undefined}
            onClick={() => onConfirm(production === null ? undefined : typed)}
            data-testid="confirm-ok"
          >
            {confirmLabel}
          </button>
        </footer>
      </div>
    </Modal>
  );
}

/** Paste EXPLAIN output (offline); the parser detects the format. */
export function PasteExplainDialog({
  onParse,
  onClose,
  initialText,
}: {
  onParse(text: string, flavor: 'mysql' | 'mariadb' | undefined): Promise<ShownError | null>;
  onClose(): void;
  initialText?: string;
}) {
  const [text, setText] = useState(initialText ?? '');
  const [flavor, setFlavor] = useState<'auto' | 'mysql' | 'mariadb'>('auto');
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) {
      setError({ code: 'INVALID_INPUT', message: 'Paste the output of EXPLAIN first.' });
      return;
    }
    setPending(true);
    const failure = await onParse(text, flavor === 'auto' ? undefined : flavor);
    setPending(false);
    if (failure) setError(failure);
  }
  return (
    <Modal title="Paste EXPLAIN" onClose={onClose} testId="paste-explain-dialog" wide>
      <form className="dialog__body" onSubmit={submit}>
        <div className="field field--full">
          <label htmlFor="paste-explain-text">EXPLAIN output</label>
          <textarea
            id="paste-explain-text"
            className="code-input"
            rows={14}
            spellCheck={false}
            autoFocus
            placeholder={
              'mysql> EXPLAIN SELECT …\\G\n*************************** 1. row ***************************\n           id: 1\n  select_type: SIMPLE\n        table: products\n         type: ALL\n…'
            }
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="paste-explain-flavor">Server</label>
          <select
            id="paste-explain-flavor"
            value={flavor}
            onChange={(event) => setFlavor(event.target.value as 'auto' | 'mysql' | 'mariadb')}
          >
            <option value="auto">Detect</option>
            <option value="mysql">MySQL</option>
            <option value="mariadb">MariaDB</option>
          </select>
        </div>
        <p className="dialog__note">
          Accepted: the +---+ table, \G rows, tab-separated rows, FORMAT=JSON, FORMAT=TREE and EXPLAIN ANALYZE
          output. Nothing is sent to a server.
        </p>
        {error && <ErrorBox error={error} testId="paste-explain-error" />}
        <footer className="dialog__footer">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={pending}
            data-testid="paste-explain-submit"
          >
            Show plan
          </button>
        </footer>
      </form>
    </Modal>
  );
}

/** Values for the `?` placeholders of a captured or prepared statement, before EXPLAIN. */
export function FillPlaceholdersDialog({
  sql,
  offsets,
  onFill,
  onClose,
}: {
  sql: string;
  offsets: readonly number[];
  onFill(values: string[]): void;
  onClose(): void;
}) {
  const [values, setValues] = useState<string[]>(() => offsets.map(() => ''));
  const [error, setError] = useState<ShownError | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    const missing = values.findIndex((value) => !value.trim());
    if (missing >= 0) {
      setError({ code: 'INVALID_INPUT', message: `Give a value for placeholder ${missing + 1}.` });
      return;
    }
    onFill(values.map((value) => value.trim()));
  }
  return (
    <Modal title="Fill placeholders before EXPLAIN" onClose={onClose} testId="placeholders-dialog" wide>
      <form className="dialog__body" onSubmit={submit}>
        <p className="dialog__note">
          This statement has {offsets.length} placeholder{offsets.length === 1 ? '' : 's'} (?), as captured
          digests and prepared statements do. EXPLAIN needs values typical for the application: type numbers
          as they are and quote strings, e.g. <code>42</code> or <code>'2019-10-01'</code>. The statement in
          the editor is updated.
        </p>
        {offsets.map((offset, index) => (
          <div className="field field--full" key={offset}>
            <label htmlFor={`placeholder-${index}`}>
              {index + 1}. …{sql.slice(Math.max(0, offset - 40), offset).replace(/\s+/g, ' ')}
              <strong>?</strong>
              {sql.slice(offset + 1, offset + 21).replace(/\s+/g, ' ')}…
            </label>
            <input
              id={`placeholder-${index}`}
              data-testid="placeholder-value"
              autoFocus={index === 0}
              value={values[index] ?? ''}
              onChange={(event) => {
                const next = [...values];
                next[index] = event.target.value;
                setValues(next);
              }}
            />
          </div>
        ))}
        {error && <ErrorBox error={error} testId="placeholders-error" />}
        <footer className="dialog__footer">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" data-testid="placeholders-submit">
            Fill and EXPLAIN
          </button>
        </footer>
      </form>
    </Modal>
  );
}

/** About: name, version and where the UI runs. */
export function AboutDialog({
  info,
  error,
  onClose,
}: {
  info: AppInfo | null;
  error: ShownError | null;
  onClose(): void;
}) {
  return (
    <Modal title="About Sargable" onClose={onClose} testId="about-dialog">
      <div className="dialog__body">
        {info ? (
          <dl className="about">
            <dt>Version</dt>
            <dd data-testid="about-version">{info.version}</dd>
            <dt>Running as</dt>
            <dd>{info.mode === 'electron' ? 'desktop app' : 'web mode (127.0.0.1 only)'}</dd>
          </dl>
        ) : error ? (
          <ErrorBox error={error} testId="about-error" />
        ) : (
          <p aria-busy="true">Loading…</p>
        )}
        <p className="dialog__note">
          A query and index advisor for MySQL and MariaDB. Read-only by default: nothing is written to a
          server unless you confirm the exact SQL first.
        </p>
        <footer className="dialog__footer">
          <button type="button" className="button button--primary" onClick={onClose} autoFocus>
            Close
          </button>
        </footer>
      </div>
    </Modal>
  );
}
