#!/usr/bin/env node
/**
 * The project's main-job command (`bash scripts/demo.sh`): boots the real DeepSeek Harness 0.1.0-rc.8 headless
 * twice over the same scripted Code-Mode coding session, once without and once with dsh-tool-normalizer
 * installed the way users install it, and prints what the plugin changed for the model. `--json` prints the
 * comparison as JSON; `--web` boots the web profile instead and prints where the dashboard lives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { LabStepError } from './child-process.js';
import { compareRuns, formatComparison } from './demo-report.js';
import { demoFixtures, demoScript, demoTask, demoTasks } from './demo-session.js';
import { cacheRoot, DSH_VERSION, labPaths, repoRoot } from './lab-paths.js';
import { dshEnvironment, ensureProfile, pluginStatus } from './provision.js';
import { runSession, type SessionRun } from './run-session.js';
import { startScriptedModel } from './scripted-model.js';

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
      if (!Number.isFinite(options.webSeconds) || options.webSeconds <= 0) throw new Error('--web-seconds needs a positive number');
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
  progress(`real DeepSeek Harness ${DSH_VERSION}, headless, Code Mode; scripted model on 127.0.0.1; cache ${relative(cacheRoot)}`);
  progress(`run 1/2: without the plugin (${demoTasks.length} tasks)`);
  const session = { mode: 'code' as const, steps: demoScript(), workspaceFixtures: demoFixtures, task: demoTask, label: 'demo' };
  const without = await runSession({ ...session, plugin: false });
  let withPlugin: SessionRun | { skipped: string };
  if (status.available) {
    progress(`run 2/2: with ${status.name} installed by \`dsh plugin --profile headless add -w ${path.relative(repoRoot, labPaths.pluginPackage)}\``);
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
    process.stdout.write(`${JSON.stringify({ dsh: DSH_VERSION, task: demoTask, summaryFile, ...comparison }, null, 2)}\n`);
  } else {
    const out: string[] = [];
    out.push('', `Task given to DSH: "${demoTask}"`, `The scripted model makes ${demoTasks.length} first attempts and sends a corrected call whenever it sees an error.`, '');
    out.push(formatComparison(comparison), '');
    out.push('Written:');
    out.push(`  host session log (without plugin)  ${relative(comparison.without.sessionLogPath)}`);
    if (!('skipped' in comparison.with)) {
      out.push(`  host session log (with plugin)     ${relative(comparison.with.sessionLogPath)}`);
      out.push(`  plugin event log                   ${relative(comparison.with.eventLogPath)}`);
      out.push(`  plugin summary                     ${relative(comparison.with.summaryPath)}`);
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
  const { install, dshHome } = await ensureProfile(kind, 'web');
  const model = await startScriptedModel([{ text: 'This is the dsh-lab scripted model: it only answers with this text.' }], { maxRequests: 50 });
  const child = spawn(install.nodeBin, [install.dshEntry, '--profile', 'web', '--no-open', '--host', '127.0.0.1', '--port', '0'], {
    env: dshEnvironment(install, dshHome, { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'sk-dsh-lab-scripted' }),
    cwd: dshHome,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new LabStepError('boot dsh --profile web', 'no URL printed within 90 s', stderr)), 90_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
      const match = /https?:\/\/127\.0\.0\.1:\d+/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new LabStepError('boot dsh --profile web', `exited with code ${code} before printing its URL`, stderr));
    });
  });
  const lines = [`DSH web profile (${kind === 'plugin' ? `with ${status.name}` : 'without the plugin'}) is running at ${url}`];
  lines.push(`Settings page: ${url}/ , then Settings > Tool Normalizer`);
  const dashboard = dashboardStatus();
  if (!status.available) lines.push(`The plugin is not installed: ${status.reason}`);
  else if (!dashboard.exists) lines.push(`The dashboard does not exist yet: ${dashboard.reason}`);
  const stats = await fetch(`${url}/plugin-api/tool-normalizer/stats`).then(
    (res) => `HTTP ${res.status}`,
    (error: unknown) => `unreachable (${String(error)})`,
  );
  lines.push(`Stats route ${url}/plugin-api/tool-normalizer/stats: ${stats}`);
  lines.push(options.webSeconds ? `Stopping after ${options.webSeconds} s.` : 'Press Ctrl-C to stop.');
  process.stdout.write(`${lines.join('\n')}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (options.webSeconds) setTimeout(stop, options.webSeconds * 1000).unref();
    child.once('close', () => resolve());
  });
  await model.close();
  return 0;
}

/** Whether the meta-package ships a DSH web client (the Settings dashboard). */
function dashboardStatus(): { exists: boolean; reason: string } {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(labPaths.pluginPackage, 'package.json'), 'utf8')) as { dsh?: { client?: unknown }; exports?: Record<string, unknown> };
    if (!manifest.dsh?.client) return { exists: false, reason: 'the meta-package declares no "dsh.client" web bundle' };
    if (!manifest.exports?.['./client']) return { exists: false, reason: 'the meta-package exports no "./client" bundle' };
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
