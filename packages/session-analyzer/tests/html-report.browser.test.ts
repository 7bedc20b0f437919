/**
 * The `--html` page in Debian's headless Chromium, opened from disk with no server and no network, at a phone's
 * 420 px and a desktop's 1,400 px: it opens with what was found, draws its inline-SVG charts, pages the failures 50
 * at a time with a count and filters them by code, tool and prediction (its one CSP-hashed script), links each to
 * its file and line, makes no request and logs no console error (a CSP violation would be one), never makes the
 * page scroll sideways, never breaks a number, and breaks text in the Failures table only at a space, `_`, `-` or
 * `/`; at 420 px each failure is a card whose labels ("prediction") are whole. Every wait is on a condition (a
 * locator or `expect.poll` with a generous bound), never a fixed sleep. Screenshots are saved to
 * `artifacts/session-analyzer-report-<width>.png`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnalyzeCli } from '../src/cli.js';
import type { AnalysisReport } from '../src/index.js';
import { FAILURES_PAGE_ROWS } from '../src/report-script.js';
import { copyRealSample, hasRealSessions, tempDir } from './support.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
const artifactsDir = fileURLToPath(new URL('../../../artifacts/', import.meta.url));
/** Bounds on waits for a condition under load (a loaded 2-core machine); never a fixed delay. */
const WAIT = { timeout: 60_000 };

/** Texts of the failure table's visible cells (not prose) that wrap anywhere but after a space, `_`, `-` or `/`. */
function midTokenBreaks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bad: string[] = [];
    for (const cell of document.querySelectorAll<HTMLElement>('#failures tbody tr:not([hidden]) td:not(.prose)')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      let previous: { top: number; char: string } | undefined;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let index = 0; index < text.length; index++) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          const rect = range.getClientRects()[0];
          if (!rect) continue;
          const top = Math.round(rect.top);
          if (previous && top > previous.top + 2 && !/[\s_/-]/.test(previous.char)) bad.push(cell.textContent ?? '');
          previous = { top, char: text[index] as string };
        }
      }
    }
    return bad;
  });
}

describe.skipIf(!hasChromium || !hasRealSessions)('--html report in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let report: AnalysisReport;
  let htmlFile: string;

  beforeAll(async () => {
    dir = tempDir('html');
    const sessions = path.join(dir, 'sessions');
    copyRealSample(sessions, 20, ['pty-tools', 'approval-composer', 'fs-policy-reject', 'both-mode-turn']);
    htmlFile = path.join(dir, 'report.html');
    const out: string[] = [];
    const io = { stdout: { write: (text: string) => out.push(text) }, stderr: { write: () => true }, env: {} };
    expect(await runAnalyzeCli([sessions, '--json', '--html', htmlFile], io)).toBe(0);
    report = JSON.parse(out.join('')) as AnalysisReport;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], timeout: WAIT.timeout });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const width of [420, 1400]) {
    it(`works at ${width} px from a file, offline, without console errors`, { timeout: 240_000 }, async () => {
      expect(report.failuresListed).toBeGreaterThan(FAILURES_PAGE_ROWS); // the sample has more than one page
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      page.setDefaultTimeout(WAIT.timeout);
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });
      page.on('request', (request) => {
        if (request.url() !== `file://${htmlFile}`) requests.push(request.url());
      });
      await page.goto(`file://${htmlFile}`, { waitUntil: 'load' });
      // what was found comes first, with the measured errors and the prediction worded as one
      await expect
        .poll(() => page.locator('#found li').first().textContent(), WAIT)
        .toContain(`${report.census.errors.toLocaleString('en-US')} of`);
      await expect.poll(() => page.locator('#found').textContent(), WAIT).toContain('not a measurement');
      const foundBox = await page.locator('#found').boundingBox();
      expect(foundBox?.y ?? 1e9).toBeLessThan(200);
      expect(await page.locator('svg').count()).toBeGreaterThanOrEqual(3);

      // the failures: one page of 50 with its count, each row linking to its log file and line
      await page.locator('#failures summary').click();
      const count = page.locator('#failures .count');
      const visibleRows = page.locator('#failures tbody tr:not([hidden])');
      const pages = Math.ceil(report.failuresListed / FAILURES_PAGE_ROWS);
      await expect
        .poll(() => count.textContent(), WAIT)
        .toBe(`showing ${FAILURES_PAGE_ROWS} of ${report.failuresListed}, page 1 of ${pages}`);
      expect(await page.locator('#failures tbody tr').count()).toBe(report.failuresListed);
      await expect.poll(() => visibleRows.count(), WAIT).toBe(FAILURES_PAGE_ROWS);
      await expect(visibleRows.first().locator('td a').getAttribute('href')).resolves.toMatch(
        /^file:\/\/\/.*session\.jsonl\.zstd$/,
      );
      await page.locator('#failures button.next').click();
      await expect.poll(() => count.textContent(), WAIT).toContain(`page 2 of ${pages}`);
      // filtered by a code: the count and the rows are that code's
      const code = report.census.byCode.find((row) => row.key !== '(no code)') ?? report.census.byCode[0];
      const withCode = report.failures.filter((row) => row.code === code?.key).length;
      await page.locator('#failures select[name=code]').selectOption(code?.key ?? '');
      await expect
        .poll(() => count.textContent(), WAIT)
        .toMatch(new RegExp(`^showing ${Math.min(withCode, FAILURES_PAGE_ROWS)} of ${withCode}( matching|$)`));
      const codes = await visibleRows.evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.code));
      expect(new Set(codes)).toEqual(new Set([code?.key]));
      // and by prediction on top: every shown row has both
      await page.locator('#failures select[name=outcome]').selectOption({ index: 1 });
      const outcome = await page.locator('#failures select[name=outcome]').inputValue();
      const both = report.failures.filter((row) => row.code === code?.key && row.outcome === outcome).length;
      await expect
        .poll(() => count.textContent(), WAIT)
        .toMatch(new RegExp(`^showing ${Math.min(both, FAILURES_PAGE_ROWS)} of ${both}`));
      await page.locator('#failures select[name=code]').selectOption('');
      await page.locator('#failures select[name=outcome]').selectOption('');
      await expect.poll(() => visibleRows.count(), WAIT).toBe(FAILURES_PAGE_ROWS);

      // codes, tools and paths break only at a space, `_`, `-` or `/`
      expect(await midTokenBreaks(page)).toEqual([]);
      if (width === 420) {
        // a card per failure: its header row is hidden and each value carries its whole label
        await expect.poll(() => page.locator('#failures thead').isVisible(), WAIT).toBe(false);
        const labels = await visibleRows
          .first()
          .locator('td')
          .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
        expect(labels).toContain('"prediction: "');
        const clipped = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('#failures tbody tr:not([hidden]) td')]
            .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
            .map((cell) => cell.textContent),
        );
        expect(clipped).toEqual([]);
      }

      // open every section, then measure: nothing wider than the window, no number split across lines
      await page.evaluate(() => {
        for (const details of document.querySelectorAll('details')) details.open = true;
      });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const wrappedNumbers = await page.evaluate(() => {
        const bad: string[] = [];
        for (const cell of document.querySelectorAll<HTMLElement>('tr:not([hidden]) td.num, th')) {
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
        (document.querySelector('#failures') as HTMLDetailsElement).open = true;
      });
      await page.screenshot({ path: path.join(artifactsDir, `session-analyzer-report-${width}.png`), fullPage: true });
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    });
  }
});
