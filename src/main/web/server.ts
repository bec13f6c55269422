// Web mode: serves the renderer and the API bridge on loopback. See docs/security.md ("Web mode").
/*
 * Who may talk to the bridge:
 * - Every request: the Host header must be exactly one of our own authorities (127.0.0.1:PORT,
 *   localhost:PORT, [::1]:PORT, or the --host address), and a browser request must come from our own
 *   origin (Origin / Sec-Fetch-Site). Another port on 127.0.0.1 is another origin and is refused, even
 *   though the browser sends it our SameSite cookie (cookies do not separate ports).
 * - The browser proves itself with an HttpOnly session cookie. It gets one by presenting a one-time
 *   login code (`/?code=…`, or the POST from the launch file that `npm run web` opens), which is then
 *   spent; the page is redirected to the clean `/`. The long-lived token never reaches the browser.
 * - Non-browser clients (tests, scripts) send the token in the `x-sargable-token` header; they carry no
 *   Origin, and a browser that somehow sends the header is still held to the origin check.
 */

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { AdvisorApi } from '../../shared/api.js';
import { dispatch } from '../dispatch.js';
import type { EventHandlers } from '../../shared/events.js';
import { streamEvents } from './events.js';
import { RENDERER_CSP_HEADER } from '../../shared/csp.js';
import type { FileGrants } from '../services/file-grants.js';

export interface WebServerOptions {
  handlers: AdvisorApi;
  /** Event channels (shared/events.ts), streamed on POST /events/<channel>; without them /events/ is 404. */
  events?: EventHandlers;
  /** Built renderer (index.html + assets). */
  staticDir: string;
  port?: number;
  host?: string;
  /** Long-lived token for non-browser clients (header `x-sargable-token`); random when absent. */
  token?: string;
  /** Largest accepted request body (bytes, default 16 MiB). */
  maxBodyBytes?: number;
  /**
   * Largest body of the methods that parse SQL text (default 4 MiB): the parser needs about 40 times
   * the text in memory (a 9.3 MB IN list took 400 MB), so this bounds what one request can cost.
   */
  maxSqlBodyBytes?: number;
  /** How long an unused login code stays valid (ms, default 10 minutes). */
  codeTtlMs?: number;
  /** Grants for uploaded files (POST /upload); without it uploads are refused. */
  files?: FileGrants;
  /** Largest accepted upload (bytes, default 8 GiB). */
  maxUploadBytes?: number;
}

export interface RunningWebServer {
  /** The clean address of the app (no secret in it). */
  url: string;
  port: number;
  token: string;
  /** A fresh one-time login code (single use, expires after codeTtlMs). */
  mintCode(): string;
  /** `url` with a fresh one-time login code, for printing (never for argv). */
  loginUrl(): string;
  close(): Promise<void>;
}

/** Methods whose request is SQL text for the parser (their bodies get the smaller limit). */
const SQL_TEXT_METHODS = new Set([
  'analyze.run',
  'explain.run',
  'explain.parse',
  'sqlmode.upgrade',
  'locks.rewrites',
  'sqlFile.analyze',
]);

/** Name of the HttpOnly session cookie. */
export const SESSION_COOKIE = 'sargable_session';
/** Most sessions kept at once (the oldest is dropped first). */
const MAX_SESSIONS = 64;
/** Most unused login codes kept at once. */
const MAX_CODES = 64;
/** A body over the limit is read and thrown away up to this many bytes, so the client sees the 413. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

/** Content-Security-Policy header for the renderer (shared with the Vite build's meta tag). */
export const CONTENT_SECURITY_POLICY = RENDERER_CSP_HEADER;

/** True when the bind address is a loopback address. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** The exact Host header values the bridge answers to when bound to `host`:`port`. */
export function allowedAuthorities(host: string, port: number): Set<string> {
  const names = isLoopback(host) ? ['127.0.0.1', 'localhost', '[::1]'] : [];
  const bound = host.includes(':') ? `[${host}]` : host;
  if (!names.includes(bound)) names.push(bound);
  return new Set(names.map((name) => `${name}:${port}`));
}

/** Why a request is refused before any work is done, or undefined when it may go on. */
export function refusal(
  headers: IncomingMessage['headers'],
  authorities: ReadonlySet<string>,
  /** The launch file's login POST comes from a file:// page: Origin "null", Sec-Fetch-Site cross-site. */
  opaqueOriginAllowed = false,
): { status: number; code: string; message: string } | undefined {
  const host = (headers.host ?? '').toLowerCase();
  if (!authorities.has(host))
    return {
      status: 403,
      code: 'FORBIDDEN',
      message: `Host "${host.slice(0, 100)}" is not this bridge; open it as http://${[...authorities][0]}/.`,
    };
  const origin = headerValue(headers.origin);
  if (opaqueOriginAllowed && (origin === undefined || origin === 'null')) return undefined;
  if (origin !== undefined) {
    const match = /^http:\/\/([^/]+)$/i.exec(origin);
    if (!match || !authorities.has(match[1]!.toLowerCase()))
      return { status: 403, code: 'FORBIDDEN', message: 'Requests from another origin are refused.' };
  }
  const site = headerValue(headers['sec-fetch-site']);
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return { status: 403, code: 'FORBIDDEN', message: 'Requests from another site are refused.' };
  return undefined;
}

/** Start the bridge. Resolves when listening. */
export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenBuffer = Buffer.from(token);
  const maxBody = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const maxSqlBody = Math.min(maxBody, options.maxSqlBodyBytes ?? 4 * 1024 * 1024);
  const codeTtl = options.codeTtlMs ?? 10 * 60_000;
  const staticRoot = path.resolve(options.staticDir);
  let authorities = new Set<string>();
  let boundPort = 0;
  /** Unused login codes and when they expire. */
  const codes = new Map<string, number>();
  /** Live session ids (insertion order = age). */
  const sessions = new Set<string>();
  /** Private (0700) folder for uploads, made on the first one and removed on close. */
  let uploadDir: Promise<string> | undefined;
  let uploads = 0;

  const tokenMatches = (candidate: string | undefined): boolean => {
    if (!candidate) return false;
    const buffer = Buffer.from(candidate);
    return buffer.length === tokenBuffer.length && timingSafeEqual(buffer, tokenBuffer);
  };

  const mintCode = (): string => {
    const now = Date.now();
    for (const [code, expires] of codes) if (expires <= now || codes.size >= MAX_CODES) codes.delete(code);
    const code = randomBytes(18).toString('base64url');
    codes.set(code, now + codeTtl);
    return code;
  };

  /** Spends a login code: true once per code, before it expires. */
  const spendCode = (candidate: string | null | undefined): boolean => {
    if (!candidate || candidate.length > 64) return false;
    const expires = codes.get(candidate);
    if (expires === undefined) return false;
    codes.delete(candidate);
    return expires > Date.now();
  };

  const newSession = (): string => {
    const id = randomBytes(24).toString('base64url');
    sessions.add(id);
    while (sessions.size > MAX_SESSIONS) sessions.delete(sessions.values().next().value!);
    return id;
  };

  const hasSession = (request: IncomingMessage): boolean => {
    const id = cookieValue(request, SESSION_COOKIE);
    return id !== undefined && sessions.has(id);
  };

  const sessionCookie = (id: string) => `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/`;

  const server = http.createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (error instanceof HttpError) return sendJson(response, error.status, error.code, error.message);
      sendJson(response, 500, 'INTERNAL', `Unexpected error: ${String(error).slice(0, 500)}`);
    });
  });
  // Slow or stuck clients cannot hold sockets forever.
  server.headersTimeout = 20_000;
  server.requestTimeout = 120_000;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const isLogin = request.method === 'POST' && (request.url ?? '').split('?')[0] === '/auth';
    const refused = refusal(request.headers, authorities, isLogin);
    if (refused) {
      drain(request);
      return sendJson(response, refused.status, refused.code, refused.message);
    }
    let url: URL;
    let pathname: string;
    try {
      url = new URL(request.url ?? '/', `http://${request.headers.host}`);
      pathname = decodeURIComponent(url.pathname);
    } catch {
      drain(request);
      return sendJson(response, 400, 'INVALID_INPUT', 'The request URL is malformed.');
    }

    const isEvents = pathname.startsWith('/events/') && options.events !== undefined;
    if (pathname.startsWith('/rpc/') || isEvents) {
      if (request.method !== 'POST') return sendJson(response, 405, 'INVALID_INPUT', 'Use POST.');
      if (!tokenMatches(headerValue(request.headers['x-sargable-token'])) && !hasSession(request)) {
        drain(request);
        return sendJson(
          response,
          401,
          'AUTH_FAILED',
          'No session: open the link that "npm run web" printed (or opened) in this browser.',
        );
      }
      const method = pathname.slice('/rpc/'.length);
      const body = await readBody(request, SQL_TEXT_METHODS.has(method) ? maxSqlBody : maxBody);
      let parsed: unknown;
      try {
        parsed = body.length ? JSON.parse(body) : undefined;
      } catch {
        return sendJson(response, 400, 'INVALID_INPUT', 'Request body is not JSON.');
      }
      if (isEvents && options.events)
        return streamEvents(options.events, pathname.slice('/events/'.length), parsed, request, response);
      const reply = await dispatch(options.handlers, pathname.slice('/rpc/'.length), parsed);
      return send(response, 200, 'application/json', JSON.stringify(reply));
    }

    if (pathname === '/upload') {
      // Web mode's file picker: the browser sends the file the user chose; we keep a private copy
      // and hand back a grant. A page cannot choose a file by script, so this is the user's choice.
      if (request.method !== 'POST') return sendJson(response, 405, 'INVALID_INPUT', 'Use POST.');
      if (!tokenMatches(headerValue(request.headers['x-sargable-token'])) && !hasSession(request)) {
        drain(request);
        return sendJson(
          response,
          401,
          'AUTH_FAILED',
          'No session: open the link that "npm run web" printed.',
        );
      }
      if (!options.files) {
        drain(request);
        return sendJson(response, 404, 'UNSUPPORTED', 'This bridge takes no uploads.');
      }
      const name = (url.searchParams.get('name') ?? 'upload').slice(0, 200);
      const limit = options.maxUploadBytes ?? 8 * 1024 ** 3;
      if (Number(request.headers['content-length'] ?? 0) > limit) {
        drain(request);
        return sendJson(response, 413, 'INVALID_INPUT', `Files up to ${limit} bytes can be uploaded.`);
      }
      uploadDir ??= mkdtemp(path.join(os.tmpdir(), 'sargable-uploads-'));
      const file = path.join(await uploadDir, `${++uploads}-${name.replace(/[^A-Za-z0-9._-]+/g, '_')}`);
      let size = 0;
      const out = createWriteStream(file, { mode: 0o600, flags: 'wx' });
      try {
        // destroyOnReturn: false keeps the socket when we stop early, so the 413 still arrives.
        for await (const chunk of request.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > limit) throw tooLarge(limit);
          if (!out.write(chunk)) await once(out, 'drain');
        }
        await new Promise<void>((resolve, reject) =>
          out.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
      } catch (error) {
        out.destroy();
        await rm(file, { force: true });
        if (error instanceof HttpError) drain(request);
        throw error;
      }
      const ref = options.files.grant(file, 'read', name);
      return send(response, 200, 'application/json', JSON.stringify({ ok: true, value: { ref, name } }));
    }

    if (pathname === '/login-code') {
      // For scripts and tests that hold the token: a one-time code to open a browser with.
      drain(request);
      if (request.method !== 'POST') return sendJson(response, 405, 'INVALID_INPUT', 'Use POST.');
      if (!tokenMatches(headerValue(request.headers['x-sargable-token'])))
        return sendJson(response, 401, 'AUTH_FAILED', 'Missing or wrong token.');
      return send(
        response,
        200,
        'application/json',
        JSON.stringify({ ok: true, value: { code: mintCode() } }),
      );
    }

    if (pathname === '/auth') {
      // The launch file's form: POST code=… (from file://, so Origin is "null"; the code is the proof).
      if (request.method !== 'POST') return sendJson(response, 405, 'INVALID_INPUT', 'Use POST.');
      const body = await readBody(request, 4096);
      const code = new URLSearchParams(body).get('code');
      if (!spendCode(code)) return sendLoginPage(response, 401);
      response.writeHead(200, {
        ...pageHeaders(),
        'set-cookie': sessionCookie(newSession()),
        // A navigation started by our own page, so the SameSite=Strict cookie goes with it.
        refresh: '0;url=/',
      });
      return void response.end(
        '<!doctype html><meta http-equiv="refresh" content="0;url=/"><title>Sargable</title><p><a href="/">Open Sargable</a></p>',
      );
    }

    if (request.method !== 'GET' && request.method !== 'HEAD') {
      drain(request);
      return sendJson(response, 405, 'INVALID_INPUT', 'Method not allowed.');
    }
    const isPage = pathname === '/' || pathname === '/index.html';
    if (isPage && url.searchParams.has('code')) {
      // Spend the code, set the session, and leave the code's URL at once for the clean one.
      const ok = spendCode(url.searchParams.get('code'));
      if (!ok) return sendLoginPage(response, 401);
      response.writeHead(303, {
        ...pageHeaders(),
        location: '/',
        'set-cookie': sessionCookie(newSession()),
      });
      return void response.end();
    }
    if (isPage && !hasSession(request)) return sendLoginPage(response, 401);
    const relative = isPage ? 'index.html' : pathname.replace(/^\/+/, '');
    const file = path.resolve(staticRoot, relative);
    if (!file.startsWith(staticRoot + path.sep)) return send(response, 403, 'text/plain', 'Forbidden');
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return send(response, 404, 'text/plain', 'Not found');
    const headers: Record<string, string> = {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cache-control': isPage ? 'no-store' : 'public, max-age=3600',
    };
    if (isPage) Object.assign(headers, pageHeaders());
    response.writeHead(200, headers);
    if (request.method === 'HEAD') return void response.end();
    response.end(await readFile(file));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const address = server.address();
      boundPort = typeof address === 'object' && address ? address.port : (options.port ?? 0);
      authorities = allowedAuthorities(host, boundPort);
      resolve();
    });
  });
  const displayHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${displayHost}:${boundPort}/`;
  return {
    url,
    port: boundPort,
    token,
    mintCode,
    loginUrl: () => `${url}?code=${mintCode()}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (uploadDir) await rm(await uploadDir, { recursive: true, force: true });
    },
  };
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function pageHeaders(): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}

function sendLoginPage(response: ServerResponse, status: number): void {
  response.writeHead(status, pageHeaders());
  response.end(
    '<!doctype html><title>Sargable</title><p>This page needs a login link. ' +
      'Open the link that <code>npm run web</code> printed (each link works once), ' +
      'or restart it to get a new one.</p>',
  );
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function cookieValue(request: IncomingMessage, name: string): string | undefined {
  const cookie = request.headers.cookie ?? '';
  for (const part of cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff' });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, code: string, message: string): void {
  if (response.headersSent) return void response.destroy();
  send(response, status, 'application/json', JSON.stringify({ ok: false, error: { code, message } }));
}

/** Reads and discards what is left of a request body (up to MAX_DRAIN_BYTES), so the reply arrives. */
function drain(request: IncomingMessage): void {
  let seen = 0;
  request.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > MAX_DRAIN_BYTES) request.destroy();
  });
  request.resume();
}

/** The body as text, refusing (413) anything over `limit` bytes without keeping it in memory. */
function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) {
    drain(request);
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        drain(request);
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    request.on('error', reject);
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    'INVALID_INPUT',
    `Request body larger than ${limit} bytes: send less text at once (split the SQL or the schema).`,
  );
}
