// The pt-online-schema-change and gh-ost variants as runnable bash scripts.
//
// Design note: the script is meant to be run as is by a DBA, so it is a real program, not a list of
// commented-out commands. `set -euo pipefail`; one tool run per table with that table's combined
// `--alter`; every table is dry-run first (pt-osc `--dry-run`, gh-ost without `--execute`, its noop
// mode) and only `./script --execute` then runs the real change, table by table, stopping at the first
// failure. The connection comes from the environment or an options file, never from the script: the
// DSN is built from MYSQL_HOST/MYSQL_PORT/MYSQL_USER/MYSQL_SOCKET (`h=,P=,u=,S=`), the password from
// an options file (MYSQL_DEFAULTS_FILE → pt-osc `--defaults-file`, gh-ost `--conf`) or from MYSQL_PWD,
// which the script writes to a private temporary options file (mode 600, removed on exit) so it never
// appears on a command line. Tested with `bash -n` on every golden case and with the real
// pt-online-schema-change against both test servers (tests/integration/export-shell.test.ts).

/** One tool run: a table and its combined `--alter` text. */
export interface ShellRun {
  table: string;
  alter: string;
  /** Comment lines (without the `#`) printed above the run. */
  comments: string[];
}

/** What the script needs besides the runs. */
export interface ShellScriptInput {
  tool: 'pt-osc' | 'gh-ost';
  /** Header comment lines (without the `#`). */
  header: string[];
  /** The database the export was made for; MYSQL_DATABASE overrides it, and is required when null. */
  database: string | null;
  runs: ShellRun[];
  /** Comment lines (without the `#`) at the end: what was not exported. */
  footer: string[];
}

/** Quote a string for bash as one word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function commentLines(lines: readonly string[], indent = ''): string[] {
  return lines.flatMap((line) => line.split('\n')).map((line) => `${indent}# ${line}`.trimEnd());
}

const toolName = { 'pt-osc': 'pt-online-schema-change', 'gh-ost': 'gh-ost' } as const;

function usage(input: ShellScriptInput): string[] {
  const dry =
    input.tool === 'pt-osc'
      ? 'pt-online-schema-change --dry-run for every table (creates and alters an empty copy, changes nothing)'
      : 'gh-ost without --execute for every table (its noop mode: checks, creates and alters the ghost table, no cut-over)';
  return [
    'Usage:',
    `  bash this-script.sh            ${dry}`,
    '  bash this-script.sh --execute  the same dry run first, then the real change, one table after the other',
    '',
    'Connection (from the environment; nothing secret is written in this file):',
    '  MYSQL_HOST, MYSQL_PORT, MYSQL_USER   where and as whom to connect (unset: the tool defaults / the options file)',
    '  MYSQL_SOCKET                          a Unix socket instead of host and port',
    `  MYSQL_DEFAULTS_FILE                   an options file with [client] user= and password= (${input.tool === 'pt-osc' ? '--defaults-file' : '--conf'})`,
    '  MYSQL_PWD                             the password; written to a private temporary options file for the run only',
    `  MYSQL_DATABASE                        the database${input.database ? ` (default ${input.database})` : ' (required)'}`,
    `  ${input.tool === 'pt-osc' ? 'PT_OSC_OPTIONS' : 'GH_OST_OPTIONS'}                        extra options for every run, e.g. ${input.tool === 'pt-osc' ? '"--max-load Threads_running=50 --critical-load Threads_running=200"' : '"--max-load=Threads_running=50 --critical-load=Threads_running=200 --chunk-size=1000"'}`,
    `  ${input.tool === 'pt-osc' ? 'PT_OSC' : 'GH_OST'}                                the command (default ${toolName[input.tool]})`,
  ];
}

function preamble(input: ShellScriptInput): string[] {
  const isPt = input.tool === 'pt-osc';
  const command = isPt ? 'PT_OSC' : 'GH_OST';
  const options = isPt ? 'PT_OSC_OPTIONS' : 'GH_OST_OPTIONS';
  const database = input.database
    ? `MYSQL_DATABASE="\${MYSQL_DATABASE:-${input.database.replace(/[\\"$`]/g, '\\$&')}}"`
    : 'MYSQL_DATABASE="${MYSQL_DATABASE:?set MYSQL_DATABASE to the database to change}"';
  const runner = isPt
    ? [
        '# One pt-online-schema-change run: $1 is --dry-run or --execute, $2 the table, $3 its combined --alter.',
        'run() {',
        '  local dsn="D=${MYSQL_DATABASE},t=$2"',
        '  if [[ -n "${MYSQL_SOCKET:-}" ]]; then dsn+=",S=${MYSQL_SOCKET}"; fi',
        '  if [[ -n "${MYSQL_HOST:-}" ]]; then dsn+=",h=${MYSQL_HOST}"; fi',
        '  if [[ -n "${MYSQL_PORT:-}" ]]; then dsn+=",P=${MYSQL_PORT}"; fi',
        '  if [[ -n "${MYSQL_USER:-}" ]]; then dsn+=",u=${MYSQL_USER}"; fi',
        '  local args=()',
        '  if [[ -n "${defaults_file}" ]]; then args+=("--defaults-file=${defaults_file}"); fi',
        '  args+=(--alter "$3" "$1")',
        `  "\${${command}}" "\${args[@]}" \${extra[@]+"\${extra[@]}"} "\${dsn}"`,
        '}',
      ]
    : [
        '# One gh-ost run: $1 is --dry-run (gh-ost noop mode) or --execute, $2 the table, $3 its combined --alter.',
        'run() {',
        '  local args=("--database=${MYSQL_DATABASE}" "--table=$2" "--alter=$3" --allow-on-master)',
        '  if [[ -n "${MYSQL_SOCKET:-}" ]]; then args+=("--socket=${MYSQL_SOCKET}"); fi',
        '  if [[ -n "${MYSQL_HOST:-}" ]]; then args+=("--host=${MYSQL_HOST}"); fi',
        '  if [[ -n "${MYSQL_PORT:-}" ]]; then args+=("--port=${MYSQL_PORT}"); fi',
        '  if [[ -n "${MYSQL_USER:-}" ]]; then args+=("--user=${MYSQL_USER}"); fi',
        '  if [[ -n "${defaults_file}" ]]; then args+=("--conf=${defaults_file}"); fi',
        '  if [[ "$1" == --execute ]]; then args+=(--execute); fi',
        `  "\${${command}}" "\${args[@]}" \${extra[@]+"\${extra[@]}"}`,
        '}',
      ];
  return [
    'set -euo pipefail',
    '',
    'mode=--dry-run',
    'case "${1:-}" in',
    '  "") ;;',
    '  --execute) mode=--execute ;;',
    '  --dry-run) ;;',
    '  -h | --help)',
    "    sed -n '2,/^set -euo/p' \"$0\" | sed -e '/^set -euo/d' -e 's/^# \\{0,1\\}//'",
    '    exit 0',
    '    ;;',
    '  *)',
    '    echo "Unknown option: $1 (use --execute to run the change after the dry run, or --help)" >&2',
    '    exit 2',
    '    ;;',
    'esac',
    '',
    database,
    `${command}="\${${command}:-${toolName[input.tool]}}"`,
    `if ! command -v "\${${command}}" >/dev/null 2>&1; then`,
    `  echo "\${${command}} not found: install ${isPt ? 'percona-toolkit' : 'gh-ost (github.com/github/gh-ost)'} or set ${command} to its path" >&2`,
    '  exit 127',
    'fi',
    `read -r -a extra <<<"\${${options}:-}"`,
    '',
    '# The password: an options file, or MYSQL_PWD copied into a private one (never onto a command line).',
    'defaults_file="${MYSQL_DEFAULTS_FILE:-}"',
    'if [[ -z "${defaults_file}" && -n "${MYSQL_PWD:-}" ]]; then',
    '  defaults_file="$(mktemp)"',
    '  trap \'rm -f "${defaults_file}"\' EXIT',
    '  chmod 600 "${defaults_file}"',
    '  escaped="${MYSQL_PWD//\\\\/\\\\\\\\}"',
    '  printf \'[client]\\npassword="%s"\\n\' "${escaped}" >"${defaults_file}"',
    '  unset escaped',
    'fi',
    'if [[ -n "${defaults_file}" && "${defaults_file}" != /* ]]; then defaults_file="${PWD}/${defaults_file}"; fi',
    'if [[ -n "${defaults_file}" && ! -r "${defaults_file}" ]]; then',
    '  echo "MYSQL_DEFAULTS_FILE: ${defaults_file} is not a readable file" >&2',
    '  exit 2',
    'fi',
    '',
    ...runner,
  ];
}

/** Render the bash script. */
export function renderShellScript(input: ShellScriptInput): string {
  const lines = [
    '#!/usr/bin/env bash',
    ...commentLines(input.header),
    '#',
    ...commentLines(usage(input)),
    ...preamble(input),
    '',
    '# Every change, for one mode (--dry-run or --execute).',
    'changes() {',
  ];
  if (input.runs.length === 0) lines.push('  echo "Nothing to change."');
  for (const run of input.runs) {
    lines.push(...commentLines(run.comments, '  '));
    lines.push(
      `  echo "== ${run.table.replace(/[\\"$`]/g, '\\$&')}: $1"`,
      `  run "$1" ${shellQuote(run.table)} ${shellQuote(run.alter)}`,
    );
  }
  lines.push(
    '}',
    '',
    'changes --dry-run',
    'if [[ "${mode}" == --execute ]]; then',
    '  changes --execute',
    'else',
    '  echo "Dry run finished: nothing was changed. Run again with --execute to apply."',
    'fi',
  );
  if (input.footer.length > 0) lines.push('', ...commentLines(input.footer));
  return `${lines.join('\n')}\n`;
}
