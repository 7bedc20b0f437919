/**
 * `dsh-tool-normalizer analyze [sessions-dir]` (also this package's own `dsh-session-analyzer` bin): parses the
 * arguments, runs the analysis with a progress bar on a terminal (none when stderr is piped), prints what was
 * analysed so far on Ctrl-C, and writes the terminal table, `--json` or an `--html` page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderHtml } from './format-html.js';
import { formatReport } from './format-text.js';
import {
  analyzeSessions,
  defaultSessionsDir,
  findSessionFiles,
  PLUGIN_EVENT_LOG,
  readOtherHarnesses,
  zstdDecompressor,
} from './node.js';
import { STORE_DATABASE_FILE } from './store-reader.js';
import { visibleJson, visibleText } from './visible-text.js';

export const USAGE = `usage: dsh-tool-normalizer analyze [sessions-dir] [--store DIR] [--json] [--html report.html]
                                   [--events file] [--max-session-mb N]

Reads DeepSeek Harness session logs (default: $DSH_HOME/sessions, else ~/.dsh/sessions) and reports how often
tool calls failed, why, what the current healing rules would have healed or recovered, and what each failure cost
in re-read tokens. What the telemetry store next to them counted (every harness, and its last clear) is reported
too; heals other harnesses recorded (the MCP proxy's, with --store) are listed apart, as measured.

  --store DIR       the telemetry store's folder (the MCP proxy's --store, or DSH_HOME). Alone, without a
                    sessions folder: report that store only (MCP and other harnesses without DSH logs)
  --json            print the report as JSON instead of tables
  --html FILE       also write a self-contained HTML page (charts, every failure with its file and line)
  --events FILE     the store's event log (default: tool-normalizer-events.jsonl in the store folder)
  --max-session-mb N  skip a session log that expands past N MiB (default 256; bounds memory per session)
  -h, --help        this text
`;

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  /** Where SIGINT is listened for (default: process). */
  signals?: Pick<NodeJS.Process, 'once' | 'removeListener'>;
}

interface CliOptions {
  dir: string | undefined;
  json: boolean;
  html: string | undefined;
  events: string | undefined;
  store: string | undefined;
  maxSessionMb: number | undefined;
}

const VALUE_OPTIONS = ['--html', '--events', '--store', '--max-session-mb'] as const;
type ValueOption = (typeof VALUE_OPTIONS)[number];

function setValue(options: CliOptions, name: ValueOption, value: string): string | undefined {
  if (name === '--html') options.html = value;
  else if (name === '--events') options.events = value;
  else if (name === '--store') options.store = value;
  else {
    const mb = Number(value);
    if (!Number.isFinite(mb) || mb <= 0) return `--max-session-mb needs a positive number (got ${value})`;
    options.maxSessionMb = mb;
  }
  return undefined;
}

function parseArgs(argv: readonly string[]): CliOptions | string {
  const options: CliOptions = {
    dir: undefined,
    json: false,
    html: undefined,
    events: undefined,
    store: undefined,
    maxSessionMb: undefined,
  };
  const needs = (name: string) =>
    name === '--max-session-mb' ? 'a number' : name === '--store' ? 'a folder' : 'a file name';
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    const eq = arg.indexOf('=');
    const name = (eq > 0 ? arg.slice(0, eq) : arg) as ValueOption;
    if (arg === '--json') options.json = true;
    else if (VALUE_OPTIONS.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++index];
      if (eq > 0 && value === '') return `${name}= needs ${needs(name)}`;
      if (!value || value.startsWith('--')) return `${name} needs ${needs(name)}`;
      const problem = setValue(options, name, value);
      if (problem) return problem;
    } else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else if (options.dir === undefined) options.dir = arg;
    else return `only one sessions folder can be given (got ${options.dir} and ${arg})`;
  }
  return options;
}

/**
 * Why the `--html` page could not be written to `file`, checked before the run (a bad path must not cost a whole
 * analysis), or undefined when it can be: an existing directory, a missing or unwritable parent folder.
 */
export function htmlPathProblem(file: string): string | undefined {
  const target = path.resolve(file);
  try {
    if (fs.statSync(target).isDirectory()) return `${target} is a folder`;
    fs.accessSync(target, fs.constants.W_OK);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return `${target} cannot be written`;
  }
  const parent = path.dirname(target);
  try {
    if (!fs.statSync(parent).isDirectory()) return `${parent} is not a folder`;
    fs.accessSync(parent, fs.constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT'
      ? `the folder ${parent} does not exist`
      : `the folder ${parent} cannot be written`;
  }
}

function progressBar(io: CliIo): ((done: number, total: number) => void) | undefined {
  if (!io.stderr.isTTY) return undefined;
  let lastDrawn = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - lastDrawn < 100) return;
    lastDrawn = now;
    const width = Math.max(10, Math.min(40, (io.stderr.columns ?? 80) - 30));
    const filled = total > 0 ? Math.round((done / total) * width) : width;
    io.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} logs`);
    if (done === total) io.stderr.write('\n');
  };
}

const isDirectory = (dir: string) => fs.existsSync(dir) && fs.statSync(dir).isDirectory();

/** Runs the analyze command; resolves to the process exit code (0 ok, 1 error, 2 usage, 130 interrupted). */
export async function runAnalyzeCli(
  argv: readonly string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  // Paths and reasons on stderr can hold what a log or a file name held: shown, never sent as control characters.
  const say = (text: string) =>
    io.stderr.write(visibleText(text.replace(/\n$/, '')) + (text.endsWith('\n') ? '\n' : ''));
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(USAGE);
    return 0;
  }
  const options = parseArgs(argv);
  if (typeof options === 'string') {
    io.stderr.write(`analyze: ${visibleText(options)}\n\n${USAGE}`);
    return 2;
  }
  const htmlProblem = options.html ? htmlPathProblem(options.html) : undefined;
  if (htmlProblem) {
    say(`analyze: --html ${options.html}: ${htmlProblem}\n`);
    return 2;
  }
  const storeDir = options.store ? path.resolve(options.store) : undefined;
  if (storeDir && !isDirectory(storeDir)) {
    say(`analyze: --store ${storeDir}: no such folder\n`);
    return 1;
  }
  // `--store DIR` alone: that store only, no sessions folder is looked for (MCP and other harnesses).
  let sessionsDir: string | undefined =
    storeDir && options.dir === undefined ? undefined : path.resolve(options.dir ?? defaultSessionsDir(io.env));
  let files = sessionsDir && isDirectory(sessionsDir) ? findSessionFiles(sessionsDir) : [];
  const effectiveStore = storeDir ?? (sessionsDir ? path.dirname(sessionsDir) : undefined);
  const eventLog = path.resolve(options.events ?? path.join(effectiveStore as string, PLUGIN_EVENT_LOG));
  if (sessionsDir && files.length === 0) {
    const why = isDirectory(sessionsDir)
      ? `no session logs under ${sessionsDir}`
      : `no sessions folder at ${sessionsDir}`;
    const storeHolds =
      fs.existsSync(path.join(effectiveStore as string, STORE_DATABASE_FILE)) ||
      (await readOtherHarnesses(eventLog)).length > 0;
    if (storeDir || storeHolds) {
      // Nothing of DSH to read, but a store to report (an MCP proxy user without DSH sessions).
      say(`analyze: ${why}; reporting the telemetry store in ${effectiveStore}\n`);
      sessionsDir = undefined;
      files = [];
    } else {
      say(
        isDirectory(sessionsDir)
          ? `analyze: no session logs (*.jsonl.zstd or *.jsonl) under ${sessionsDir}; DSH keeps them in $DSH_HOME/sessions (default ~/.dsh/sessions): pass that folder, or set DSH_HOME; for the MCP proxy's store, pass --store DIR\n`
          : `analyze: no sessions folder at ${sessionsDir}${options.dir ? '' : " (set DSH_HOME or pass a folder; for the MCP proxy's store, pass --store DIR)"}\n`,
      );
      return 1;
    }
  }
  if (
    !sessionsDir &&
    !fs.existsSync(path.join(effectiveStore as string, STORE_DATABASE_FILE)) &&
    !fs.existsSync(eventLog)
  ) {
    say(
      `analyze: no telemetry store in ${effectiveStore} (neither ${STORE_DATABASE_FILE} nor ${path.basename(eventLog)})\n`,
    );
    return 1;
  }
  // zstd is needed only for what is compressed: a store, or plain *.jsonl logs, read on any Node.
  if (files.some((file) => file.endsWith('.zstd')) && !zstdDecompressor()) {
    say(
      `analyze: DSH stores sessions zstd-compressed, and this Node (${process.version}) has no built-in zstd; run it with Node >= 22.15 (what DSH itself requires).\n`,
    );
    return 1;
  }
  const controller = new AbortController();
  const signals = io.signals ?? process;
  const onInterrupt = () => {
    controller.abort();
    io.stderr.write('\ninterrupted: reporting what was analysed so far\n');
  };
  signals.once('SIGINT', onInterrupt);
  const draw = progressBar(io);
  try {
    const { report } = await analyzeSessions({
      ...(sessionsDir ? { sessionsDir, files } : {}),
      ...(effectiveStore ? { storeDir: effectiveStore } : {}),
      eventLog,
      ...(options.maxSessionMb ? { limits: { maxSessionBytes: Math.round(options.maxSessionMb * 1024 * 1024) } } : {}),
      ...(draw ? { onProgress: draw } : {}),
      signal: controller.signal,
    });
    if (draw && report.interrupted) io.stderr.write('\n');
    io.stdout.write(options.json ? `${visibleJson(JSON.stringify(report, null, 2))}\n` : formatReport(report));
    if (options.html) {
      // The page holds (redacted) arguments and errors of the user's sessions: private to the user.
      fs.writeFileSync(options.html, renderHtml(report), { mode: 0o600 });
      fs.chmodSync(options.html, 0o600); // an existing file keeps its mode on write: make it private too
      say(`analyze: wrote ${path.resolve(options.html)}\n`);
    }
    return report.interrupted ? 130 : 0;
  } finally {
    signals.removeListener('SIGINT', onInterrupt);
  }
}

let warningsFiltered = false;

/**
 * Node releases that mark built-in zstd as experimental print an ExperimentalWarning on its first use: the command's
 * stderr carries its own messages only, so that one warning type is dropped; every other warning still prints. Called
 * by the command entries (the bin and `run`), never by the library functions.
 */
export function dropExperimentalWarnings(): void {
  if (warningsFiltered) return;
  warningsFiltered = true;
  const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const option = rest[0];
    const type =
      warning instanceof Error
        ? warning.name
        : typeof option === 'string'
          ? option
          : (option as { type?: string } | undefined)?.type;
    if (type === 'ExperimentalWarning') return;
    emitWarning(warning, ...rest);
  }) as typeof process.emitWarning;
}

/** The subcommand contract of the `dsh-tool-normalizer` dispatcher: `run(args)` resolves to the exit code. */
export function run(args: string[]): Promise<number> {
  dropExperimentalWarnings();
  return runAnalyzeCli(args);
}
