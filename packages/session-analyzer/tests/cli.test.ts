/**
 * The command as users run it (`runAnalyzeCli`, what `dsh-tool-normalizer analyze` dispatches to): findings first
 * then tables by default, `--json` (report v2, predictions under their own names), `--html` (the analyzer's own
 * self-contained page), a progress bar only on a terminal, Ctrl-C reporting what was analysed so far, and clear
 * errors before the run: a bad `--html` path, `--html=`, an empty folder. The built bin prints no ExperimentalWarning.
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS_SAVED_DEFINITION } from '@dsh-tool-normalizer/telemetry-store/outcomes';
import { runAnalyzeCli, type CliIo } from '../src/cli.js';
import { FAILURE_FILTER_SCRIPT } from '../src/report-script.js';
import type { AnalysisReport } from '../src/index.js';
import { copyRealSample, hasRealSessions, tempDir } from './support.js';

function io(options: { tty?: boolean; onStderr?: (text: string) => void; signals?: EventEmitter } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: {
      isTTY: options.tty ?? false,
      columns: 80,
      write: (text: string) => {
        err.push(text);
        options.onStderr?.(text);
      },
    },
    env: {},
    ...(options.signals
      ? { signals: options.signals as unknown as Pick<NodeJS.Process, 'once' | 'removeListener'> }
      : {}),
  };
  return { value, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe.skipIf(!hasRealSessions)('analyze command', () => {
  let dir: string;
  let files: string[];

  beforeAll(() => {
    dir = tempDir('cli');
    files = copyRealSample(dir, 200, ['pty-tools/session-a23dcdd7fd8e', 'both-mode-turn/session-1b008c0eccb3']);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('opens with what was found, then the census, prediction and cost tables; no progress bar when piped', async () => {
    const run = io();
    expect(await runAnalyzeCli([dir], run.value)).toBe(0);
    const text = run.stdout();
    expect(text).toMatch(/^DSH session analysis of .*\n\nWhat was found\n/);
    for (const heading of [
      'Census (measured from the logs)',
      'Errors by host code',
      'Prediction: every failed call replayed',
      'Cost: context the model re-read',
    ])
      expect(text).toContain(heading);
    expect(text.indexOf('What was found')).toBeLessThan(text.indexOf('Census'));
    expect(text).toMatch(/Predicted with the current rules \(a replay of each failure, not a measurement\)/);
    expect(text).toMatch(new RegExp(`sessions\\s+${files.length}\\n`));
    expect(run.stderr()).toBe('');
  });

  it('fits every line in 100 columns, however long the paths and texts', async () => {
    const run = io();
    expect(await runAnalyzeCli([dir], run.value)).toBe(0);
    const lines = run.stdout().split('\n');
    expect(lines.filter((line) => [...line].length > 100)).toEqual([]);
    // the failures table still names each failure's session folder and line
    expect(run.stdout()).toMatch(/session-[0-9a-f]{12}\/session\.jsonl\.zstd:\d+ +\S+/);
  });

  it('a successful run_code whose schema declares `code` alone is not rewritten (the rule reads the schema)', async () => {
    const run = io();
    expect(await runAnalyzeCli([dir, '--json'], run.value)).toBe(0);
    const report = JSON.parse(run.stdout()) as AnalysisReport;
    // both-mode-turn (a July 2026 build): run_code takes only `code`, and the host ran the call without a description.
    // run_code.fill-description used to add one (a changed valid call); it now fills only where the schema requires it.
    const example = report.prediction.changedSuccesses.examples.find((row) =>
      row.file.includes('session-1b008c0eccb3'),
    );
    expect(example).toBeUndefined();
    expect(
      report.prediction.changedSuccesses.examples.filter((row) => row.ruleId === 'run_code.fill-description'),
    ).toEqual([]);
  });

  it('--json prints report v2: findings first, predictions under their own names, no live stats payload', async () => {
    const run = io();
    expect(await runAnalyzeCli([dir, '--json'], run.value)).toBe(0);
    const report = JSON.parse(run.stdout()) as AnalysisReport;
    expect(report.v).toBe(2);
    expect(Object.keys(report).indexOf('findings')).toBeLessThan(Object.keys(report).indexOf('census'));
    expect(report.census.sessions).toBe(files.length);
    expect(report.census.errors).toBeGreaterThan(0);
    expect(report).not.toHaveProperty('stats');
    expect(run.stdout()).not.toMatch(/healedSuccess|tokensSaved|passThroughFailed/);
    const { predicted } = report.findings;
    expect(
      predicted.wouldHeal +
        predicted.wouldRecover +
        predicted.hintOnly +
        predicted.noRuleApplies +
        predicted.notReplayable,
    ).toBe(report.census.errors);
  });

  it('--html writes one self-contained page of its own markup: its one fixed script, no dashboard element, private file', async () => {
    const file = path.join(dir, '..', `${path.basename(dir)}-report.html`);
    fs.writeFileSync(file, 'an older report', { mode: 0o644 });
    const run = io();
    expect(await runAnalyzeCli([dir, '--html', file], run.value)).toBe(0);
    const html = fs.readFileSync(file, 'utf8');
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    fs.rmSync(file);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/tn-dashboard|plugin-api|Calls intercepted|Healing success rate/i);
    // the only script is the failure filter, allowed by its hash and by nothing else
    expect([...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1])).toEqual([
      FAILURE_FILTER_SCRIPT,
    ]);
    expect(html.match(/<script/g)).toHaveLength(1);
    // "tokens saved" appears only as a prediction, with the one definition the dashboard measures by.
    for (const match of html.matchAll(/tokens saved/gi)) {
      const after = html.slice(match.index, match.index + 40);
      expect(after).toMatch(/^tokens saved(, predicted| = per healed call)/i);
    }
    expect(html).toContain(TOKENS_SAVED_DEFINITION.en.replaceAll("'", '&#39;'));
    expect(html).not.toMatch(/\b(src|href)="https?:/);
    expect(html.indexOf('What was found')).toBeLessThan(html.indexOf('<svg'));
    expect(html.match(/<svg /g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('checks the --html path before the run, and refuses --html= and a folder without logs', async () => {
    const bad = io();
    expect(await runAnalyzeCli([dir, '--html', path.join(dir, 'no-such-folder', 'r.html')], bad.value)).toBe(2);
    expect(bad.stderr()).toMatch(/^analyze: --html .*: the folder .*no-such-folder does not exist\n$/);
    expect(bad.stdout()).toBe('');
    const folder = io();
    expect(await runAnalyzeCli([dir, `--html=${dir}`], folder.value)).toBe(2);
    expect(folder.stderr()).toMatch(/is a folder/);
    const empty = io();
    expect(await runAnalyzeCli([dir, '--html='], empty.value)).toBe(2);
    expect(empty.stderr()).toContain('--html= needs a file name');
    const emptyDir = tempDir('empty');
    const none = io();
    expect(await runAnalyzeCli([emptyDir], none.value)).toBe(1);
    expect(none.stderr()).toMatch(/no session logs .* under .*; DSH keeps them in \$DSH_HOME\/sessions/);
    fs.rmSync(emptyDir, { recursive: true, force: true });
  });

  it.each([
    [
      'the built bin',
      `process.argv.splice(1, process.argv.length, 'bin', '--help'); await import(${JSON.stringify(path.resolve(import.meta.dirname, '../dist/bin.js'))});`,
    ],
    [
      'the dispatcher entry run()',
      `const { run } = await import(${JSON.stringify(path.resolve(import.meta.dirname, '../dist/cli.js'))}); await run(['--help']);`,
    ],
  ])('%s drops only ExperimentalWarning from stderr', (_name, start) => {
    const script = `${start} process.emitWarning('zstd is experimental', 'ExperimentalWarning'); process.emitWarning('kept', 'UserWarning');`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stdout).toContain('usage: dsh-tool-normalizer analyze');
    expect(child.stderr).not.toContain('ExperimentalWarning');
    expect(child.stderr).toContain('UserWarning: kept');
  });

  it('draws a progress bar on a terminal, and Ctrl-C prints what was analysed so far', async () => {
    const signals = new EventEmitter();
    let sent = false;
    const run = io({
      tty: true,
      signals,
      onStderr: (text) => {
        if (!sent && text.startsWith('\r[')) {
          sent = true;
          signals.emit('SIGINT');
        }
      },
    });
    expect(await runAnalyzeCli([dir], run.value)).toBe(130);
    expect(run.stderr()).toMatch(/\r\[#+\.*\] 1\/\d+ logs/);
    expect(run.stderr()).toContain('interrupted: reporting what was analysed so far');
    expect(run.stdout()).toMatch(new RegExp(`INTERRUPTED: analysed 1 of ${files.length} files`));
    expect(signals.listenerCount('SIGINT')).toBe(0);
  });

  it('explains bad arguments and a missing folder', async () => {
    const bad = io();
    expect(await runAnalyzeCli(['--nope'], bad.value)).toBe(2);
    expect(bad.stderr()).toContain('unknown option --nope');
    const missing = io();
    expect(await runAnalyzeCli([path.join(dir, 'does-not-exist')], missing.value)).toBe(1);
    expect(missing.stderr()).toMatch(/no sessions folder at .*does-not-exist/);
    const help = io();
    expect(await runAnalyzeCli(['--help'], help.value)).toBe(0);
    expect(help.stdout()).toContain('usage: dsh-tool-normalizer analyze');
  });
});
