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

export const USAGE = `usage: dsh-tool-normalizer analyze [sessions-dir] [--json] [--html report.html] [--events file]

Reads DeepSeek Harness session logs (default: $DSH_HOME/sessions, else ~/.dsh/sessions) and reports how often
tool calls failed, why, what the current healing rules would have healed or recovered, and what each failure cost
in re-read tokens. Heals other harnesses recorded in the same store (the MCP proxy's, with --store) are listed
apart, as measured: they are read from the event log, never joined to DSH's calls.

  --json            print the report as JSON instead of tables
  --html FILE       also write a self-contained HTML page (charts, every failure with its file and line)
  --events FILE     the plugin's event log (default: tool-normalizer-events.jsonl next to the sessions folder)
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
}

function parseArgs(argv: readonly string[]): CliOptions | string {
  const options: CliOptions = { dir: undefined, json: false, html: undefined, events: undefined };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--json') options.json = true;
    else if (arg === '--html' || arg === '--events') {
      const value = argv[++index];
      if (!value || value.startsWith('--')) return `${arg} needs a file name`;
      if (arg === '--html') options.html = value;
      else options.events = value;
    } else if (arg.startsWith('--html=') || arg.startsWith('--events=')) {
      const [name, value] = [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)];
      if (value === '') return `${name}= needs a file name`;
      if (name === '--html') options.html = value;
      else options.events = value;
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

/** Runs the analyze command; resolves to the process exit code (0 ok, 1 error, 2 usage, 130 interrupted). */
export async function runAnalyzeCli(
  argv: readonly string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(USAGE);
    return 0;
  }
  const options = parseArgs(argv);
  if (typeof options === 'string') {
    io.stderr.write(`analyze: ${options}\n\n${USAGE}`);
    return 2;
  }
  if (!zstdDecompressor()) {
    io.stderr.write(
      `analyze: DSH stores sessions zstd-compressed, and this Node (${process.version}) has no built-in zstd; run it with Node >= 22.15 (what DSH itself requires).\n`,
    );
    return 1;
  }
  const sessionsDir = path.resolve(options.dir ?? defaultSessionsDir(io.env));
  const eventLog = path.resolve(options.events ?? path.join(path.dirname(sessionsDir), PLUGIN_EVENT_LOG));
  // Only another harness's receipts (an MCP proxy user without DSH sessions): reported, with a note.
  const othersOnly = async (why: string): Promise<boolean> => {
    if ((await readOtherHarnesses(eventLog)).length === 0) return false;
    io.stderr.write(`analyze: ${why}; reporting what other harnesses recorded in ${eventLog}\n`);
    return true;
  };
  const htmlProblem = options.html ? htmlPathProblem(options.html) : undefined;
  if (htmlProblem) {
    io.stderr.write(`analyze: --html ${options.html}: ${htmlProblem}\n`);
    return 2;
  }
  const hasDir = fs.existsSync(sessionsDir) && fs.statSync(sessionsDir).isDirectory();
  const files = hasDir ? findSessionFiles(sessionsDir) : [];
  if (files.length === 0) {
    const why = hasDir ? `no session logs under ${sessionsDir}` : `no sessions folder at ${sessionsDir}`;
    if (!(await othersOnly(why))) {
      io.stderr.write(
        hasDir
          ? `analyze: no session logs (*.jsonl.zstd or *.jsonl) under ${sessionsDir}; DSH keeps them in $DSH_HOME/sessions (default ~/.dsh/sessions): pass that folder, or set DSH_HOME\n`
          : `analyze: no sessions folder at ${sessionsDir}${options.dir ? '' : ' (set DSH_HOME or pass a folder)'}\n`,
      );
      return 1;
    }
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
      sessionsDir,
      files,
      eventLog,
      ...(draw ? { onProgress: draw } : {}),
      signal: controller.signal,
    });
    if (draw && report.interrupted) io.stderr.write('\n');
    io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    if (options.html) {
      // The page holds (redacted) arguments and errors of the user's sessions: private to the user.
      fs.writeFileSync(options.html, renderHtml(report), { mode: 0o600 });
      fs.chmodSync(options.html, 0o600); // an existing file keeps its mode on write: make it private too
      io.stderr.write(`analyze: wrote ${path.resolve(options.html)}\n`);
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
