/**
 * `dsh-tool-normalizer analyze [sessions-dir]` (also this package's own `dsh-session-analyzer` bin): parses the
 * arguments, runs the analysis with a progress bar on a terminal (none when stderr is piped), prints what was
 * analysed so far on Ctrl-C, and writes the terminal table, `--json` or an `--html` page.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatReport } from './format-text.js';
import { renderHtml } from './format-html.js';
import { analyzeSessions, defaultSessionsDir, zstdDecompressor } from './node.js';

export const USAGE = `usage: dsh-tool-normalizer analyze [sessions-dir] [--json] [--html report.html] [--events file]

Reads DeepSeek Harness session logs (default: $DSH_HOME/sessions, else ~/.dsh/sessions) and reports how often
tool calls failed, why, what the current healing rules would have healed or recovered, and what each failure cost
in re-read tokens.

  --json            print the report as JSON instead of tables
  --html FILE       also write a self-contained HTML page (rendered with <tn-dashboard>)
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
    } else if (arg.startsWith('--html=')) options.html = arg.slice('--html='.length);
    else if (arg.startsWith('--events=')) options.events = arg.slice('--events='.length);
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else if (options.dir === undefined) options.dir = arg;
    else return `only one sessions folder can be given (got ${options.dir} and ${arg})`;
  }
  return options;
}

/** File name of dashboard-lit's standalone `<tn-dashboard>` bundle. */
export const DASHBOARD_BUNDLE = 'tn-dashboard.js';

/**
 * The built `<tn-dashboard>` bundle, inlined into the HTML page: `tn-dashboard.js` next to the running script (a
 * bundled bin can ship a copy there), else the one of the installed `@dsh-tool-normalizer/dashboard-lit`.
 */
export function readDashboardBundle(): string {
  const beside = fileURLToPath(new URL(DASHBOARD_BUNDLE, import.meta.url));
  if (fs.existsSync(beside)) return fs.readFileSync(beside, 'utf8');
  const require = createRequire(import.meta.url);
  return fs.readFileSync(require.resolve(`@dsh-tool-normalizer/dashboard-lit/${DASHBOARD_BUNDLE}`), 'utf8');
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
  if (!fs.existsSync(sessionsDir) || !fs.statSync(sessionsDir).isDirectory()) {
    io.stderr.write(
      `analyze: no sessions folder at ${sessionsDir}${options.dir ? '' : ' (set DSH_HOME or pass a folder)'}\n`,
    );
    return 1;
  }
  let dashboardBundle: string | undefined;
  if (options.html) {
    try {
      dashboardBundle = readDashboardBundle();
    } catch (error) {
      io.stderr.write(
        `analyze: --html needs the built dashboard bundle (@dsh-tool-normalizer/dashboard-lit/dist/tn-dashboard.js): ${error instanceof Error ? error.message : String(error)}\n`,
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
      ...(options.events ? { eventLog: path.resolve(options.events) } : {}),
      ...(draw ? { onProgress: draw } : {}),
      signal: controller.signal,
    });
    if (draw && report.interrupted) io.stderr.write('\n');
    io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    if (options.html && dashboardBundle !== undefined) {
      fs.writeFileSync(options.html, renderHtml(report, dashboardBundle));
      io.stderr.write(`analyze: wrote ${path.resolve(options.html)}\n`);
    }
    return report.interrupted ? 130 : 0;
  } finally {
    signals.removeListener('SIGINT', onInterrupt);
  }
}

/** The subcommand contract of the `dsh-tool-normalizer` dispatcher: `run(args)` resolves to the exit code. */
export function run(args: string[]): Promise<number> {
  return runAnalyzeCli(args);
}
