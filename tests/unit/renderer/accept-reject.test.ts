// The Accept / Reject pair of the Index set view (components/accept-reject.tsx), shared by the indexes of the
// set and the hygiene drops: which button is enabled per decision, the badge, a refused Accept's reason.
// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AcceptReject } from '../../../src/renderer/components/accept-reject.js';

afterEach(cleanup);

function pair(decision: 'accepted' | 'rejected' | undefined, acceptBlocked: string | null = null) {
  const onAccept = vi.fn();
  const onReject = vi.fn();
  render(
    createElement(AcceptReject, {
      decision,
      onAccept,
      onReject,
      acceptBlocked,
      acceptTitle: 'Into the export',
      testIdPrefix: 'index-set',
    }),
  );
  return {
    accept: screen.getByTestId('index-set-accept') as HTMLButtonElement,
    reject: screen.getByTestId('index-set-reject') as HTMLButtonElement,
    onAccept,
    onReject,
  };
}

describe('AcceptReject', () => {
  it('open: both enabled, each calls its own handler', () => {
    const { accept, reject, onAccept, onReject } = pair(undefined);
    expect([accept.disabled, reject.disabled]).toEqual([false, false]);
    expect(accept.title).toBe('Into the export');
    fireEvent.click(accept);
    fireEvent.click(reject);
    expect([onAccept.mock.calls.length, onReject.mock.calls.length]).toEqual([1, 1]);
    expect(screen.queryByText('in export')).toBeNull();
  });

  it('accepted: Accept disabled with the badge; rejected: Reject disabled with its badge', () => {
    const accepted = pair('accepted');
    expect([accepted.accept.disabled, accepted.reject.disabled]).toEqual([true, false]);
    expect(screen.getByText('in export')).toBeTruthy();
    cleanup();
    const rejected = pair('rejected');
    expect([rejected.accept.disabled, rejected.reject.disabled]).toEqual([false, true]);
    expect(screen.getByText('rejected')).toBeTruthy();
  });

  it('a refused Accept is disabled and says why', () => {
    const { accept } = pair(undefined, 'The optimizer did not choose it');
    expect(accept.disabled).toBe(true);
    expect(accept.title).toBe('The optimizer did not choose it');
  });
});
