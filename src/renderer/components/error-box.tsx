// Shows an API error where it happened: code, the server's error number, the message and the hint.
import { AdvisorError } from '../../shared/errors.js';

/** Any error the UI shows, normalised to the wire shape. */
export interface ShownError {
  code: string;
  message: string;
  serverCode?: number;
  sqlState?: string;
  hint?: string;
}

/** Normalise anything thrown by the API client. */
export function toShownError(error: unknown): ShownError {
  if (error instanceof AdvisorError) {
    return { code: error.code, message: error.userMessage, ...error.details };
  }
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}

/** An alert with the error's code, server code, message and hint. */
export function ErrorBox({ error, testId }: { error: ShownError; testId: string }) {
  return (
    <div className="error-box" role="alert" data-testid={testId}>
      <div className="error-box__head">
        <span className="error-box__code">{error.code}</span>
        {error.serverCode !== undefined && (
          <span className="error-box__server-code">
            server error {error.serverCode}
            {error.sqlState ? ` (${error.sqlState})` : ''}
          </span>
        )}
      </div>
      <p className="error-box__message">{error.message}</p>
      {error.hint && <p className="error-box__hint">{error.hint}</p>}
    </div>
  );
}
