/**
 * The `--html` page in Debian's headless Chromium, opened from disk with no server and no network, at a phone's
 * 420 px and a desktop's 1,400 px: it opens with what was found, draws its inline-SVG charts, lists the failures with
 * their file and line, makes no request and logs no console error, never makes the page scroll sideways, and never
 * breaks a number across lines. Screenshots are saved to `artifacts/session-analyzer-report-<width>.png`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
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
    copyRealSample(sessions, 40, ['pty-tools', 'approval-composer', 'fs-policy-reject', 'both-mode-turn']);
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

  for (const width of [420, 1400]) {
    it(`works at ${width} px from a file, offline, without console errors`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });
      page.on('request', (request) => {
        if (request.url() !== `file://${htmlFile}`) requests.push(request.url());
      });
      await page.goto(`file://${htmlFile}`);
      // what was found comes first, with the measured errors and the prediction worded as one
      const found = page.locator('#found li').first();
      await expect(found.textContent()).resolves.toContain(`${report.census.errors.toLocaleString('en-US')} of`);
      await expect(page.locator('#found').textContent()).resolves.toContain('not a measurement');
      const foundBox = await page.locator('#found').boundingBox();
      expect(foundBox?.y ?? 1e9).toBeLessThan(200);
      expect(await page.locator('svg').count()).toBeGreaterThanOrEqual(3);
      // every failure row, and its first cell links to the log file with the line
      await page.locator('details summary', { hasText: 'Failures' }).click();
      const rows = page.locator('details:has(summary:has-text("Failures")) tbody tr');
      expect(await rows.count()).toBe(report.failuresListed);
      await expect(rows.first().locator('td a').getAttribute('href')).resolves.toMatch(
        /^file:\/\/\/.*session\.jsonl\.zstd$/,
      );
      // open every section, then measure: nothing wider than the window, no number split across lines
      await page.evaluate(() => {
        for (const details of document.querySelectorAll('details')) details.open = true;
      });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const wrappedNumbers = await page.evaluate(() => {
        const bad: string[] = [];
        for (const cell of document.querySelectorAll<HTMLElement>('td.num, th')) {
          // one text line gives one client rect; a wrapped number gives more
          const range = document.createRange();
          range.selectNodeContents(cell);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) bad.push(cell.textContent ?? '');
        }
        return bad;
      });
      expect(wrappedNumbers).toEqual([]);
      fs.mkdirSync(artifactsDir, { recursive: true });
      await page.evaluate(() => {
        for (const details of document.querySelectorAll('details')) details.open = false;
      });
      await page.screenshot({ path: path.join(artifactsDir, `session-analyzer-report-${width}.png`), fullPage: true });
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    });
  }
});
