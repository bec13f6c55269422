// Validates a request against the shared schemas and calls the handler; always returns a Reply, never throws.

import { isApiMethod, requestSchemas, type AdvisorApi, type Reply } from '../shared/api.js';
import { toWireError } from '../shared/errors.js';

/** Dispatch one call from IPC or the web bridge. Unknown methods and invalid input are errors, not crashes. */
export async function dispatch(
  handlers: AdvisorApi,
  method: string,
  request: unknown,
): Promise<Reply<unknown>> {
  if (!isApiMethod(method)) {
    return { ok: false, error: { code: 'NOT_FOUND', message: `Unknown method '${method}'.` } };
  }
  const parsed = requestSchemas[method].safeParse(request ?? undefined);
  if (!parsed.success) {
    const details = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'request'}: ${issue.message}`)
      .join('; ');
    return {
      ok: false,
      error: { code: 'INVALID_INPUT', message: `Invalid request for ${method}: ${details}` },
    };
  }
  try {
    const handler = handlers[method] as (value: unknown) => Promise<unknown>;
    const value = await handler.call(handlers, parsed.data);
    return { ok: true, value: value ?? null };
  } catch (error) {
    return { ok: false, error: toWireError(error) };
  }
}
