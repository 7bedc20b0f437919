/**
 * The command as users run it (`runAnalyzeCli`, what `dsh-tool-normalizer analyze` dispatches to): tables by
 * default, `--json`, `--html` (a self-contained page with the built `<tn-dashboard>` bundle and the stats payload
 * inline), a progress bar only on a terminal, Ctrl-C reporting what was analysed so far, and clear usage errors.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnalyzeCli, type CliIo } from '../src/cli.js';
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
    files = copyRealSample(dir, 200, ['pty-tools/session-a23dcdd7fd8e']);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints the census, counterfactual and cost tables, with no progress bar when stderr is not a terminal', async () => {
    const run = io();
    expect(await runAnalyzeCli([dir], run.value)).toBe(0);
    expect(run.stdout()).toMatch(/^DSH session analysis of /);
    for (const heading of [
      'Census',
      'Errors by host code',
      'Counterfactual: every failed call',
      'Cost: context the model re-read',
    ])
      expect(run.stdout()).toContain(heading);
    expect(run.stdout()).toMatch(new RegExp(`sessions\\s+${files.length}\\n`));
    expect(run.stderr()).toBe('');
  });

  it('--json prints the report; its stats payload counts every answered call once', async () => {
    const run = io();
    expect(await runAnalyzeCli([dir, '--json'], run.value)).toBe(0);
    const report = JSON.parse(run.stdout()) as AnalysisReport;
    expect(report.v).toBe(1);
    expect(report.census.sessions).toBe(files.length);
    expect(report.census.errors).toBeGreaterThan(0);
    const { totals } = report.stats;
    expect(totals.passThroughFailed + totals.healedSuccess).toBe(report.census.errors);
    expect(totals.healedSuccess).toBe(report.counterfactual.outcomes.healed + report.counterfactual.outcomes.recovered);
  });

  it('--html writes one self-contained page that hands the stats payload to <tn-dashboard>', async () => {
    const file = path.join(dir, '..', `${path.basename(dir)}-report.html`);
    const run = io();
    expect(await runAnalyzeCli([dir, '--html', file], run.value)).toBe(0);
    const html = fs.readFileSync(file, 'utf8');
    fs.rmSync(file);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<tn-dashboard id="dashboard"');
    expect(html).toContain("customElements.whenDefined('tn-dashboard')");
    expect(html).not.toMatch(/<script[^>]+src=/);
    const bundle = fs.readFileSync(
      path.resolve(import.meta.dirname, '../../dashboard-lit/dist/tn-dashboard.js'),
      'utf8',
    );
    expect(html.length).toBeGreaterThan(bundle.length);
    const json = /<script type="application\/json" id="analysis-stats">(.*?)<\/script>/s.exec(html)?.[1] as string;
    const payload = JSON.parse(json);
    expect(payload.v).toBe(1);
    expect(payload.rules.length).toBeGreaterThan(5);
    // only the closing tags the page itself writes: log text cannot close a script element
    expect(html.match(/<\/script>/g)?.length).toBe(3);
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
