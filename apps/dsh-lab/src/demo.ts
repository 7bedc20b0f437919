#!/usr/bin/env node
/**
 * The project's main-job command (`bash scripts/demo.sh`): boots the real DeepSeek Harness 0.1.0-rc.8 headless
 * twice over the same scripted Code-Mode coding session, once without and once with dsh-tool-normalizer
 * installed the way users install it, and prints what the plugin changed for the model. `--json` prints the
 * comparison as JSON; `--web` boots the web profile instead and prints where the dashboard lives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { compareRuns, formatComparison } from './demo-report.js';
import { demoFixtures, demoScript, demoTask, demoTasks } from './demo-session.js';
import { codeModeSetting } from './code-mode.js';
import { cacheRoot, DSH_VERSION, labPaths, repoRoot } from './lab-paths.js';
import { pluginStatus } from './provision.js';
import { runSession, type SessionRun } from './run-session.js';
import { statsLines } from './web-browser.js';
import { startWebProfile } from './web-profile.js';

interface DemoOptions {
  json: boolean;
  web: boolean;
  /** `--web-seconds N`: stop the web profile after N seconds instead of waiting for Ctrl-C. */
  webSeconds: number | undefined;
}

function parseArgs(argv: readonly string[]): DemoOptions {
  const options: DemoOptions = { json: false, web: false, webSeconds: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--web') options.web = true;
    else if (arg === '--web-seconds') {
      options.webSeconds = Number(argv[++i]);
      if (!Number.isFinite(options.webSeconds) || options.webSeconds <= 0)
        throw new Error('--web-seconds needs a positive number');
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write('usage: demo [--json] [--web [--web-seconds N]]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${arg} (try --help)`);
  }
  return options;
}

const progress = (text: string) => process.stderr.write(`[demo] ${text}\n`);
const relative = (file: string | undefined) => (file ? path.relative(process.cwd(), file) || file : '(none)');

async function runDemo(options: DemoOptions): Promise<number> {
  const status = pluginStatus();
  progress(
    `real DeepSeek Harness ${DSH_VERSION}, headless, Code Mode (DSH_TOOLS_MODE=${codeModeSetting('code', DSH_VERSION)?.name}); scripted model on 127.0.0.1; cache ${relative(cacheRoot)}`,
  );
  progress(`run 1/2: without the plugin (${demoTasks.length} tasks)`);
  const session = {
    // Code Mode under the name the installed host accepts (dsh-profile: `code` on rc.8, `ptc` on 0.1.7 and later)
    mode: 'code' as const,
    steps: demoScript(),
    workspaceFixtures: demoFixtures,
    task: demoTask,
    label: 'demo',
  };
  const without = await runSession({ ...session, plugin: false });
  let withPlugin: SessionRun | { skipped: string };
  if (status.available) {
    progress(
      `run 2/2: with ${status.name} installed by \`dsh plugin --profile headless add -w ${path.relative(repoRoot, labPaths.pluginPackage)}\``,
    );
    withPlugin = await runSession({ ...session, plugin: true });
  } else {
    withPlugin = { skipped: status.reason };
    progress(`run 2/2 skipped: ${status.reason}`);
  }
  const comparison = compareRuns(demoTasks, without, withPlugin);
  const summaryFile = path.join(cacheRoot, 'demo', 'summary.json');
  fs.mkdirSync(path.dirname(summaryFile), { recursive: true });
  fs.writeFileSync(summaryFile, `${JSON.stringify({ dsh: DSH_VERSION, task: demoTask, ...comparison }, null, 2)}\n`);
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ dsh: DSH_VERSION, task: demoTask, summaryFile, ...comparison }, null, 2)}\n`,
    );
  } else {
    const out: string[] = [];
    out.push(
      '',
      `Task given to DSH: "${demoTask}"`,
      `The scripted model makes ${demoTasks.length} first attempts and sends a corrected call whenever it sees an error.`,
      '',
    );
    out.push(formatComparison(comparison), '');
    out.push('Written:');
    out.push(`  host session log (without plugin)  ${relative(comparison.without.sessionLogPath)}`);
    if (!('skipped' in comparison.with)) {
      out.push(`  host session log (with plugin)     ${relative(comparison.with.sessionLogPath)}`);
      out.push(`  plugin event log                   ${relative(comparison.with.eventLogPath)}`);
      out.push(`  plugin store (SQLite)              ${relative(comparison.with.databasePath)}`);
    }
    out.push(`  demo summary (JSON)                ${relative(summaryFile)}`);
    out.push(`  run folders (requests, stdout)     ${relative(labPaths.runs)}`, '', '');
    process.stdout.write(out.join('\n'));
  }
  const exits = [without.exitCode, 'skipped' in withPlugin ? 0 : withPlugin.exitCode];
  return exits.every((code) => code === 0) ? 0 : 1;
}

/** Boots `dsh --profile web` (with the plugin when it is built) and prints where its dashboard lives. */
async function runWeb(options: DemoOptions): Promise<number> {
  const status = pluginStatus();
  const kind = status.available ? 'plugin' : 'plain';
  const web = await startWebProfile({ kind });
  const { url } = web;
  const lines = [
    `DSH web profile (${kind === 'plugin' ? `with ${status.name}` : 'without the plugin'}) is running at ${url}`,
  ];
  const dashboard = dashboardStatus();
  if (!status.available) lines.push(`The plugin is not installed, so there is no dashboard: ${status.reason}`);
  else if (!dashboard.exists) lines.push(`The plugin is installed without its dashboard: ${dashboard.reason}`);
  else {
    lines.push(`Dashboard: open ${url}/ , click "Settings" at the bottom of the left sidebar, then "Tool Normalizer"`);
    lines.push('  (if an "Internal Testing Notice" covers the page, press Continue first; DSH remembers it).');
  }
  lines.push(...(await statsLines(url)));
  if (status.available)
    lines.push(
      'The counters fill when the agent makes tool calls (or run `bash scripts/demo.sh` first: it shares this DSH_HOME).',
    );
  lines.push(options.webSeconds ? `Stopping after ${options.webSeconds} s.` : 'Press Ctrl-C to stop.');
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => void web.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (options.webSeconds) setTimeout(stop, options.webSeconds * 1000).unref();
  await web.closed;
  await web.stop();
  return 0;
}

/** Whether the meta-package ships a DSH web client (the Settings dashboard). */
function dashboardStatus(): { exists: boolean; reason: string } {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(labPaths.pluginPackage, 'package.json'), 'utf8')) as {
      dsh?: { client?: unknown };
      exports?: Record<string, unknown>;
    };
    if (!manifest.dsh?.client) return { exists: false, reason: 'the meta-package declares no "dsh.client" web bundle' };
    if (!manifest.exports?.['./client'])
      return { exists: false, reason: 'the meta-package exports no "./client" bundle' };
    return { exists: true, reason: 'declared' };
  } catch (error) {
    return { exists: false, reason: String(error) };
  }
}

async function main(): Promise<void> {
  let code = 1;
  try {
    const options = parseArgs(process.argv.slice(2));
    code = options.web ? await runWeb(options) : await runDemo(options);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  }
  process.exit(code);
}

await main();
