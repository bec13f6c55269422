// Attack: make the app read a secret file through a connection profile's TLS or SSH key path, and
// echo it (issue #20 item 1, files). Profiles keep typed paths (docs/security.md, "Key files of
// profiles"): main reads them at connect time and hands the bytes to TLS / SSH only. The canaries are
// two secret files with a unique token — one plain, one shaped like PEM so the TLS layer really parses
// it — named as CA, certificate, key and SSH key, through every method that reads them, against the
// real servers (so the TLS handshake happens). No reply, error or hint may contain the token.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServers } from '../support/db.js';
import { testHandlers } from '../support/handlers.js';

describe.each(testServers())('profile key paths never echo a file: $flavor', ({ url }) => {
  const { connections, userDataDir, call } = testHandlers('sargable-sec-keyfiles');
  const token = `CANARY${Date.now()}KEYFILE`;
  let dir: string;
  let plain: string;
  let pem: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-keyfiles-'));
    plain = path.join(dir, 'id_ed25519');
    fs.writeFileSync(plain, `${token} secret line\n${token.repeat(20)}\n`, { mode: 0o600 });
    pem = path.join(dir, 'secret.pem');
    const body = Buffer.from(`${token}${'x'.repeat(200)}`).toString('base64');
    fs.writeFileSync(
      pem,
      `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`,
      { mode: 0o600 },
    );
  });

  afterAll(async () => {
    await connections.closeAll();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  it('profiles.test / save / connect with the secret as CA, certificate, key or SSH key: nothing echoes it', async () => {
    const admin = new URL(url);
    const base = {
      name: 'attack',
      host: admin.hostname,
      port: Number(admin.port),
      user: decodeURIComponent(admin.username),
      connectTimeoutMs: 3_000,
    };
    const password = decodeURIComponent(admin.password);
    const replies: string[] = [];
    let attempts = 0;
    for (const file of [plain, pem]) {
      const variants = [
        { tls: { mode: 'verify-ca', caFile: file } },
        { tls: { mode: 'verify-identity', caFile: file } },
        { tls: { mode: 'required', certFile: file, keyFile: file } },
        { tls: { mode: 'required', certFile: pem, keyFile: file } },
        { ssh: { host: '127.0.0.1', port: 1, user: 'x', auth: 'key', keyFile: file } },
      ];
      for (const extra of variants) {
        const profile = { ...base, ...extra };
        const tested = await call('profiles.test', { profile, password });
        replies.push(JSON.stringify(tested));
        const saved = await call('profiles.save', { profile });
        replies.push(JSON.stringify(saved));
        if (saved.ok) {
          const id =
            (saved.value as { id?: string; profile?: { id: string } }).profile?.id ??
            (saved.value as { id: string }).id;
          replies.push(JSON.stringify(await call('profiles.connect', { id, password })));
          replies.push(JSON.stringify(await call('profiles.test', { id, password })));
        }
        attempts += 1;
      }
    }
    replies.push(JSON.stringify(await call('profiles.list', {})));
    expect(attempts).toBe(10);
    // The attempts were real: they failed at the file (TLS or SSH said no), not before reading it.
    expect(replies.filter((reply) => reply.includes('"ok":false')).length).toBeGreaterThanOrEqual(10);
    for (const reply of replies) {
      expect(reply).not.toContain(token);
      expect(reply).not.toContain(Buffer.from(token).toString('base64').slice(0, 16));
    }
  }, 120_000);
});
