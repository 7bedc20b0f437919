/**
 * Tier-4 browser tests: the BUILT `dist/tn-dashboard.js` and `dist/client.js` in Debian's headless Chromium
 * (driven by playwright-core), against a local fixture server. Covers KPIs, rates with denominators, the
 * ranking floor, rule cards, filters and click-through, XSS safety, the clear flow, error states, themes and
 * polling, and saves light/dark screenshots to `artifacts/` at the repo root.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { RAW_SECRET } from './fixtures/store-payload.js';
import { REDACTED_PREVIEW, XSS_PREVIEW, emptyPayload, fixturePayload } from './fixtures/stats-payload.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const artifactsDir = fileURLToPath(new URL('../../../artifacts/', import.meta.url));

if (!hasChromium) {
  console.warn(`[dashboard-lit] browser tests skipped: no Chromium binary at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

describe.skipIf(!hasChromium)('<tn-dashboard> in Chromium (built bundle)', () => {
  let browser: Browser;
  let server: FixtureServer;
  let page: Page;

  beforeAll(async () => {
    server = await startFixtureServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  let pageErrors: string[] = [];

  beforeEach(async () => {
    server.reset();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterEach(async () => {
    await page.close();
    expect(pageErrors, 'uncaught page errors').toEqual([]);
  });

  /** Opens a page with one dashboard reading the fixture feed; polling off unless asked. */
  async function open(attrs: Record<string, string> = {}): Promise<void> {
    const query = new URLSearchParams({ src: '/plugin-api/tool-normalizer/stats', refresh: '0', theme: 'light', ...attrs });
    await page.goto(`${server.url}/page?${query}`);
  }

  const dash = () => page.locator('tn-dashboard');
  const kpi = (id: string) => dash().locator(`[data-kpi="${id}"]`);
  const eventIds = () => dash().locator('tbody tr[data-event]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-event')));

  it('shows the KPI cards computed by the server', async () => {
    await open();
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    expect(await kpi('healed').locator('.value').textContent()).toBe('79');
    expect(await kpi('healed').textContent()).toContain('7 healing attempts still failed');
    expect(await kpi('healing-rate').locator('.value').textContent()).toBe('91.9%');
    expect(await kpi('healing-rate').textContent()).toContain('79 of 86 attempts');
    expect(await kpi('surfaced-rate').locator('.value').textContent()).toBe('2.5%');
    expect(await kpi('surfaced-rate').textContent()).toContain('11.2% without healing');
    expect(await kpi('tokens').locator('.value').textContent()).toBe('12.2M');
    expect(await kpi('tokens').textContent()).toContain('12,170,000 tokens');
  });

  it('ranks tools and categories by failure rate with denominators and the minimum-calls floor', async () => {
    await open();
    const tools = dash().locator('[data-ranking="tool"]');
    await expect.poll(() => tools.locator('li[data-row]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row')))).toEqual([
      'str_replace_editor',
      'run_code',
      'bash',
      'read',
    ]);
    const editor = tools.locator('li[data-row="str_replace_editor"]');
    expect(await editor.locator('.rate').textContent()).toBe('6.3%');
    expect(await editor.locator('[data-denominator]').textContent()).toBe('6 failed / 96 calls');
    expect(await editor.textContent()).toContain('20.8% without healing');
    const belowFloor = await tools.locator('[data-below-floor]').textContent();
    expect(belowFloor).toContain('Below the 20-call floor (not ranked)');
    expect(belowFloor).toContain('write (2/12)');
    expect(belowFloor).toContain('grep (0/7)');
    const categories = dash().locator('[data-ranking="category"]');
    expect(await categories.locator('li[data-row]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row')))).toEqual([
      'unknown-tool',
      'code-syntax',
      'fs-not-observed',
      'invalid-args',
    ]);
    expect(await categories.locator('li[data-row="unknown-tool"] .rate').textContent()).toBe('54.5%');
    expect(await categories.locator('[data-below-floor]').textContent()).toContain('editor-range (3/9)');
  });

  it('renders a card per rule with its option and how often recent events used it', async () => {
    await open();
    const cards = dash().locator('article.rule');
    await expect.poll(() => cards.count()).toBe(4);
    const observe = dash().locator('[data-rule="fs.observe-then-retry"]');
    expect(await observe.textContent()).toContain('Read before edit');
    expect(await observe.textContent()).toContain('autoObserveFiles');
    expect(await observe.textContent()).toMatch(/in 2\s+recent events/);
    expect(await dash().locator('[data-rule="editor.view-range-clamp"] .badge').textContent()).toBe('off');
  });

  it('filters recent events by tool, category, outcome and text, and resets', async () => {
    await open();
    await expect.poll(eventIds).toEqual(['ev-1', 'ev-2', 'ev-3', 'ev-4', 'ev-5', 'ev-6', 'ev-7']);
    expect(await dash().locator('caption').textContent()).toMatch(/Showing 7 of 7 recent events\s+\(93 stored\)/);

    await dash().getByLabel('Tool').selectOption('run_code');
    expect(await eventIds()).toEqual(['ev-1', 'ev-3']);
    await dash().getByLabel('Outcome').selectOption('healed-success');
    expect(await eventIds()).toEqual(['ev-1', 'ev-3']);
    await dash().getByLabel('Search').fill('GIT STATUS');
    expect(await eventIds()).toEqual(['ev-1']);
    await dash().getByLabel('Search').fill('nothing matches this');
    expect(await dash().locator('tbody').textContent()).toContain('No events match these filters.');

    await dash().getByRole('button', { name: 'Reset filters' }).click();
    expect(await eventIds()).toHaveLength(7);
    await dash().getByLabel('Category').selectOption('fs-not-observed');
    expect(await eventIds()).toEqual(['ev-2', 'ev-4']);
    await dash().getByLabel('Search').fill('stale_version');
    expect(await eventIds()).toEqual(['ev-4']);
    await dash().getByLabel('Category').selectOption('');
    await dash().getByLabel('Search').fill('');
    await dash().getByLabel('Outcome').selectOption('passthrough-failed');
    expect(await eventIds()).toEqual(['ev-5', 'ev-7']);
  });

  it('clicking a ranking row shows that row\'s events', async () => {
    await open();
    await dash().locator('[data-ranking="category"]').getByRole('button', { name: 'unknown-tool' }).click();
    expect(await eventIds()).toEqual(['ev-7']);
    expect(await dash().getByLabel('Category').inputValue()).toBe('unknown-tool');
  });

  it('shows markup from event data as text and never runs it', async () => {
    await open();
    const before = dash().locator('tr[data-event="ev-2"] pre[data-before]');
    await expect.poll(() => before.textContent()).toBe(XSS_PREVIEW);
    expect(await dash().locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __tnXss?: number }).__tnXss)).toBeUndefined();
    const redacted = await dash().locator('tr[data-event="ev-3"] pre[data-after]').textContent();
    expect(redacted).toBe(REDACTED_PREVIEW);
    expect(redacted).toContain('Bearer [REDACTED]');
  });

  it('renders a payload computed by the real telemetry store, with its secrets already redacted', async () => {
    await open({ src: '/real/stats' });
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('41');
    expect(await kpi('healing-rate').locator('.value').textContent()).toBe('90.0%');
    expect(await kpi('tokens').locator('.value').textContent()).toBe('1.4M');
    expect(await dash().locator('tbody tr[data-event]').count()).toBe(41);
    const shadowText = await dash().evaluate((element) => element.shadowRoot?.textContent ?? '');
    expect(shadowText).toContain('[REDACTED]');
    expect(shadowText).not.toContain(RAW_SECRET);
  });

  it('clears only after confirmation, sends the protected request, then shows the empty state', async () => {
    await open();
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');

    await dash().getByRole('button', { name: 'Clear statistics…' }).click();
    await expect.poll(() => dash().evaluate((element) => element.shadowRoot?.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Enter');
    expect(server.clearRequests).toEqual([]);
    await expect.poll(() => dash().evaluate((element) => element.shadowRoot?.activeElement?.textContent)).toBe('Clear statistics…');
    expect(await kpi('calls').locator('.value').textContent()).toBe('907');

    await dash().getByRole('button', { name: 'Clear statistics…' }).click();
    expect(await dash().getByRole('group', { name: 'Confirm clearing' }).textContent()).toContain('Delete all counters and logged events?');
    await dash().getByRole('button', { name: 'Yes, clear' }).click();
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('0');
    expect(server.clearRequests).toEqual([{ header: 'clear', contentType: 'application/json', body: '{"confirm":"clear"}' }]);
    expect(await kpi('healing-rate').locator('.value').textContent()).toBe('no attempts yet');
    expect(await kpi('surfaced-rate').locator('.value').textContent()).toBe('no calls yet');
    expect(await dash().getByText('No tool calls intercepted yet.').isVisible()).toBe(true);
    expect(await dash().locator('table').count()).toBe(0);
    expect(await dash().getByRole('button', { name: 'Clear statistics…' }).isVisible()).toBe(true);
  });

  it('reports a failed clear without losing the data', async () => {
    await open({ 'clear-src': '/plugin-api/tool-normalizer/no-such-route' });
    await dash().getByRole('button', { name: 'Clear statistics…' }).click();
    await dash().getByRole('button', { name: 'Yes, clear' }).click();
    await expect.poll(() => dash().getByRole('alert').textContent()).toContain('clearing failed: HTTP 404');
    expect(await kpi('calls').locator('.value').textContent()).toBe('907');
  });

  it('shows the server\'s own reason when it refuses to clear, as text', async () => {
    await open({ 'clear-src': '/broken/clear-403' });
    await dash().getByRole('button', { name: 'Clear statistics…' }).click();
    await dash().getByRole('button', { name: 'Yes, clear' }).click();
    await expect.poll(() => dash().getByRole('alert').textContent()).toContain('clearing failed: HTTP 403 Forbidden: cross-origin requests are not allowed <b>');
    expect(await dash().locator('b').count()).toBe(0);
  });

  it('shows storage and fail-open notices the server reports', async () => {
    server.payload = { ...fixturePayload(), pluginErrors: 3, storage: { logging: false, persistPassthrough: false, rejectedInputs: 2, skippedLines: 0, foldedToolCalls: 40 } };
    await open();
    const notice = dash().locator('[data-storage-notice]');
    await expect.poll(() => notice.textContent()).toContain('the event log is not being written');
    const text = await notice.textContent();
    expect(text).toContain('2 malformed events were rejected');
    expect(text).toContain('40 calls of rarely seen tool names');
    expect(text).toContain('the plugin caught 3 internal errors');
    expect(text).not.toContain('unreadable log lines');
  });

  it('renders a payload set through the data property, with no fetch and no server actions', async () => {
    await page.goto(`${server.url}/page?theme=light&src=/plugin-api/tool-normalizer/stats&refresh=0`);
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    const before = server.statsRequests;
    await page.evaluate((payload) => {
      const element = document.querySelector('tn-dashboard') as HTMLElement & { data: unknown };
      element.data = payload;
    }, emptyPayload());
    await expect.poll(() => kpi('healing-rate').locator('.value').textContent()).toBe('no attempts yet');
    expect(await dash().getByRole('button', { name: 'Clear statistics…' }).count()).toBe(0);
    expect(await dash().getByRole('button', { name: 'Refresh' }).count()).toBe(0);
    expect(server.statsRequests).toBe(before);

    await page.evaluate(() => {
      const element = document.createElement('tn-dashboard') as HTMLElement & { data: unknown };
      element.id = 'second';
      element.data = { hello: 'world' };
      document.body.append(element);
    });
    await expect.poll(() => page.locator('#second').getByRole('alert').textContent()).toContain('unsupported stats payload version undefined');
  });

  it('shows clear errors for a failing, foreign or non-JSON feed', async () => {
    await open({ src: '/broken/stats-500' });
    await expect.poll(() => dash().getByRole('alert').textContent()).toContain('HTTP 500');
    await open({ src: '/broken/stats-v2' });
    await expect.poll(() => dash().getByRole('alert').textContent()).toContain('unsupported stats payload version 2');
    await open({ src: '/broken/stats-html' });
    await expect.poll(() => dash().getByRole('alert').textContent()).toContain('not valid JSON');
  });

  it('polls while connected and stops when removed from the page', async () => {
    await open({ refresh: '1' });
    await expect.poll(() => server.statsRequests).toBeGreaterThanOrEqual(2);
    server.payload = { ...fixturePayload(), totals: { ...fixturePayload().totals, calls: 1000 } };
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('1,000');
    await page.evaluate(() => document.querySelector('tn-dashboard')?.remove());
    const afterRemoval = server.statsRequests;
    await page.waitForTimeout(2500);
    // At most one request that was already in flight when the element was removed.
    expect(server.statsRequests - afterRemoval).toBeLessThanOrEqual(1);
  });

  it('never polls faster than once a second, whatever refresh says', async () => {
    await open({ refresh: '0.001' });
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    await page.waitForTimeout(500);
    // One initial load, and at most one poll in the half second after it.
    expect(server.statsRequests).toBeLessThanOrEqual(2);
  });

  it('uses readable light and dark palettes (and auto follows prefers-color-scheme) and saves screenshots', async () => {
    mkdirSync(artifactsDir, { recursive: true });
    const colours = () =>
      dash().evaluate((element) => {
        const style = getComputedStyle(element);
        return { background: style.backgroundColor, color: style.color };
      });

    await open({ theme: 'light' });
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    expect(await colours()).toEqual({ background: 'rgb(255, 255, 255)', color: 'rgb(31, 35, 40)' });
    await page.screenshot({ path: `${artifactsDir}dashboard-light.png`, fullPage: true });

    await open({ theme: 'dark' });
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    expect(await colours()).toEqual({ background: 'rgb(13, 17, 23)', color: 'rgb(230, 237, 243)' });
    await page.screenshot({ path: `${artifactsDir}dashboard-dark.png`, fullPage: true });

    await page.emulateMedia({ colorScheme: 'dark' });
    await open({ theme: 'auto' });
    await expect.poll(colours).toEqual({ background: 'rgb(13, 17, 23)', color: 'rgb(230, 237, 243)' });
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(colours).toEqual({ background: 'rgb(255, 255, 255)', color: 'rgb(31, 35, 40)' });
  });

  /**
   * What sticks out sideways inside a `#frame` page: boxes (the frame, the element, the events table's wrapper,
   * every preview) whose content is wider than they are, and shadow-tree elements that reach past the element's
   * right edge (the visually hidden column headers excepted).
   */
  function horizontalOverflow(): Promise<{ scrolling: string[]; sticking: string[] }> {
    return page.evaluate(() => {
      const describe = (element: Element) => `${element.tagName.toLowerCase()}.${element.className} ${element.scrollWidth}/${element.clientWidth}`;
      const host = document.querySelector('tn-dashboard') as HTMLElement;
      const root = host.shadowRoot as ShadowRoot;
      const right = host.getBoundingClientRect().right;
      const boxes = [document.getElementById('frame') as HTMLElement, host, ...root.querySelectorAll('.table-wrap, table, pre')];
      return {
        scrolling: boxes.filter((element) => element.scrollWidth > element.clientWidth + 1).map(describe),
        // The visually hidden column headers (a 1 px, overflow-hidden thead) keep their unclipped layout boxes.
        sticking: [...root.querySelectorAll('*')]
          .filter((element) => !element.closest('thead') && element.getBoundingClientRect().right > right + 1)
          .map(describe),
      };
    });
  }

  /** Top and bottom of an element in the page, for same-line / same-row checks. */
  const box = async (selector: string) => {
    const rect = await dash().locator(selector).first().boundingBox();
    if (!rect) throw new Error(`${selector} is not rendered`);
    return { top: rect.y, bottom: rect.y + rect.height, left: rect.x, width: rect.width, middle: rect.y + rect.height / 2 };
  };

  it('keeps the events table at full width (columns with headers)', async () => {
    await open();
    await expect.poll(eventIds).toHaveLength(7);
    expect(await dash().locator('tr[data-event="ev-1"]').evaluate((row) => getComputedStyle(row).display)).toBe('table-row');
    expect((await box('thead')).width).toBeGreaterThan(700);
    // Words are not broken mid-word: the tool name keeps one line, the time at most two ("11/29/2026," / "8:36:40 AM").
    const lineHeights = await dash()
      .locator('tr[data-event="ev-2"] td.cell-time, tr[data-event="ev-2"] td.cell-tool')
      .evaluateAll((cells) => cells.map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return range.getBoundingClientRect().height;
      }));
    expect(lineHeights).toHaveLength(2);
    expect(lineHeights[0]).toBeLessThan(40);
    expect(lineHeights[1]).toBeLessThan(24);
    expect(await dash().locator('[data-kpi]').evaluateAll((cards) => new Set(cards.map((card) => card.getBoundingClientRect().top)).size)).toBe(1);
  });

  it('fills a shrink-to-fit parent instead of collapsing (a size container ignores its content\'s width)', async () => {
    await open({ width: '560' });
    await expect.poll(eventIds).toHaveLength(7);
    const width = () => dash().evaluate((element) => element.getBoundingClientRect().width);
    expect(await width()).toBe(560);
    await page.evaluate(() => {
      const frame = document.getElementById('frame') as HTMLElement;
      Object.assign(frame.style, { display: 'flex', flexDirection: 'column', alignItems: 'flex-start' });
    });
    expect(await width()).toBe(560);
    await page.evaluate(() => {
      const frame = document.getElementById('frame') as HTMLElement;
      Object.assign(frame.style, { display: 'block' });
      (document.querySelector('tn-dashboard') as HTMLElement).style.display = 'inline-block';
    });
    expect(await width()).toBe(560);
  });

  for (const { width, theme } of [
    { width: 560, theme: 'light' },
    { width: 360, theme: 'dark' },
  ] as const) {
    it(`in a ${width} px container, restacks events as cards with text previews and never scrolls sideways`, async () => {
      await page.setViewportSize({ width: width + 40, height: 900 });
      await open({ width: String(width), theme });
      await expect.poll(eventIds).toEqual(['ev-1', 'ev-2', 'ev-3', 'ev-4', 'ev-5', 'ev-6', 'ev-7']);
      expect(await horizontalOverflow()).toEqual({ scrolling: [], sticking: [] });

      // Still a table for assistive technology: the column headers are hidden visually, not removed.
      expect(await dash().getByRole('table').count()).toBe(1);
      expect(await dash().getByRole('row').count()).toBe(8);
      expect(await dash().getByRole('columnheader', { name: 'Before → after' }).count()).toBe(1);
      expect((await box('thead')).width).toBeLessThanOrEqual(1);

      // A card: time · tool · outcome first, then category, rules, previews and error, each as wide as the card.
      const card = await box('tr[data-event="ev-2"]');
      const [time, tool, outcome, category, rules, previews] = await Promise.all(
        ['time', 'tool', 'outcome', 'category', 'rules', 'previews'].map((cell) => box(`tr[data-event="ev-2"] td.cell-${cell}`)),
      );
      expect(tool.top).toBeLessThan(category.top);
      expect(outcome.top).toBeLessThan(category.top);
      if (width === 560) {
        for (const cell of [tool, outcome]) expect(Math.abs(cell.middle - time.middle)).toBeLessThan(6);
      }
      expect(category.bottom).toBeLessThanOrEqual(rules.top + 1);
      expect(rules.bottom).toBeLessThanOrEqual(previews.top + 1);
      // Rule ids follow their "rules:" label on the same line.
      expect((await box('tr[data-event="ev-2"] td.cell-rules code')).left).toBeLessThan(rules.left + 80);
      expect(previews.width).toBeGreaterThan(card.width - 40);

      // Previews and errors are text blocks (markup in event data stays text).
      const before = dash().locator('tr[data-event="ev-2"] pre[data-before]');
      expect(await before.textContent()).toBe(XSS_PREVIEW);
      expect(await before.isVisible()).toBe(true);
      expect(await dash().locator('img').count()).toBe(0);
      expect(await dash().locator('tr[data-event="ev-3"] pre[data-after]').textContent()).toBe(REDACTED_PREVIEW);
      const error = dash().locator('tr[data-event="ev-4"] pre[data-error]');
      expect(await error.textContent()).toContain('FS_STALE_VERSION');
      expect((await box('tr[data-event="ev-4"] pre[data-error]')).width).toBeGreaterThan(card.width - 40);
      // An event without an error or rules shows no empty "error: —" line in its card.
      expect(await dash().locator('tr[data-event="ev-1"] td.cell-error').isVisible()).toBe(false);
      expect(await dash().locator('tr[data-event="ev-5"] td.cell-rules').isVisible()).toBe(false);

      // KPI cards and rankings fill the width: 3 + 2 cards at 560 px, 2 + 2 + 1 at 360 px; rankings stack.
      const kpiRows = await dash()
        .locator('[data-kpi]')
        .evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
      expect(new Set(kpiRows).size).toBe(width === 560 ? 2 : 3);
      const tokens = await box('[data-kpi="tokens"]');
      const calls = await box('[data-kpi="calls"]');
      expect(tokens.width).toBeGreaterThan(calls.width);
      expect((await box('[data-ranking="category"]')).top).toBeGreaterThan((await box('[data-ranking="tool"]')).bottom - 1);

      // The same filters work on the cards.
      await dash().getByLabel('Tool').selectOption('run_code');
      expect(await eventIds()).toEqual(['ev-1', 'ev-3']);
      await dash().getByRole('button', { name: 'Reset filters' }).click();
      expect(await horizontalOverflow()).toEqual({ scrolling: [], sticking: [] });

      mkdirSync(artifactsDir, { recursive: true });
      await page.locator('#frame').screenshot({ path: `${artifactsDir}dashboard-narrow-${theme}.png` });
    });
  }

  it('in auto theme, follows the DSH web client\'s design tokens when present', async () => {
    await open({ theme: 'auto' });
    await page.addStyleTag({ content: ':root { --dsw-alias-bg-layer-1: rgb(1, 2, 3); --dsw-alias-label-primary: rgb(250, 240, 230); }' });
    await expect.poll(() => dash().evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(1, 2, 3)');
    expect(await dash().evaluate((element) => getComputedStyle(element).color)).toBe('rgb(250, 240, 230)');
  });

  it('works under a strict Content-Security-Policy (no inline scripts or styles, no eval)', async () => {
    await page.addInitScript(() => {
      const violations: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = violations;
      document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    await page.goto(`${server.url}/page?${new URLSearchParams({ src: '/plugin-api/tool-normalizer/stats', refresh: '0', theme: 'dark', csp: 'strict' })}`);
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    expect(await dash().evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(13, 17, 23)');
    const barWidth = await dash().locator('[data-ranking="category"] li[data-row="unknown-tool"] .bar > span').evaluate((bar) => bar.getBoundingClientRect().width);
    expect(barWidth).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
  });

  it('the DSH client bundle registers the Settings section and its React component renders the dashboard', async () => {
    await page.goto(`${server.url}/client`);
    const loaded = await page.evaluate(() => {
      const w = window as unknown as {
        __loaded: { id: string; exports: { inject: string[] } };
        __requires: string[];
        __ctx: { effects: string[]; slots: { injected: string[] } };
        __section: { options: { name: string; id: string; order: number; label: () => string } };
      };
      return {
        id: w.__loaded.id,
        inject: w.__loaded.exports.inject,
        requires: w.__requires,
        slotsInjected: w.__ctx.slots.injected,
        section: { name: w.__section.options.name, id: w.__section.options.id, order: w.__section.options.order, label: w.__section.options.label() },
      };
    });
    expect(loaded).toEqual({
      id: 'dsh-tool-normalizer',
      inject: ['slots', 'locale'],
      requires: ['react'],
      slotsInjected: ['settings.section'],
      section: { name: 'settings.section', id: 'tool-normalizer', order: 25, label: '工具调用修复' },
    });
    const mounted = page.locator('#root tn-dashboard');
    await expect.poll(() => mounted.getAttribute('src')).toBe('/plugin-api/tool-normalizer/stats');
    expect(await mounted.getAttribute('theme')).toBe('auto');
    await expect.poll(() => mounted.locator('[data-kpi="calls"] .value').textContent()).toBe('907');
  });
});
