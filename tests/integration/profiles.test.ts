// Profiles end to end: test connection (TLS, privileges), and the SSH tunnel against a real sshd on loopback.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/main/dispatch.js';
import type { ConnectionTestResult } from '../../src/shared/api/profiles.js';
import { testHandlers } from '../support/handlers.js';
import { testServers } from '../support/db.js';
import { freePort } from '../support/servers.js';

const SSHD = '/usr/sbin/sshd';
const PASSPHRASE = 'tunnel-pass-phrase';

describe.each(testServers())('profiles on $flavor', ({ flavor, url, readOnlyUrl }) => {
  const { handlers, connections, userDataDir: dir } = testHandlers('sargable-profiles-it');
  const call = async <T>(method: string, request: unknown): Promise<T> => {
    const reply = await dispatch(handlers, method, request);
    if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error);
    return reply.value as T;
  };
  const ro = new URL(readOnlyUrl ?? url);
  const base = {
    name: `ro ${flavor}`,
    host: ro.hostname,
    port: Number(ro.port),
    user: decodeURIComponent(ro.username),
  };
  const password = decodeURIComponent(ro.password);

  let sshd: ChildProcess | undefined;
  let sshPort = 0;
  let hostFingerprint = '';
  const sshAvailable = fs.existsSync(SSHD) && process.getuid?.() === 0;

  beforeAll(async () => {
    if (!sshAvailable) return;
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', PASSPHRASE, '-f', path.join(dir, 'client_key')]);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'stranger_key')]);
    fs.copyFileSync(path.join(dir, 'client_key.pub'), path.join(dir, 'authorized_keys'));
    hostFingerprint = execFileSync('ssh-keygen', ['-lf', path.join(dir, 'host_key.pub')], {
      encoding: 'utf8',
    }).split(' ')[1]!;
    sshPort = await freePort();
    fs.writeFileSync(
      path.join(dir, 'sshd_config'),
      [
        `Port ${sshPort}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${path.join(dir, 'host_key')}`,
        `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
        `PidFile ${path.join(dir, 'sshd.pid')}`,
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PubkeyAuthentication yes',
        'PermitRootLogin prohibit-password',
        'AllowTcpForwarding yes',
        'StrictModes no',
        'UsePAM no',
        '',
      ].join('\n'),
    );
    fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    sshd = spawn(SSHD, ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: 'ignore' });
    const started = Date.now();
    for (;;) {
      const open = await new Promise<boolean>((resolve) => {
        const socket = net.connect(sshPort, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (open) break;
      if (Date.now() - started > 10_000) throw new Error('sshd did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  afterAll(async () => {
    await connections.closeAll();
    if (sshd?.pid !== undefined) process.kill(sshd.pid, 'SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('test connection reports version, flavor, TLS and the privileges the least-privilege account lacks', async () => {
    const result = await call<ConnectionTestResult>('profiles.test', { profile: base, password });
    expect({
      flavor: result.server.flavor,
      via: result.via,
      tls: result.tls,
      missing: Object.fromEntries(
        result.privileges.filter((entry) => !entry.ok).map((entry) => [entry.feature, entry.missing]),
      ),
    }).toEqual({
      flavor,
      via: 'direct',
      tls: null,
      missing: readOnlyUrl
        ? {
            slowLogWindow: [flavor === 'mysql' ? 'SYSTEM_VARIABLES_ADMIN ON *.*' : 'SUPER ON *.*'],
            kill: [flavor === 'mysql' ? 'CONNECTION_ADMIN ON *.*' : 'CONNECTION ADMIN ON *.*'],
          }
        : {},
    });
    expect(JSON.stringify(result)).not.toContain(password);
  });

  it.runIf(flavor === 'mysql')('TLS required: the session status shows the cipher', async () => {
    const result = await call<ConnectionTestResult>('profiles.test', {
      profile: { ...base, tls: { mode: 'required' } },
      password,
    });
    expect(result.tls?.cipher).toMatch(/^TLS_|^ECDHE|AES/);
  });

  it.runIf(sshAvailable)(
    'connects through an SSH tunnel with a passphrase-protected key and pins the host key',
    async () => {
      const ssh = {
        host: '127.0.0.1',
        port: sshPort,
        user: 'root',
        auth: 'key',
        keyFile: path.join(dir, 'client_key'),
      };
      const result = await call<ConnectionTestResult>('profiles.test', {
        profile: { ...base, ssh },
        password,
        sshPassphrase: PASSPHRASE,
      });
      expect([result.via, result.sshHostKeyFingerprint, result.server.flavor]).toEqual([
        'ssh',
        hostFingerprint,
        flavor,
      ]);

      const { profile } = await call<{ profile: { id: string } }>('profiles.save', {
        profile: { ...base, ssh: { ...ssh, hostKeyFingerprint: hostFingerprint } },
      });
      const opened = await call<{ connectionId: string; label: string }>('profiles.connect', {
        id: profile.id,
        password,
        sshPassphrase: PASSPHRASE,
      });
      expect(opened.label).toContain('via 127.0.0.1');
      const report = await call<{ statements: unknown[] }>('analyze.run', {
        connectionId: opened.connectionId,
        sql: 'SELECT 1',
      });
      expect(report.statements).toHaveLength(1);
      await call('connection.close', { connectionId: opened.connectionId });
    },
  );

  it.runIf(sshAvailable)(
    'SSH errors say what failed: unknown key, changed host key, closed port',
    async () => {
      const ssh = { host: '127.0.0.1', port: sshPort, user: 'root', auth: 'key' as const };
      const failure = (profile: object, extra: object = {}) =>
        call('profiles.test', { profile: { ...base, ...profile }, password, ...extra }).then(
          () => 'connected',
          (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
        );
      const wrongPin = `SHA256:${'A'.repeat(43)}`;
      const closedPort = await freePort();
      expect({
        stranger: await failure({ ssh: { ...ssh, keyFile: path.join(dir, 'stranger_key') } }),
        hostKey: await failure(
          { ssh: { ...ssh, keyFile: path.join(dir, 'client_key'), hostKeyFingerprint: wrongPin } },
          { sshPassphrase: PASSPHRASE },
        ),
        closed: await failure({ ssh: { ...ssh, port: closedPort, keyFile: path.join(dir, 'stranger_key') } }),
      }).toEqual({
        stranger: `AUTH_FAILED: SSH root@127.0.0.1:${sshPort}: authentication failed (key file).`,
        hostKey: `CONNECTION_FAILED: SSH root@127.0.0.1:${sshPort}: the host key changed (expected ${wrongPin}, got ${hostFingerprint}).`,
        closed: `CONNECTION_FAILED: SSH root@127.0.0.1:${closedPort}: host unreachable (ECONNREFUSED).`,
      });
    },
  );
});
