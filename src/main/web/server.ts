// Web mode: serves the renderer and the API bridge on loopback, guarded by a per-run token and a Host check.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { AdvisorApi } from '../../shared/api.js';
import { dispatch } from '../dispatch.js';
import { RENDERER_CSP_HEADER } from '../../shared/csp.js';

export interface WebServerOptions {
  handlers: AdvisorApi;
  /** Built renderer (index.html + assets). */
  staticDir: string;
  port?: number;
  host?: string;
  token?: string;
  /** Largest accepted request body (bytes). */
  maxBodyBytes?: number;
}

export interface RunningWebServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

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
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/** Start the bridge. Resolves when listening. */
export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenBuffer = Buffer.from(token);
  const maxBody = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const staticRoot = path.resolve(options.staticDir);
  let boundPort = 0;

  const tokenMatches = (candidate: string | undefined): boolean => {
    if (!candidate) return false;
    const buffer = Buffer.from(candidate);
    return buffer.length === tokenBuffer.length && timingSafeEqual(buffer, tokenBuffer);
  };

  const hostAllowed = (request: IncomingMessage): boolean => {
    // DNS-rebinding guard: the Host header must name the address we bound.
    const header = request.headers.host ?? '';
    const name = header.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    return isLoopback(host) ? isLoopback(name) : true;
  };

  const server = http.createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      send(
        response,
        500,
        'application/json',
        JSON.stringify({ ok: false, error: { code: 'INTERNAL', message: String(error) } }),
      );
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!hostAllowed(request)) return send(response, 403, 'text/plain', 'Forbidden host');
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
    if (url.pathname.startsWith('/rpc/')) {
      if (request.method !== 'POST') return send(response, 405, 'text/plain', 'Use POST');
      if (!tokenMatches(headerValue(request.headers['x-sargable-token']))) {
        return send(
          response,
          401,
          'application/json',
          JSON.stringify({ ok: false, error: { code: 'AUTH_FAILED', message: 'Missing or wrong token.' } }),
        );
      }
      const method = decodeURIComponent(url.pathname.slice('/rpc/'.length));
      const body = await readBody(request, maxBody);
      let parsed: unknown;
      try {
        parsed = body.length ? JSON.parse(body) : undefined;
      } catch {
        return send(
          response,
          400,
          'application/json',
          JSON.stringify({
            ok: false,
            error: { code: 'INVALID_INPUT', message: 'Request body is not JSON.' },
          }),
        );
      }
      const reply = await dispatch(options.handlers, method, parsed);
      return send(response, 200, 'application/json', JSON.stringify(reply));
    }
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(response, 405, 'text/plain', 'Method not allowed');
    const isPage = url.pathname === '/' || url.pathname === '/index.html';
    if (isPage && !tokenMatches(url.searchParams.get('token') ?? cookieToken(request))) {
      return send(
        response,
        401,
        'text/html; charset=utf-8',
        '<!doctype html><title>Sargable</title><p>Open the URL that <code>npm run web</code> printed: it carries the access token.</p>',
      );
    }
    const relative = isPage ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const file = path.resolve(staticRoot, relative);
    if (!file.startsWith(staticRoot + path.sep)) return send(response, 403, 'text/plain', 'Forbidden');
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return send(response, 404, 'text/plain', 'Not found');
    const headers: Record<string, string> = {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cache-control': isPage ? 'no-store' : 'public, max-age=3600',
    };
    if (isPage) {
      headers['content-security-policy'] = CONTENT_SECURITY_POLICY;
      headers['set-cookie'] = `sargable_token=${token}; HttpOnly; SameSite=Strict; Path=/`;
      headers['referrer-policy'] = 'no-referrer';
    }
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
      resolve();
    });
  });
  const displayHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${displayHost}:${boundPort}/?token=${encodeURIComponent(token)}`,
    port: boundPort,
    token,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function cookieToken(request: IncomingMessage): string | undefined {
  const cookie = request.headers.cookie ?? '';
  return /(?:^|;\s*)sargable_token=([^;]+)/.exec(cookie)?.[1];
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff' });
  response.end(body);
}

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error(`Request body larger than ${limit} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
