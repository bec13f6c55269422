// The renderer's Content-Security-Policy, shared by the web bridge (header) and the Vite build (meta tag).

/**
 * Everything local: scripts, workers and fetches stay same-origin (the web bridge's /rpc and Electron's
 * file:// bundle). Monaco injects <style> elements at run time, hence 'unsafe-inline' for styles only.
 */
export const RENDERER_CSP_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
] as const;

/** For a <meta http-equiv> tag (frame-ancestors is ignored there). */
export const RENDERER_CSP_META = RENDERER_CSP_DIRECTIVES.join('; ');

/** For the HTTP header of web mode, which can also forbid framing. */
export const RENDERER_CSP_HEADER = [...RENDERER_CSP_DIRECTIVES, "frame-ancestors 'none'"].join('; ');
