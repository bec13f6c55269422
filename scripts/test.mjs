#!/usr/bin/env node
// What `npm test` runs: lint, typecheck, unit, integration, security and e2e against one pair of real servers.
/*
 * Steps run in order; a failing step does not stop the later ones (so one CI run reports everything),
 * but the exit code is non-zero if any step failed. Servers are started once, before the first step
 * that needs them, shared through SARGABLE_TEST_*_URL, and stopped in `finally` and on SIGINT/SIGTERM.
 *
 * The last line is always `tests: N passed, N failed, N skipped` (a CI system reads it). Counts come
 * from the Vitest and Playwright JSON reporters. A failed step that reports no failed test (lint,
 * typecheck, server start, a runner crash) adds 1 to "failed", so the line says failed > 0 exactly
 * when the exit code is non-zero.
 *
 * Flags: --only lint,typecheck,unit,integration,security,e2e   --quick (= skip lint and typecheck)   --help
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const allSteps = ['lint', 'typecheck', 'unit', 'integration', 'security', 'e2e'];

function parseArgs(argv) {
  let selected = [...allSteps];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(
        'usage: node scripts/test.mjs [--only lint,typecheck,unit,integration,security,e2e] [--quick]\n' +
          '  --quick  skip lint and typecheck\n' +
          'Servers: see docs/testing.md (SARGABLE_TEST_MYSQL_URL, SARGABLE_TEST_MARIADB_URL).\n',
      );
      process.exit(0);
    } else if (arg === '--quick') {
      selected = selected.filter((step) => step !== 'lint' && step !== 'typecheck');
    } else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++index] : arg.slice('--only='.length);
      const names = (value ?? '').split(',').filter(Boolean);
      const unknown = names.filter((name) => !allSteps.includes(name));
      if (names.length === 0 || unknown.length > 0) {
        process.stderr.write(`--only takes a list of: ${allSteps.join(',')} (got "${value ?? ''}")\n`);
        process.exit(2);
      }
      selected = allSteps.filter((step) => names.includes(step));
    } else {
      process.stderr.write(`unknown argument ${arg} (try --help)\n`);
      process.exit(2);
    }
  }
  return selected;
}

const selected = parseArgs(process.argv.slice(2));
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-test-reports-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const summary = [];
/** Failed tests by name with the first lines of their error, printed again at the end (a CI log is often read from its tail). */
const failures = [];
/** Tests that failed first and passed on their retry: listed at the end too, so a flake is seen. */
const flaky = [];
let currentChild = null;
let servers = null;
let interrupted = false;

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)}s`;
}

function header(title) {
  process.stdout.write(`\n=== ${title} ===\n`);
}

/** Runs a local binary (node_modules/.bin first, else npx) with inherited stdio; resolves its exit code. */
function runCommand(command, args, env = process.env) {
  const local = path.join(root, 'node_modules', '.bin', command);
  const [file, fileArgs] = fs.existsSync(local)
    ? [local, args]
    : command === 'npm'
      ? ['npm', args]
      : ['npx', [command, ...args]];
  return new Promise((resolve) => {
    const child = spawn(file, fileArgs, { cwd: root, env, stdio: 'inherit' });
    currentChild = child;
    child.on('error', (error) => {
      process.stderr.write(`${command}: ${error.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      currentChild = null;
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The first lines of an error message, without colour codes. */
function firstLines(message, count = 4) {
  return String(message ?? '')
    .replace(ANSI, '')
    .replaceAll(`${root}${path.sep}`, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, count);
}

/** Collects the failed tests of a Vitest JSON report (a file that failed outside any test counts too). */
function collectVitestFailures(project, report) {
  for (const file of report.testResults ?? []) {
    const name = path.relative(root, file.name ?? '');
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed' && (test.failureMessages ?? []).length > 0)
        flaky.push({
          title: `${project}: ${name} › ${test.fullName}`,
          lines: firstLines(test.failureMessages[0], 2),
        });
    }
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed)
      failures.push({
        title: `${project}: ${name} › ${test.fullName}`,
        lines: firstLines(test.failureMessages?.[0]),
      });
    if (failed.length === 0 && file.status === 'failed')
      failures.push({ title: `${project}: ${name}`, lines: firstLines(file.message) });
  }
}

/** Collects the unexpected results of a Playwright JSON report. */
function collectPlaywrightFailures(report) {
  const walk = (suite, trail) => {
    const here = suite.title && !suite.title.endsWith('.ts') ? [...trail, suite.title] : trail;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'flaky') {
          const first = test.results?.[0];
          flaky.push({
            title: `e2e: ${spec.file}:${spec.line} › ${[...here, spec.title].join(' › ')}`,
            lines: firstLines(first?.error?.message ?? first?.errors?.[0]?.message, 2),
          });
        }
        if (test.status !== 'unexpected') continue;
        const last = test.results?.[test.results.length - 1];
        failures.push({
          title: `e2e: ${spec.file}:${spec.line} › ${[...here, spec.title].join(' › ')}`,
          lines: firstLines(last?.error?.message ?? last?.errors?.[0]?.message),
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Records one step: adds its counts (1 failed if it failed without a failed test) and prints its result. */
function record(name, startedAt, exitCode, counts) {
  const result = counts ?? { passed: 0, failed: 0, skipped: 0 };
  if (exitCode !== 0 && result.failed === 0) result.failed = 1;
  totals.passed += result.passed;
  totals.failed += result.failed;
  totals.skipped += result.skipped;
  const status = exitCode === 0 ? 'passed' : 'FAILED';
  const detail = counts
    ? ` (${counts.passed} passed, ${result.failed} failed, ${counts.skipped} skipped)`
    : '';
  const line = `${name}: ${status} in ${seconds(Date.now() - startedAt)}${detail}`;
  summary.push(line);
  process.stdout.write(`--- ${line}\n`);
}

function skip(name, reason) {
  const line = `${name}: skipped (${reason})`;
  summary.push(line);
  process.stdout.write(`\n--- ${line}\n`);
}

async function checkStep(name, npmScript) {
  header(`${name}: npm run ${npmScript}`);
  const startedAt = Date.now();
  const code = await runCommand('npm', ['run', '--silent', npmScript]);
  record(name, startedAt, code, null);
}

async function vitestStep(project, env) {
  header(`${project}: vitest run --project ${project}`);
  const startedAt = Date.now();
  const reportFile = path.join(reportDir, `vitest-${project}.json`);
  const code = await runCommand(
    'vitest',
    [
      'run',
      '--project',
      project,
      '--passWithNoTests',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reportFile}`,
    ],
    env,
  );
  const report = readJson(reportFile);
  if (report) collectVitestFailures(project, report);
  const counts = report
    ? {
        passed: report.numPassedTests ?? 0,
        failed: report.numFailedTests ?? 0,
        skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
      }
    : null;
  record(project, startedAt, code, counts);
}

async function e2eStep(env) {
  const config = ['playwright.config.ts', 'playwright.config.mjs', 'playwright.config.js'].find((name) =>
    fs.existsSync(path.join(root, name)),
  );
  if (!config) {
    skip('e2e', 'no playwright.config.ts yet');
    return;
  }
  header('e2e: playwright test');
  const startedAt = Date.now();
  const reportFile = path.join(reportDir, 'playwright.json');
  const code = await runCommand('playwright', ['test', '--reporter=list,json'], {
    ...env,
    PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile,
    PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile,
  });
  const playwrightReport = readJson(reportFile);
  if (playwrightReport) collectPlaywrightFailures(playwrightReport);
  const stats = playwrightReport?.stats;
  const counts = stats
    ? {
        passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
        failed: stats.unexpected ?? 0,
        skipped: stats.skipped ?? 0,
      }
    : null;
  record('e2e', startedAt, code, counts);
}

/** Starts both servers once (or takes them from the environment) and returns the env for the runners. */
async function startServers() {
  header('servers: start MySQL 8.0.33 and MariaDB 10.11');
  const startedAt = Date.now();
  const { tsImport } = await import('tsx/esm/api');
  const harness = await tsImport(
    pathToFileURL(path.join(root, 'tests/support/servers.ts')).href,
    import.meta.url,
  );
  try {
    servers = await harness.resolveServers();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    record('servers', startedAt, 1, null);
    return null;
  }
  for (const server of servers.started) {
    process.stdout.write(
      `${server.flavor} ${server.version} on 127.0.0.1:${server.port} (pid ${server.pid})\n`,
    );
  }
  if (servers.started.length < 2) process.stdout.write('using servers from SARGABLE_TEST_*_URL\n');
  record('servers', startedAt, 0, null);
  const env = { ...process.env };
  const { serverEnv } = harness;
  for (const flavor of ['mysql', 'mariadb']) {
    env[serverEnv[flavor].url] = servers[flavor].url;
    if (servers[flavor].readOnlyUrl) env[serverEnv[flavor].readOnlyUrl] = servers[flavor].readOnlyUrl;
  }
  return env;
}

async function stopServers() {
  if (!servers) return;
  const toStop = servers;
  servers = null;
  const startedAt = Date.now();
  await toStop.stop();
  if (toStop.started.length > 0)
    process.stdout.write(`\nservers stopped in ${seconds(Date.now() - startedAt)}\n`);
}

function finish() {
  fs.rmSync(reportDir, { recursive: true, force: true });
  if (flaky.length > 0) {
    process.stdout.write(`\n=== passed only on their retry: flaky (${flaky.length}) ===\n`);
    for (const test of flaky.slice(0, 20)) {
      process.stdout.write(`~ ${test.title}\n`);
      for (const line of test.lines) process.stdout.write(`    ${line}\n`);
    }
  }
  if (failures.length > 0) {
    process.stdout.write(`\n=== failed tests (${failures.length}) ===\n`);
    for (const failure of failures.slice(0, 20)) {
      process.stdout.write(`✗ ${failure.title}\n`);
      for (const line of failure.lines) process.stdout.write(`    ${line}\n`);
    }
    if (failures.length > 20) process.stdout.write(`… and ${failures.length - 20} more above\n`);
  }
  process.stdout.write('\n=== summary ===\n');
  for (const line of summary) process.stdout.write(`${line}\n`);
  process.stdout.write(
    `tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`,
  );
  return totals.failed > 0 ? 1 : 0;
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\n${sig}: stopping\n`);
    if (currentChild?.pid) {
      try {
        process.kill(currentChild.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    void stopServers().finally(() => {
      summary.push(`interrupted by ${sig}`);
      totals.failed += 1;
      finish();
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
  });
}

async function main() {
  const startedAt = Date.now();
  process.stdout.write(`steps: ${selected.join(', ')}\n`);
  try {
    if (selected.includes('lint')) await checkStep('lint', 'lint');
    if (!interrupted && selected.includes('typecheck')) await checkStep('typecheck', 'typecheck');
    if (!interrupted && selected.includes('unit')) await vitestStep('unit', process.env);
    const needServers = ['integration', 'security', 'e2e'].some((step) => selected.includes(step));
    const env = needServers && !interrupted ? await startServers() : process.env;
    if (!interrupted && selected.includes('integration')) {
      if (env) await vitestStep('integration', env);
      else skip('integration', 'servers did not start');
    }
    if (!interrupted && selected.includes('security')) {
      if (env) await vitestStep('security', env);
      else skip('security', 'servers did not start');
    }
    if (!interrupted && selected.includes('e2e')) {
      if (env) await e2eStep(env);
      else skip('e2e', 'servers did not start');
    }
  } finally {
    await stopServers();
  }
  if (interrupted) return new Promise(() => {}); // the signal handler exits
  summary.push(`total: ${seconds(Date.now() - startedAt)}`);
  return finish();
}

process.exitCode = await main();
