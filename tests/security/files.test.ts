// The API reads and writes only files the user chose: attacks on every method that takes a path,
// through real HTTP requests to the web bridge. The canary is a private key file in a temp HOME; its
// content never comes back, and files outside the chosen ones are never created.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/handlers/index.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import { CaptureService } from '../../src/main/services/capture-jobs.js';
import { FileGrants } from '../../src/main/services/file-grants.js';
import { startWebServer, type RunningWebServer } from '../../src/main/web/server.js';

const TOKEN = 'files-token-for-security-tests-0123';
const canary = `CANARY${Math.random().toString(36).slice(2)}SECRETKEYMATERIAL`;
let dir: string;
let home: string;
let allowed: string;
let keyFile: string;
let server: RunningWebServer;
let grants: FileGrants;
let chosen: string[] = [];

// The replies are read loosely: each test checks the fields it needs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const slowLog = (sql: string) =>
  '# Time: 2024-01-01T00:00:00.000000Z\n# User@Host: app[app] @ localhost []  Id: 1\n' +
  '# Query_time: 1.5  Lock_time: 0.0 Rows_sent: 1  Rows_examined: 100\n' +
  `SET timestamp=1704067200;\n${sql};\n`;

async function call(method: string, body: unknown): Promise<{ status: number; text: string; json: Loose }> {
  const response = await fetch(`http://127.0.0.1:${server.port}/rpc/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sargable-token': TOKEN },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) };
}

async function upload(name: string, body: string | Buffer) {
  const response = await fetch(`http://127.0.0.1:${server.port}/upload?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'x-sargable-token': TOKEN },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: response.status, json: (await response.json()) as Loose };
}

async function settle(jobId: string) {
  for (;;) {
    const status = await call('job.status', { jobId });
    if (status.json.value?.state !== 'running') return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-sec-files-'));
  home = path.join(dir, 'home');
  allowed = path.join(dir, 'logs');
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  mkdirSync(allowed);
  keyFile = path.join(home, '.ssh', 'id_ed25519');
  // Shaped like a slow log too, so a digest of it would print the canary as a query.
  writeFileSync(keyFile, `${canary}\n${slowLog(`SELECT '${canary}'`)}`, { mode: 0o600 });
  writeFileSync(path.join(allowed, 'slow.log'), slowLog('SELECT * FROM t WHERE id = 1'));
  symlinkSync(keyFile, path.join(allowed, 'innocent.log'));
  symlinkSync(path.join(home, '.ssh'), path.join(allowed, 'dotssh'));
  grants = new FileGrants({ roots: [allowed] });
  const staticDir = path.join(dir, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html>');
  const handlers = createHandlers({
    connections: new ConnectionService(),
    capture: new CaptureService(),
    app: { name: 'Sargable', version: 'test', mode: 'web' },
    userDataDir: path.join(dir, 'userdata'),
    files: grants,
    chooseFiles: async () => chosen,
  });
  server = await startWebServer({
    handlers,
    staticDir,
    port: 0,
    token: TOKEN,
    files: grants,
    maxUploadBytes: 256 * 1024,
  });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('paths the user did not choose are refused, and nothing of the file comes back', () => {
  const outside = () => [
    keyFile,
    path.relative(process.cwd(), keyFile),
    path.join(allowed, '..', 'home', '.ssh', 'id_ed25519'),
    path.join(allowed, 'innocent.log'),
    path.join(allowed, 'dotssh', 'id_ed25519'),
    `file://${keyFile}`,
    'grant:forged-reference-that-was-never-handed-out',
  ];

  it('digest.start (+ job.status) reads no other file', async () => {
    for (const ref of outside()) {
      const reply = await call('digest.start', { paths: [ref] });
      expect(reply.json.ok, ref).toBe(false);
      expect(reply.json.error.code).toBe('FORBIDDEN');
      expect(reply.text).not.toContain(canary);
    }
    // One good path does not carry a bad one with it.
    const mixed = await call('digest.start', { paths: [path.join(allowed, 'slow.log'), keyFile] });
    expect(mixed.json.error.code).toBe('FORBIDDEN');
  });

  it('schema.loadFile reads no other file', async () => {
    for (const ref of outside()) {
      const reply = await call('schema.loadFile', { ref, flavor: 'mysql' });
      expect(reply.json.error?.code, ref).toBe('FORBIDDEN');
      expect(reply.text).not.toContain(canary);
    }
    // A grant for one file is no key to another: a forged id of a loaded schema is refused too.
    const analysed = await call('analyze.run', { sql: 'SELECT 1', schemaId: 'schema:forged' });
    expect(analysed.json.error?.code).toBe('NOT_FOUND');
  });

  it('sqlFile.analyze (+ job.status, sqlFile.statement) reads no other file', async () => {
    // The key file holds `SELECT '<canary>'`: analysed, the canary would come back in an excerpt.
    for (const ref of outside()) {
      const reply = await call('sqlFile.analyze', { ref });
      expect(reply.json.error?.code, ref).toBe('FORBIDDEN');
      expect(reply.text).not.toContain(canary);
      if (reply.json.value?.jobId) expect((await settle(reply.json.value.jobId)).text).not.toContain(canary);
    }
    const forged = await call('sqlFile.statement', { analysisId: 'sqlfile:forged', index: 0 });
    expect(forged.json.error?.code).toBe('NOT_FOUND');
  });

  it('workspace.open reads no other file and never echoes content', async () => {
    for (const ref of outside()) {
      const reply = await call('workspace.open', { profileId: 'p', path: ref });
      expect(reply.json.error?.code, ref).toBe('FORBIDDEN');
      expect(reply.text).not.toContain(canary);
    }
  });

  it('workspace.saveAs writes no file outside the chosen ones', async () => {
    const targets = [
      path.join(home, '.bashrc'),
      path.join(allowed, '..', 'escaped.sargable.json'),
      path.join(allowed, 'dotssh', 'authorized_keys'),
    ];
    for (const target of targets) {
      const reply = await call('workspace.saveAs', { profileId: 'p', path: target });
      expect(reply.json.error?.code, target).toBe('FORBIDDEN');
      expect(existsSync(target)).toBe(false);
    }
    // Through the symlink inside the allowed folder, the key file is not overwritten either.
    const overLink = await call('workspace.saveAs', {
      profileId: 'p',
      path: path.join(allowed, 'innocent.log'),
    });
    expect(overLink.json.error?.code).toBe('FORBIDDEN');
  });

  it('a read grant does not allow writing', async () => {
    const uploaded = await upload('w.sargable.json', '{}');
    const reply = await call('workspace.saveAs', { profileId: 'p', path: uploaded.json.value.ref });
    expect(reply.json.error?.code).toBe('FORBIDDEN');
  });
});

describe('profile TLS/SSH key paths: read at connect, never echoed', () => {
  // Residual risk (docs/security.md): these paths are typed in the profile editor, not dialog grants.
  // What must hold: the content is only handed to TLS/SSH, never returned or quoted in an error.
  it('a secret file named as CA, client cert/key or SSH key does not come back in any reply', async () => {
    const attempts = [
      { tls: { mode: 'verify-ca', caFile: keyFile } },
      { tls: { mode: 'required', certFile: keyFile, keyFile } },
      { ssh: { host: '127.0.0.1', port: 1, user: 'x', auth: 'key', keyFile } },
    ];
    for (const extra of attempts) {
      const profile = {
        name: 'attack',
        host: '127.0.0.1',
        port: 1,
        user: 'u',
        connectTimeoutMs: 2000,
        ...extra,
      };
      for (const method of ['profiles.test', 'profiles.save']) {
        const reply = await call(method, { profile });
        expect(reply.text, `${method} ${JSON.stringify(extra)}`).not.toContain(canary);
      }
    }
    const listed = await call('profiles.list', {});
    expect(listed.text).not.toContain(canary);
  });
});

describe('files the user chose work', () => {
  it('a path under --allow-dir is digested', async () => {
    const started = await call('digest.start', { paths: [path.join(allowed, 'slow.log')] });
    expect(started.json.ok).toBe(true);
    const status = await settle(started.json.value.jobId);
    expect(status.json.value.state).toBe('done');
    expect(status.json.value.result.global.events).toBe(1);
  });

  it("an upload (the browser's file picker) gives a grant; the upload is private and size-limited", async () => {
    const uploaded = await upload('slow-from-browser.log', slowLog('SELECT * FROM orders WHERE id = 7'));
    expect(uploaded.status).toBe(200);
    const ref: string = uploaded.json.value.ref;
    expect(ref).toMatch(/^grant:[A-Za-z0-9_-]{20,}$/);
    const started = await call('digest.start', { paths: [ref] });
    const status = await settle(started.json.value.jobId);
    expect(status.json.value.state).toBe('done');
    // The UI sees the name the user chose, not where the bridge keeps the copy.
    expect(status.json.value.result.source.files[0].path).toBe('slow-from-browser.log');
    const uploadDirs = readdirSync(os.tmpdir())
      .filter((name) => name.startsWith('sargable-uploads-'))
      .map((name) => path.join(os.tmpdir(), name))
      .filter((folder) => readdirSync(folder).some((file) => file.endsWith('slow-from-browser.log')));
    expect(uploadDirs).toHaveLength(1);
    expect(statSync(uploadDirs[0]!).mode & 0o777).toBe(0o700);
    const copy = readdirSync(uploadDirs[0]!).find((file) => file.endsWith('slow-from-browser.log'))!;
    expect(statSync(path.join(uploadDirs[0]!, copy)).mode & 0o777).toBe(0o600);

    const tooBig = await upload('big.log', Buffer.alloc(1024 * 1024, 0x41));
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.error.code).toBe('INVALID_INPUT');
    expect(readdirSync(uploadDirs[0]!).some((file) => file.endsWith('big.log'))).toBe(false);
  });

  it('an uploaded schema file is loaded from disk (no request body limit) and analyses use it by id', async () => {
    const ddl = 'CREATE TABLE orders (id INT PRIMARY KEY, created DATETIME, KEY (created));\n';
    const uploaded = await upload('orders.sql', ddl);
    const started = await call('schema.loadFile', { ref: uploaded.json.value.ref, flavor: 'mysql' });
    const status = await settle(started.json.value.jobId);
    expect(status.json.value.state).toBe('done');
    expect(status.json.value.result).toMatchObject({ name: 'orders.sql', tables: 1, skippedCount: 0 });
    const report = await call('analyze.run', {
      sql: 'SELECT * FROM orders WHERE DATE(created) = CURDATE()',
      schemaId: status.json.value.result.schemaId,
    });
    expect(report.json.value.schemaLoad.tables).toBe(1);
  });

  it('an uploaded SQL file is analysed from disk; its statement opens by the analysis id only', async () => {
    const sql = 'SELECT 1;\nSELECT * FROM orders WHERE DATE(created) = CURDATE();\n';
    const uploaded = await upload('queries.sql', sql);
    const started = await call('sqlFile.analyze', {
      ref: uploaded.json.value.ref,
      schemaSql: 'CREATE TABLE orders (id INT PRIMARY KEY, created DATETIME, KEY (created));',
    });
    const status = await settle(started.json.value.jobId);
    expect(status.json.value.state).toBe('done');
    const result = status.json.value.result;
    expect(result).toMatchObject({ name: 'queries.sql', statements: 2, complete: true });
    const finding = result.rules.find((group: Loose) => group.rule === 'FUN001').findings[0];
    expect(finding).toMatchObject({ line: 2, statement: 1, statementLine: 2 });
    const statement = await call('sqlFile.statement', { analysisId: result.analysisId, index: 1 });
    expect(statement.json.value.sql).toBe('SELECT * FROM orders WHERE DATE(created) = CURDATE()');
  });

  it('files.choose (Electron dialog in main) grants exactly what was chosen, with the access asked for', async () => {
    chosen = [path.join(dir, 'chosen.sargable.json')];
    const save = await call('files.choose', { purpose: 'workspace-save' });
    const ref: string = save.json.value.files[0].ref;
    expect((await call('workspace.saveAs', { profileId: 'p', path: ref })).json.ok).toBe(true);
    expect(existsSync(chosen[0]!)).toBe(true);
    chosen = [];
    expect((await call('files.choose', { purpose: 'slowlog' })).json.value.files).toEqual([]);
  });

  it('files.choose for a schema (Electron dialog) gives a read grant schema.loadFile takes, and nothing more', async () => {
    const chosenSchema = path.join(dir, 'chosen-schema.sql');
    writeFileSync(
      chosenSchema,
      'CREATE TABLE a (id INT PRIMARY KEY);\nCREATE TABLE b (id INT PRIMARY KEY);\n',
    );
    chosen = [chosenSchema];
    const reply = await call('files.choose', { purpose: 'schema' });
    chosen = [];
    const ref: string = reply.json.value.files[0].ref;
    const started = await call('schema.loadFile', { ref, flavor: 'mariadb', version: '10.11.6' });
    const status = await settle(started.json.value.jobId);
    expect(status.json.value.result).toMatchObject({
      name: 'chosen-schema.sql',
      tables: 2,
      flavor: 'mariadb',
    });
    // A read grant: it does not let a workspace overwrite the schema file.
    expect((await call('workspace.saveAs', { profileId: 'p', path: ref })).json.error?.code).toBe(
      'FORBIDDEN',
    );
  });

  it('files.choose for a SQL file (Electron dialog) gives a read grant sqlFile.analyze takes, and nothing more', async () => {
    const chosenSql = path.join(dir, 'chosen-queries.sql');
    writeFileSync(chosenSql, 'SELECT * FROM t WHERE YEAR(d) = 2024;\n');
    chosen = [chosenSql];
    const reply = await call('files.choose', { purpose: 'sql' });
    chosen = [];
    const ref: string = reply.json.value.files[0].ref;
    const started = await call('sqlFile.analyze', { ref, target: { flavor: 'mariadb', version: '10.11.6' } });
    const status = await settle(started.json.value.jobId);
    expect(status.json.value.result).toMatchObject({
      name: 'chosen-queries.sql',
      statements: 1,
      findings: 1,
      server: { flavor: 'mariadb', version: '10.11.6' },
    });
    expect((await call('workspace.saveAs', { profileId: 'p', path: ref })).json.error?.code).toBe(
      'FORBIDDEN',
    );
  });

  it('a chosen file that is not a workspace is refused without echoing its content', async () => {
    const uploaded = await upload('key.sargable.json', `${canary} "${canary}"`);
    const reply = await call('workspace.open', { profileId: 'p', path: uploaded.json.value.ref });
    expect(reply.json.error.code).toBe('INVALID_INPUT');
    expect(reply.text).not.toContain(canary);
    expect(reply.text).not.toContain(canary.slice(0, 10));
  });

  it('files.choose is not available in web mode (no dialog in main)', async () => {
    const handlers = createHandlers({
      connections: new ConnectionService(),
      app: { name: 'Sargable', version: 'test', mode: 'web' },
      userDataDir: path.join(dir, 'userdata2'),
    });
    await expect(handlers['files.choose']({ purpose: 'slowlog' })).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
  });
});
