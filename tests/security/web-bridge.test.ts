// Attacks on web mode's HTTP bridge, with real HTTP requests against the server started in process:
// foreign Host / Origin / Sec-Fetch-Site, the login code and session cookie, malformed URLs, huge bodies.
// The canary is a secret file in a temp dir; whatever the attacker tries, its content never comes back.
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/handlers/index.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import { startWebServer, type RunningWebServer } from '../../src/main/web/server.js';

const TOKEN = 'bridge-token-for-security-tests-0123';
let server: RunningWebServer;
let other: http.Server;
let otherPort: number;
let dir: string;
let canaryFile: string;
const canary = `CANARY-${Math.random().toString(36).slice(2)}-PRIVATE-KEY`;

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A full garbage collection on demand: the flag is set at run time and a fresh context picks `gc` up. */
function fullCollection(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** Bytes the process keeps alive (V8 heap and Buffers) right after a full collection. */
function liveBytes(gc: () => void): number {
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/** One raw HTTP/1.1 request to the bridge: any Host, Origin, cookie or body the attacker likes. */
function raw(
  options: {
    path: string;
    method?: string;
    headers?: Record<string, string | number>;
    body?: string | Buffer;
  },
  port = server.port,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
        // Every attempt on its own socket, so a reset shows up as an error here.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

async function sessionCookie(): Promise<string> {
  const code = server.mintCode();
  const reply = await raw({ path: `/?code=${code}`, headers: { 'sec-fetch-site': 'none' } });
  expect(reply.status).toBe(303);
  const cookie = String(reply.headers['set-cookie']?.[0] ?? '');
  return cookie.split(';')[0]!;
}

const rpc = (method: string, body: unknown, headers: Record<string, string>) =>
  raw({
    path: `/rpc/${method}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-sec-web-'));
  const staticDir = path.join(dir, 'renderer');
  mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>app</title><p>APP PAGE</p>');
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  canaryFile = path.join(dir, 'id_ed25519');
  writeFileSync(canaryFile, `-----BEGIN OPENSSH PRIVATE KEY-----\n${canary}\n`, { mode: 0o600 });
  const handlers = createHandlers({
    connections: new ConnectionService(),
    app: { name: 'Sargable', version: 'test', mode: 'web' },
    userDataDir: path.join(dir, 'userdata'),
  });
  server = await startWebServer({ handlers, staticDir, port: 0, token: TOKEN, maxBodyBytes: 1024 * 1024 });
  // "Another origin on the same machine": a page served from another port of 127.0.0.1.
  other = http.createServer((_request, response) => response.end('evil'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherPort = (other.address() as { port: number }).port;
});

afterAll(async () => {
  await server.close();
  await new Promise((resolve) => other.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('Host header: exact authority only (DNS rebinding)', () => {
  it('refuses look-alike and foreign hosts before any work', async () => {
    const port = server.port;
    for (const host of [
      `127.evil.example:${port}`,
      '127.evil.example',
      `evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1:${otherPort}`,
      '127.0.0.1',
      `127.0.0.1.nip.io:${port}`,
      `0x7f000001:${port}`,
      `127.0.0.1:${port}@evil.example`,
    ]) {
      const reply = await rpc('app.info', {}, { host, 'x-sargable-token': TOKEN });
      expect(reply.status, host).toBe(403);
      expect(JSON.parse(reply.body).error.code).toBe('FORBIDDEN');
    }
  });

  it('answers on 127.0.0.1, localhost and [::1] at our port', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`]) {
      const reply = await rpc('app.info', {}, { host, 'x-sargable-token': TOKEN });
      expect(reply.status, host).toBe(200);
      expect(JSON.parse(reply.body).ok).toBe(true);
    }
  });
});

describe('another origin cannot act, with or without the cookie or token', () => {
  it('a cookie-only request from another port of 127.0.0.1 is refused (and reads no file)', async () => {
    const cookie = await sessionCookie();
    // The same request from our own origin works, so the cookie is real.
    const own = await rpc('app.info', {}, { cookie, origin: `http://127.0.0.1:${server.port}` });
    expect(own.status).toBe(200);
    const attempts: Record<string, string>[] = [
      { origin: `http://127.0.0.1:${otherPort}` },
      { origin: `http://localhost:${otherPort}` },
      { origin: 'null' },
      { origin: `https://127.0.0.1:${server.port}` },
      { origin: `http://127.0.0.1:${server.port}.evil.example` },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: `http://127.0.0.1:${server.port}`, 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of attempts) {
      const reply = await rpc('workspace.open', { path: canaryFile }, { cookie, ...headers });
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.body).not.toContain(canary);
      expect(JSON.parse(reply.body).error.code).toBe('FORBIDDEN');
    }
  });

  it('even the token does not help a browser page of another origin', async () => {
    const reply = await rpc(
      'app.info',
      {},
      { 'x-sargable-token': TOKEN, origin: `http://127.0.0.1:${otherPort}`, 'sec-fetch-site': 'same-site' },
    );
    expect(reply.status).toBe(403);
  });

  it('another origin cannot load the page, spend a code or mint one', async () => {
    const code = server.mintCode();
    const foreign = { origin: `http://127.0.0.1:${otherPort}`, 'sec-fetch-site': 'same-site' };
    expect((await raw({ path: `/?code=${code}`, headers: { 'sec-fetch-site': 'same-site' } })).status).toBe(
      403,
    );
    expect(
      (
        await raw({
          path: '/auth',
          method: 'POST',
          headers: { ...foreign, 'content-type': 'application/x-www-form-urlencoded' },
          body: `code=${code}`,
        })
      ).status,
    ).toBe(403);
    expect(
      (await raw({ path: '/login-code', method: 'POST', headers: { ...foreign, 'x-sargable-token': TOKEN } }))
        .status,
    ).toBe(403);
    // The code was not spent by those attempts: the user can still use it.
    expect((await raw({ path: `/?code=${code}`, headers: { 'sec-fetch-site': 'none' } })).status).toBe(303);
  });

  it('without a session or token nothing runs and the page is not served', async () => {
    expect((await rpc('app.info', {}, {})).status).toBe(401);
    expect((await rpc('app.info', {}, { cookie: `sargable_session=${TOKEN}` })).status).toBe(401);
    expect((await rpc('app.info', {}, { 'x-sargable-token': 'wrong' })).status).toBe(401);
    const page = await raw({ path: '/' });
    expect(page.status).toBe(401);
    expect(page.body).not.toContain('APP PAGE');
  });
});

describe('login: one-time code, HttpOnly session cookie, clean URL', () => {
  it('exchanges a code once for an HttpOnly SameSite=Strict cookie and redirects to /', async () => {
    const code = server.mintCode();
    const first = await raw({ path: `/?code=${code}`, headers: { 'sec-fetch-site': 'none' } });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const setCookie = String(first.headers['set-cookie']?.[0]);
    expect(setCookie).toMatch(/^sargable_session=[^;]+; HttpOnly; SameSite=Strict; Path=\//);
    // The cookie is a session id, not the token; the token appears in no page or header.
    expect(setCookie).not.toContain(TOKEN);
    expect(JSON.stringify(first.headers)).not.toContain(TOKEN);
    const cookie = setCookie.split(';')[0]!;
    const page = await raw({ path: '/', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('APP PAGE');
    expect(page.body).not.toContain(TOKEN);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // Spent: the URL left in history is worthless.
    const again = await raw({ path: `/?code=${code}`, headers: { 'sec-fetch-site': 'none' } });
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('the launch file POST (Origin null, from file://) logs in once', async () => {
    const code = server.mintCode();
    const post = () =>
      raw({
        path: '/auth',
        method: 'POST',
        headers: {
          origin: 'null',
          'sec-fetch-site': 'cross-site',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `code=${code}`,
      });
    const first = await post();
    expect(first.status).toBe(200);
    expect(String(first.headers['set-cookie']?.[0])).toMatch(/HttpOnly; SameSite=Strict/);
    expect(first.body).not.toContain(code);
    expect((await post()).status).toBe(401);
  });

  it('codes expire', async () => {
    const shortLived = await startWebServer({
      handlers: createHandlers({
        connections: new ConnectionService(),
        app: { name: 'Sargable', version: 'test', mode: 'web' },
      }),
      staticDir: path.join(dir, 'renderer'),
      port: 0,
      codeTtlMs: 1,
    });
    try {
      const code = shortLived.mintCode();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const reply = await raw(
        { path: `/?code=${code}`, headers: { host: `127.0.0.1:${shortLived.port}` } },
        shortLived.port,
      );
      expect(reply.status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });
});

describe('malformed and oversized requests get a JSON answer, not a 500 or a reset', () => {
  it('a malformed percent-encoding is a 400 JSON error', async () => {
    for (const target of ['/rpc/%E0%A4%A', '/%', '/assets/%ff%fe']) {
      const reply = await raw({
        path: target,
        method: target.startsWith('/rpc') ? 'POST' : 'GET',
        headers: { 'x-sargable-token': TOKEN },
        body: '{}',
      });
      expect(reply.status, target).toBe(400);
      expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
  });

  it('a body over the limit is a 413 JSON error (declared length and chunked), memory bounded', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 0x20);
    const declared = await raw({
      path: '/rpc/analyze.run',
      method: 'POST',
      headers: {
        'x-sargable-token': TOKEN,
        'content-type': 'application/json',
        'content-length': big.length,
      },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.code).toBe('INVALID_INPUT');

    // A client streams up to 32 MiB; what the bridge keeps alive meanwhile is sampled after a full
    // collection every MiB: live memory, not the garbage its drain leaves until V8 collects it (how
    // much of that a process carries depends on the machine's memory, so RSS said more about the machine).
    // The rise over the lowest sample so far: what an earlier request still held does not hide it.
    const gc = fullCollection();
    let low = liveBytes(gc);
    let rise = 0;
    let answered = false;
    const request = http.request({
      host: '127.0.0.1',
      port: server.port,
      path: '/rpc/analyze.run',
      method: 'POST',
      agent: false,
      headers: {
        host: `127.0.0.1:${server.port}`,
        'x-sargable-token': TOKEN,
        'transfer-encoding': 'chunked',
      },
    });
    const replied = new Promise<Raw>((resolve, reject) => {
      request.on('response', (response) => {
        answered = true;
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      });
      // After its 413 the bridge closes the connection: the rest of the upload then fails (EPIPE).
      request.on('error', (error) => {
        if (!answered) reject(error);
      });
    });
    const piece = Buffer.alloc(256 * 1024, 0x20);
    for (let sent = piece.length; sent <= 32 * 1024 * 1024 && !answered; sent += piece.length) {
      if (!request.write(piece)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            request.off('drain', go).off('close', go);
            resolve();
          };
          request.on('drain', go).on('close', go);
        });
      }
      if (sent % (1024 * 1024) === 0) {
        const live = liveBytes(gc);
        low = Math.min(low, live);
        rise = Math.max(rise, live - low);
      }
    }
    request.end();
    const chunked = await replied;
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe('INVALID_INPUT');
    // The bridge kept at most its 1 MiB limit of the stream (canary: a bridge that keeps what it reads
    // until the body ends holds all 32 MiB here).
    expect(rise).toBeLessThan(8 * 1024 * 1024);
    // The bridge is still healthy.
    expect((await rpc('app.info', {}, { 'x-sargable-token': TOKEN })).status).toBe(200);
  });

  it('an 11 MB IN list is refused with 413 (default limits), not parsed into hundreds of MB', async () => {
    const defaults = await startWebServer({
      handlers: createHandlers({
        connections: new ConnectionService(),
        app: { name: 'Sargable', version: 'test', mode: 'web' },
      }),
      staticDir: path.join(dir, 'renderer'),
      port: 0,
      token: TOKEN,
    });
    try {
      const ids = Array.from({ length: 1_600_000 }, (_, index) => index).join(',');
      const body = JSON.stringify({ sql: `SELECT * FROM t WHERE id IN (${ids})` });
      expect(body.length).toBeGreaterThan(11_000_000);
      const before = process.memoryUsage().rss;
      const reply = await raw(
        {
          path: '/rpc/analyze.run',
          method: 'POST',
          headers: {
            host: `127.0.0.1:${defaults.port}`,
            'x-sargable-token': TOKEN,
            'content-type': 'application/json',
          },
          body,
        },
        defaults.port,
      );
      expect(reply.status).toBe(413);
      expect(JSON.parse(reply.body).error.message).toMatch(/larger than 4194304 bytes/);
      // Before: the whole text was parsed (about 535 MB for 11 MB).
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
      // Methods that take no SQL text keep the larger limit.
      const big = await raw(
        {
          path: '/rpc/app.info',
          method: 'POST',
          headers: {
            host: `127.0.0.1:${defaults.port}`,
            'x-sargable-token': TOKEN,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ padding: 'x'.repeat(6_000_000) }),
        },
        defaults.port,
      );
      expect(big.status).toBe(200);
    } finally {
      await defaults.close();
    }
  });

  it('paths outside the renderer are not served', async () => {
    for (const target of [
      '/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      `/${'..%2f'.repeat(8)}etc/passwd`,
    ]) {
      const reply = await raw({ path: target });
      expect(reply.status, target).not.toBe(200);
      expect(reply.body).not.toContain('root:');
    }
  });
});
