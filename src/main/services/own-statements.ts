// The comment that marks Sargable's own statements, so that captures can leave them out.

/**
 * Marks every statement Sargable runs for itself — capture reads, and each connection's session
 * set-up (`SET SESSION TRANSACTION READ ONLY`, the version query) — so that the mysql.slow_log
 * reader and slow-log windows leave them out of the user's workload (and count them).
 */
export const CAPTURE_MARKER = '/* sargable capture */';
