/**
 * The `--html` page in Debian's headless Chromium: opened from disk with no server and no network, the inlined
 * `<tn-dashboard>` renders the analysis' stats payload (calls, predicted heals) and the census tables sit below it;
 * nothing throws. A screenshot is saved to `artifacts/session-analyzer-report.png`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnalyzeCli } from '../src/cli.js';
import type { AnalysisReport } from '../src/index.js';
import { copyRealSample, hasRealSessions, tempDir } from './support.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
const artifactsDir = fileURLToPath(new URL('../../../artifacts/', import.meta.url));

describe.skipIf(!hasChromium || !hasRealSessions)('--html report in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let report: AnalysisReport;
  let htmlFile: string;

  beforeAll(async () => {
    dir = tempDir('html');
    const sessions = path.join(dir, 'sessions');
    copyRealSample(sessions, 40, ['pty-tools', 'approval-composer']);
    htmlFile = path.join(dir, 'report.html');
    const out: string[] = [];
    const io = { stdout: { write: (text: string) => out.push(text) }, stderr: { write: () => true }, env: {} };
    expect(await runAnalyzeCli([sessions, '--json', '--html', htmlFile], io)).toBe(0);
    report = JSON.parse(out.join('')) as AnalysisReport;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('renders the analysis with <tn-dashboard> from a file, offline, without errors', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) requests.push(request.url());
    });
    await page.goto(`file://${htmlFile}`);
    const calls = page.locator('tn-dashboard [data-kpi="calls"]');
    await calls.waitFor({ timeout: 15_000 });
    const digits = (text: string | null) => (text ?? '').replace(/\D/g, '');
    expect(digits(await calls.textContent())).toContain(String(report.stats.totals.calls));
    expect(digits(await page.locator('tn-dashboard [data-kpi="healed"]').textContent())).toContain(
      String(report.stats.totals.healedSuccess),
    );
    await expect(page.locator('h2', { hasText: 'Counterfactual' }).count()).resolves.toBe(1);
    await expect(page.locator('h3:text-is("Errors by host code") + table td').first().textContent()).resolves.toBe(
      report.census.byCode[0]?.key,
    );
    fs.mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, 'session-analyzer-report.png'), fullPage: true });
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });
});
