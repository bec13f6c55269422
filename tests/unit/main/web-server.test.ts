import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src/main/handlers/index.js';
import { ConnectionService } from '../../../src/main/services/connection.js';
import { startWebServer, type RunningWebServer } from '../../../src/main/web/server.js';
import { createClient, httpTransport } from '../../../src/shared/client.js';
import { AdvisorError } from '../../../src/shared/errors.js';

let server: RunningWebServer;
let base: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
  const handlers = createHandlers({
    connections: new ConnectionService(),
    app: { name: 'Sargable', version: 'test', mode: 'web' },
  });
  server = await startWebServer({ handlers, staticDir: dir, port: 0, token: 'secret-token' });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => server.close());

describe('web bridge', () => {
  it('has a clean loopback URL; the login link carries a one-time code, never the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    const login = server.loginUrl();
    expect(login).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?code=[A-Za-z0-9_-]{20,}$`));
    expect(login).not.toContain('secret-token');
  });

  it('serves the page only with a session (from a one-time code), with a CSP', async () => {
    expect((await fetch(`${base}/`)).status).toBe(401);
    expect((await fetch(`${base}/?token=secret-token`)).status).toBe(401);
    const login = await fetch(server.loginUrl(), { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(`${base}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await fetch(`${base}/assets/app.js`)).status).toBe(200);
    expect((await fetch(`${base}/../../etc/passwd`)).status).not.toBe(200);
  });

  it('rejects RPC without the token or with a foreign Host header', async () => {
    const noToken = await fetch(`${base}/rpc/app.info`, { method: 'POST', body: '{}' });
    expect(noToken.status).toBe(401);
    const wrong = await fetch(`${base}/rpc/app.info`, {
      method: 'POST',
      body: '{}',
      headers: { 'x-sargable-token': 'nope-nope-no' },
    });
    expect(wrong.status).toBe(401);
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/rpc/app.info',
          method: 'POST',
          headers: { host: 'evil.example:80', 'x-sargable-token': 'secret-token' },
        },
        (response) => resolve(response.statusCode ?? 0),
      );
      request.on('error', reject);
      request.end('{}');
    });
    expect(status).toBe(403);
  });

  it('implements the API contract: typed client, validation errors, unknown methods', async () => {
    const client = createClient(httpTransport(base, 'secret-token'));
    expect(await client['app.info']()).toEqual({ name: 'Sargable', version: 'test', mode: 'web' });
    const report = await client['analyze.run']({ sql: 'SELECT * FROM t WHERE DATE(c) = ?' });
    expect(report.statements[0]?.findings[0]?.rule).toBe('FUN001');
    await expect(client['analyze.run']({ sql: 42 } as never)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(client['connection.close']({ connectionId: '' })).rejects.toBeInstanceOf(AdvisorError);
    const unknown = await fetch(`${base}/rpc/system.exec`, {
      method: 'POST',
      body: '{}',
      headers: { 'x-sargable-token': 'secret-token' },
    });
    expect(await unknown.json()).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: "Unknown method 'system.exec'." },
    });
  });

  it('refuses a non-loopback bind unless asked (checked by isLoopback)', async () => {
    const { isLoopback } = await import('../../../src/main/web/server.js');
    expect(['127.0.0.1', '::1', 'localhost', '127.0.0.5'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '192.168.1.2', '::'].some(isLoopback)).toBe(false);
  });
});
