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
import { readabilityProblems } from './readability.js';
import { RAW_SECRET } from './fixtures/store-payload.js';
import { REDACTED_PREVIEW, XSS_PREVIEW, emptyPayload, fixturePayload } from './fixtures/stats-payload.js';
import { catalogueFixture } from './fixtures/catalogue-payload.js';
import { ruleTextsZh } from '../src/catalogue-messages.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const artifactsDir = fileURLToPath(new URL('../../../artifacts/', import.meta.url));

if (!hasChromium) {
  console.warn(
    `[dashboard-lit] browser tests skipped: no Chromium binary at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
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
    const query = new URLSearchParams({
      src: '/plugin-api/tool-normalizer/stats',
      refresh: '0',
      theme: 'light',
      ...attrs,
    });
    await page.goto(`${server.url}/page?${query}`);
  }

  const dash = () => page.locator('tn-dashboard');
  const kpi = (id: string) => dash().locator(`[data-kpi="${id}"]`);
  const eventIds = () =>
    dash()
      .locator('tbody tr[data-event]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-event')));

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
    expect(await kpi('repeats').locator('.label').textContent()).toBe('Repeats caught');
    expect(await kpi('repeats').locator('.value').textContent()).toBe('1,234');
  });

  it('leaves the repeats KPI out for a server that does not count repeats, rather than showing 0', async () => {
    await open();
    await expect.poll(() => kpi('repeats').locator('.value').textContent()).toBe('1,234');
    const { repeatsCaught: _notCounted, ...olderTotals } = fixturePayload().totals;
    await page.evaluate(
      (payload) => {
        const element = document.querySelector('tn-dashboard') as HTMLElement & { data: unknown };
        element.data = payload;
      },
      { ...fixturePayload(), totals: olderTotals },
    );
    await expect.poll(() => kpi('repeats').count()).toBe(0);
    expect(await kpi('calls').locator('.value').textContent()).toBe('907');
  });

  it('ranks tools and categories by failure rate with denominators and the minimum-calls floor', async () => {
    await open();
    const tools = dash().locator('[data-ranking="tool"]');
    await expect
      .poll(() => tools.locator('li[data-row]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row'))))
      .toEqual(['str_replace_editor', 'run_code', 'bash', 'read']);
    const editor = tools.locator('li[data-row="str_replace_editor"]');
    expect(await editor.locator('.rate').textContent()).toBe('6.3%');
    expect(await editor.locator('[data-denominator]').textContent()).toBe('6 failed / 96 calls');
    expect(await editor.textContent()).toContain('20.8% without healing');
    const belowFloor = await tools.locator('[data-below-floor]').textContent();
    expect(belowFloor).toContain('Below the 20-call floor (not ranked)');
    expect(belowFloor).toContain('write (2/12)');
    expect(belowFloor).toContain('grep (0/7)');
    const categories = dash().locator('[data-ranking="category"]');
    expect(
      await categories.locator('li[data-row]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row'))),
    ).toEqual(['unknown-tool', 'code-syntax', 'fs-not-observed', 'invalid-args']);
    expect(await categories.locator('li[data-row="unknown-tool"] .rate').textContent()).toBe('54.5%');
    // categories are shown by their labels (core-rules' catalogue), filtered by their ids
    expect(await categories.locator('[data-below-floor]').textContent()).toContain('Editor: view_range (3/9)');
    expect(await categories.locator('li[data-row="unknown-tool"] button').textContent()).toContain('Unknown tool');
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
    expect(await dash().locator('caption').textContent()).toMatch(/Showing 1–7 of 7 recent events\./);

    await dash().getByLabel('Tool').selectOption('run_code');
    await expect.poll(eventIds).toEqual(['ev-1', 'ev-3']);
    await dash().getByLabel('Outcome').selectOption('healed-success');
    await expect.poll(eventIds).toEqual(['ev-1', 'ev-3']);
    await dash().getByLabel('Search').fill('GIT STATUS');
    await expect.poll(eventIds).toEqual(['ev-1']);
    await dash().getByLabel('Search').fill('nothing matches this');
    await expect.poll(() => dash().locator('tbody').textContent()).toContain('No events match these filters.');
    // The filters went to the server as the events route's query.
    expect(server.eventsRequests.at(-1)).toBe(
      '?tool=run_code&text=nothing+matches+this&outcome=healed-success&offset=0&limit=25',
    );

    await dash().getByRole('button', { name: 'Reset filters' }).click();
    await expect.poll(eventIds).toHaveLength(7);
    await dash().getByLabel('Category').selectOption('fs-not-observed');
    await expect.poll(eventIds).toEqual(['ev-2', 'ev-4']);
    await dash().getByLabel('Search').fill('stale_version');
    await expect.poll(eventIds).toEqual(['ev-4']);
    await dash().getByLabel('Category').selectOption('');
    await dash().getByLabel('Search').fill('');
    await dash().getByLabel('Outcome').selectOption('passthrough-failed');
    await expect.poll(eventIds).toEqual(['ev-5', 'ev-7']);
  });

  it("clicking a ranking row shows that row's events", async () => {
    await open();
    await expect.poll(eventIds).toHaveLength(7);
    await dash().locator('[data-ranking="category"]').getByRole('button', { name: 'Unknown tool' }).click();
    await expect.poll(eventIds).toEqual(['ev-7']);
    expect(await dash().getByLabel('Category').inputValue()).toBe('unknown-tool');
  });

  it('shows markup from event data as text and never runs it', async () => {
    await open();
    // The readable diff shows the markup as text…
    const change = dash().locator('tr[data-event="ev-2"] [data-change]');
    await expect.poll(() => change.textContent()).toContain('<img src=x onerror="window.__tnXss=1">');
    expect(await dash().locator('img').count()).toBe(0);
    // …and so does the raw view, one toggle away.
    await change.getByRole('button', { name: 'Raw JSON' }).click();
    const before = dash().locator('tr[data-event="ev-2"] pre[data-before]');
    await expect.poll(() => before.textContent()).toBe(XSS_PREVIEW);
    expect(await dash().locator('img').count()).toBe(0);
    await dash().locator('tr[data-event="ev-3"]').getByRole('button', { name: 'Raw JSON' }).click();
    expect(await page.evaluate(() => (window as unknown as { __tnXss?: number }).__tnXss)).toBeUndefined();
    const redacted = await dash().locator('tr[data-event="ev-3"] pre[data-after]').textContent();
    expect(redacted).toBe(REDACTED_PREVIEW);
    expect(redacted).toContain('Bearer [REDACTED]');
  });

  it('renders a payload computed by the real telemetry store, with its secrets already redacted', async () => {
    // A server without the events route (404): the payload's recent events are paged in the browser.
    await open({ src: '/real/stats', 'events-src': '/real/events' });
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('41');
    expect(await kpi('healing-rate').locator('.value').textContent()).toBe('90.0%');
    expect(await kpi('tokens').locator('.value').textContent()).toBe('1.4M');
    await expect.poll(() => dash().locator('tbody tr[data-event]').count()).toBe(25);
    const shadowText = await dash().evaluate((element) => element.shadowRoot?.textContent ?? '');
    expect(shadowText).toContain('[REDACTED]');
    expect(shadowText).not.toContain(RAW_SECRET);
    await dash().getByRole('button', { name: 'Older' }).click();
    await expect.poll(() => dash().locator('tbody tr[data-event]').count()).toBe(16);
    expect(await dash().locator('[data-page-of]').textContent()).toBe('Page 2 of 2');
  });

  it('clears only after confirmation, sends the protected request, then shows the empty state', async () => {
    await open();
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');

    await dash().getByRole('button', { name: 'Clear statistics…' }).click();
    await expect
      .poll(() => dash().evaluate((element) => element.shadowRoot?.activeElement?.textContent))
      .toBe('Cancel');
    await page.keyboard.press('Enter');
    expect(server.clearRequests).toEqual([]);
    await expect
      .poll(() => dash().evaluate((element) => element.shadowRoot?.activeElement?.textContent))
      .toBe('Clear statistics…');
    expect(await kpi('calls').locator('.value').textContent()).toBe('907');

    await dash().getByRole('button', { name: 'Clear statistics…' }).click();
    expect(await dash().getByRole('group', { name: 'Confirm clearing' }).textContent()).toContain(
      'Delete all counters and logged events?',
    );
    // What clearing removes and what it keeps is said before the user confirms, and describes the button.
    const scope = dash().locator('[data-clear-scope]');
    expect(await scope.textContent()).toContain('erases every stored event and every counter');
    expect(await scope.textContent()).toContain("DSH's own session logs");
    expect(await dash().getByRole('button', { name: 'Yes, clear' }).getAttribute('aria-describedby')).toBe(
      'clear-scope',
    );
    await dash().getByRole('button', { name: 'Yes, clear' }).click();
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('0');
    expect(server.clearRequests).toEqual([
      { header: 'clear', contentType: 'application/json', body: '{"confirm":"clear"}', token: server.token },
    ]);
    expect(await scope.count()).toBe(0);
    expect(await kpi('healing-rate').locator('.value').textContent()).toBe('no attempts yet');
    expect(await kpi('surfaced-rate').locator('.value').textContent()).toBe('no calls yet');
    expect(await dash().getByText('No tool calls intercepted yet.').isVisible()).toBe(true);
    expect(await dash().locator('table').count()).toBe(0);
    expect(await dash().getByRole('button', { name: 'Clear statistics…' }).isVisible()).toBe(true);
  });

  it('fetches a new token and retries once when the server says the token is stale (the plugin was reloaded)', async () => {
    await open();
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    expect(server.tokenRequests).toBe(1);
    server.rotateToken();
    await dash().getByRole('button', { name: 'Clear statistics…' }).click();
    await dash().getByRole('button', { name: 'Yes, clear' }).click();
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('0');
    expect(server.tokenRequests).toBe(2);
    expect(server.clearRequests.map((request) => request.token)).toEqual([server.token]);
  });

  it('still reads when the server refuses the token, and says why when clearing then needs it', async () => {
    await open({ 'token-src': '/refused/token' });
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    await dash().getByRole('button', { name: 'Clear statistics…' }).click();
    await dash().getByRole('button', { name: 'Yes, clear' }).click();
    await expect
      .poll(() => dash().getByRole('alert').textContent())
      .toContain('the token request failed: HTTP 403 Forbidden: the token is only handed to a same-origin page');
    expect(server.clearRequests).toEqual([]);
    expect(await kpi('calls').locator('.value').textContent()).toBe('907');
  });

  it("shows its own profile's receipts by default and every profile's on request", async () => {
    const base = fixturePayload();
    const recent = base.recent.map((event, index) => (index === 0 ? { ...event, profile: 'headless' } : event));
    server.payload = { ...base, recent, ownProfile: 'web', profile: 'web', profiles: ['headless', 'web'] };
    await open();
    await expect.poll(() => dash().locator('header .muted').textContent()).toContain('profile web');
    expect(server.statsQueries.at(-1)).not.toContain('profile');
    const toggle = dash().getByRole('checkbox', { name: 'All profiles' });
    expect(await toggle.isChecked()).toBe(false);
    // An event recorded in another profile says which.
    expect(await dash().locator('[data-profile]').allTextContents()).toEqual(['profile headless']);
    await toggle.check();
    await expect.poll(() => dash().locator('header .muted').textContent()).toContain('all profiles');
    expect(server.statsQueries.at(-1)).toBe('?profile=*');
    await expect.poll(() => server.eventsRequests.at(-1)).toContain('profile=*');
    await toggle.uncheck();
    await expect.poll(() => dash().locator('header .muted').textContent()).toContain('profile web');
    expect(server.statsQueries.at(-1)).toBe('');
  });

  it('opens on all profiles when its own has no calls and others do, says why, and one click goes back (remembered)', async () => {
    // `bash scripts/demo.sh` records under `headless`; `--web` serves the page from `web`, which has none.
    const own = { ...emptyPayload(), ownProfile: 'web', profile: 'web', profiles: ['headless'] };
    const base = fixturePayload();
    const recent = base.recent.map((event) => ({ ...event, profile: 'headless' }));
    server.payload = own;
    server.allPayload = { ...base, recent, ownProfile: 'web', profile: '*', profiles: ['headless'] };
    await open();
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    const status = () => dash().locator('header .muted').textContent();
    expect(await status()).toContain('all profiles');
    const toggle = dash().getByRole('checkbox', { name: 'All profiles' });
    expect(await toggle.isChecked()).toBe(true);
    const notice = dash().locator('[data-profile-scope]');
    expect(await notice.getAttribute('data-profile-scope')).toBe('auto');
    expect((await notice.textContent())?.replace(/\s+/g, ' ')).toContain(
      'Profile web has no calls yet, so this page shows all profiles: 907 calls, recorded in headless.',
    );
    // the own profile was asked first, then every profile; the events come from every profile too
    expect(server.statsQueries.slice(0, 2)).toEqual(['', '?profile=*']);
    await expect.poll(eventIds).toHaveLength(7);
    expect(server.eventsRequests.at(-1)).toContain('profile=*');
    expect(await dash().locator('[data-profile]').count()).toBe(7);

    // one click back to the own profile, which then says where the receipts are
    await notice.getByRole('button', { name: 'Show only web' }).click();
    await expect.poll(status).toContain('profile web');
    expect(await kpi('calls').locator('.value').textContent()).toBe('0');
    expect(await toggle.isChecked()).toBe(false);
    expect(await notice.getAttribute('data-profile-scope')).toBe('own-empty');
    expect(await notice.textContent()).toContain(
      'Profile web has no calls yet; other profiles hold receipts: headless.',
    );

    // the choice is the user's now: a reload keeps the own profile and asks for nothing else
    await page.reload();
    await expect.poll(status).toContain('profile web');
    await expect.poll(() => notice.getAttribute('data-profile-scope')).toBe('own-empty');
    expect(server.statsQueries.at(-1)).toBe('');
    await notice.getByRole('button', { name: 'Show all profiles' }).click();
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    expect(await status()).toContain('all profiles');
    // a choice of all profiles needs no explanation
    expect(await notice.count()).toBe(0);
  });

  it('stays on its own profile when that is empty and so are the others', async () => {
    server.payload = { ...emptyPayload(), ownProfile: 'web', profile: 'web', profiles: ['headless'] };
    server.allPayload = { ...emptyPayload(), ownProfile: 'web', profile: '*', profiles: ['headless'] };
    await open();
    await expect.poll(() => dash().locator('header .muted').textContent()).toContain('profile web');
    await expect.poll(() => server.statsQueries).toEqual(['', '?profile=*']);
    expect(await dash().getByRole('checkbox', { name: 'All profiles' }).isChecked()).toBe(false);
    expect(await dash().locator('[data-profile-scope]').count()).toBe(0);
  });

  it('reports a failed clear without losing the data', async () => {
    await open({ 'clear-src': '/plugin-api/tool-normalizer/no-such-route' });
    await dash().getByRole('button', { name: 'Clear statistics…' }).click();
    await dash().getByRole('button', { name: 'Yes, clear' }).click();
    await expect.poll(() => dash().getByRole('alert').textContent()).toContain('clearing failed: HTTP 404');
    expect(await kpi('calls').locator('.value').textContent()).toBe('907');
  });

  it("shows the server's own reason when it refuses to clear, as text", async () => {
    await open({ 'clear-src': '/broken/clear-403' });
    await dash().getByRole('button', { name: 'Clear statistics…' }).click();
    await dash().getByRole('button', { name: 'Yes, clear' }).click();
    await expect
      .poll(() => dash().getByRole('alert').textContent())
      .toContain('clearing failed: HTTP 403 Forbidden: cross-origin requests are not allowed <b>');
    expect(await dash().locator('b').count()).toBe(0);
  });

  it('shows storage and fail-open notices the server reports', async () => {
    server.payload = {
      ...fixturePayload(),
      pluginErrors: 3,
      storage: { logging: false, persistPassthrough: false, rejectedInputs: 2, skippedLines: 0, foldedToolCalls: 40 },
    };
    await open();
    const notice = dash().locator('[data-storage-notice]');
    await expect.poll(() => notice.textContent()).toContain('the event log is not being written');
    const text = await notice.textContent();
    expect(text).toContain('2 malformed events were rejected');
    expect(text).toContain('40 calls of rarely seen tool names');
    expect(text).toContain('the plugin caught 3 internal errors');
    expect(text).not.toContain('unreadable log lines');
  });

  it('says when the store was last cleared and how many calls the clear erased (a clear is a receipt), in en and zh', async () => {
    const at = Date.UTC(2026, 10, 30, 12, 0, 0);
    const storage = { logging: true, persistPassthrough: false, lastClear: { at, erasedCalls: 1234 } };
    server.payload = { ...emptyPayload(), storage };
    await open();
    const line = dash().locator('[data-last-clear]');
    await expect.poll(() => line.textContent()).toContain('calls erased (all profiles).');
    expect(await line.textContent()).toContain('1,234 calls erased');
    expect(await line.textContent()).toMatch(/^Last cleared 11\/30\/26, \d+:00:00 [AP]M: 1,234 calls erased/);
    await open({ locale: 'zh' });
    await expect.poll(() => line.textContent()).toContain('清除了 1,234 次调用');
    // a store never cleared says nothing about clearing
    server.payload = emptyPayload();
    await open();
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('0');
    expect(await line.count()).toBe(0);
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
    await expect
      .poll(() => page.locator('#second').getByRole('alert').textContent())
      .toContain('unsupported stats payload version undefined');
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
      const describe = (element: Element) =>
        `${element.tagName.toLowerCase()}.${element.className} ${element.scrollWidth}/${element.clientWidth}`;
      const host = document.querySelector('tn-dashboard') as HTMLElement;
      const root = host.shadowRoot as ShadowRoot;
      const right = host.getBoundingClientRect().right;
      const boxes = [
        document.getElementById('frame') as HTMLElement,
        host,
        ...root.querySelectorAll('.table-wrap, table, pre'),
      ];
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
    return {
      top: rect.y,
      bottom: rect.y + rect.height,
      left: rect.x,
      width: rect.width,
      middle: rect.y + rect.height / 2,
    };
  };

  it('keeps the events table at full width (columns with headers)', async () => {
    await open();
    await expect.poll(eventIds).toHaveLength(7);
    expect(
      await dash()
        .locator('tr[data-event="ev-1"]')
        .evaluate((row) => getComputedStyle(row).display),
    ).toBe('table-row');
    expect((await box('thead')).width).toBeGreaterThan(700);
    // Words are not broken mid-word: the tool name keeps one line, the time at most two ("11/29/2026," / "8:36:40 AM").
    const lineHeights = await dash()
      .locator('tr[data-event="ev-2"] td.cell-time, tr[data-event="ev-2"] td.cell-tool')
      .evaluateAll((cells) =>
        cells.map((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return range.getBoundingClientRect().height;
        }),
      );
    expect(lineHeights).toHaveLength(2);
    expect(lineHeights[0]).toBeLessThan(40);
    expect(lineHeights[1]).toBeLessThan(24);
    expect(
      await dash()
        .locator('[data-kpi]')
        .evaluateAll((cards) => new Set(cards.map((card) => card.getBoundingClientRect().top)).size),
    ).toBe(1);
  });

  it("fills a shrink-to-fit parent instead of collapsing (a size container ignores its content's width)", async () => {
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
      const cellBox = (name: string) => box(`tr[data-event="ev-2"] td.cell-${name}`);
      const [time, tool, outcome, category, rules, previews] = await Promise.all([
        cellBox('time'),
        cellBox('tool'),
        cellBox('outcome'),
        cellBox('category'),
        cellBox('rules'),
        cellBox('previews'),
      ]);
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
      const change = dash().locator('tr[data-event="ev-2"] [data-change]');
      expect(await change.textContent()).toContain('<img src=x onerror="window.__tnXss=1">');
      expect(await change.isVisible()).toBe(true);
      expect(await dash().locator('img').count()).toBe(0);
      expect(await dash().locator('tr[data-event="ev-3"] [data-change]').textContent()).toContain(REDACTED_PREVIEW);
      const error = dash().locator('tr[data-event="ev-4"] pre[data-error]');
      expect(await error.textContent()).toContain('FS_STALE_VERSION');
      expect((await box('tr[data-event="ev-4"] pre[data-error]')).width).toBeGreaterThan(card.width - 40);
      // An event without an error or rules shows no empty "error: —" line in its card.
      expect(await dash().locator('tr[data-event="ev-1"] td.cell-error').isVisible()).toBe(false);
      expect(await dash().locator('tr[data-event="ev-5"] td.cell-rules').isVisible()).toBe(false);

      // KPI cards and rankings fill the width: 3 + 3 cards at 560 px, 2 + 2 + 2 at 360 px; rankings stack.
      const kpiRows = await dash()
        .locator('[data-kpi]')
        .evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
      expect(new Set(kpiRows).size).toBe(width === 560 ? 2 : 3);
      const rightEdges = await dash()
        .locator('[data-kpi]')
        .evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().right)));
      expect(Math.abs((rightEdges.at(-1) as number) - Math.max(...rightEdges))).toBeLessThanOrEqual(1); // the last row is full
      expect((await box('[data-ranking="category"]')).top).toBeGreaterThan(
        (await box('[data-ranking="tool"]')).bottom - 1,
      );

      // The same filters work on the cards.
      await dash().getByLabel('Tool').selectOption('run_code');
      await expect.poll(eventIds).toEqual(['ev-1', 'ev-3']);
      await dash().getByRole('button', { name: 'Reset filters' }).click();
      expect(await horizontalOverflow()).toEqual({ scrolling: [], sticking: [] });

      mkdirSync(artifactsDir, { recursive: true });
      await page.locator('#frame').screenshot({ path: `${artifactsDir}dashboard-narrow-${theme}.png` });
    });
  }

  /** What makes the element unreadable at its width (see `readability.ts`). */
  function readability(minCodeChars: number, minTextShare: number) {
    return dash().evaluate(readabilityProblems, [minCodeChars, minTextShare] as const);
  }

  for (const { viewport, width } of [
    { viewport: 1400, width: undefined },
    { viewport: 1400, width: '136' },
    { viewport: 420, width: '136' },
    { viewport: 420, width: undefined },
  ] as const) {
    const compact = width === '136';
    it(`${width ? `a ${width} px container` : 'full width'} in a ${viewport} px window: ${compact ? 'the compact layout' : 'the regular layout'} (by container width), readable, nothing sideways`, async () => {
      await page.setViewportSize({ width: viewport, height: 900 });
      await open(width ? { width } : {});
      await expect.poll(eventIds).toHaveLength(7);
      await expect.poll(() => dash().locator('article.rule').count()).toBeGreaterThan(0);
      expect(await readability(compact ? 14 : 22, compact ? 0.8 : 0)).toEqual([]);
      // the layout follows the element's width, whatever the window's
      expect(
        await dash()
          .locator('h2')
          .evaluate((h) => getComputedStyle(h).fontSize),
      ).toBe(compact ? '16px' : '18px');
      const rowDisplay = await dash()
        .locator('tr[data-event="ev-1"]')
        .evaluate((row) => getComputedStyle(row).display);
      expect(rowDisplay).toBe(viewport === 1400 && !width ? 'table-row' : 'flex');
      if (viewport === 1400 && !width) {
        const columns = await dash()
          .locator('article.rule')
          .evaluateAll((cards) => new Set(cards.map((card) => Math.round(card.getBoundingClientRect().left))).size);
        expect(columns).toBeGreaterThan(1);
      }
      if (compact) await page.locator('#frame').screenshot({ path: `${artifactsDir}dashboard-136-${viewport}.png` });
    });
  }

  it("in auto theme, follows the DSH web client's design tokens when present", async () => {
    await open({ theme: 'auto' });
    await page.addStyleTag({
      content: ':root { --dsw-alias-bg-layer-1: rgb(1, 2, 3); --dsw-alias-label-primary: rgb(250, 240, 230); }',
    });
    await expect
      .poll(() => dash().evaluate((element) => getComputedStyle(element).backgroundColor))
      .toBe('rgb(1, 2, 3)');
    expect(await dash().evaluate((element) => getComputedStyle(element).color)).toBe('rgb(250, 240, 230)');
  });

  it('works under a strict Content-Security-Policy (no inline scripts or styles, no eval)', async () => {
    await page.addInitScript(() => {
      const violations: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = violations;
      document.addEventListener('securitypolicyviolation', (event) =>
        violations.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    await page.goto(
      `${server.url}/page?${new URLSearchParams({ src: '/plugin-api/tool-normalizer/stats', refresh: '0', theme: 'dark', csp: 'strict' })}`,
    );
    await expect.poll(() => kpi('calls').locator('.value').textContent()).toBe('907');
    expect(await dash().evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(13, 17, 23)');
    const barWidth = await dash()
      .locator('[data-ranking="category"] li[data-row="unknown-tool"] .bar > span')
      .evaluate((bar) => bar.getBoundingClientRect().width);
    expect(barWidth).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
  });

  it("the DSH Settings logic registers the section, its copy in en and zh, and renders the dashboard in the host's language", async () => {
    await page.goto(`${server.url}/client`);
    const loaded = await page.evaluate(() => {
      const w = window as unknown as {
        __settings: { inject: string[] };
        __ctx: { effects: string[]; slots: { injected: string[] } };
        __section: { options: { name: string; id: string; order: number; label: () => string } };
      };
      return {
        inject: w.__settings.inject,
        effects: w.__ctx.effects,
        slotsInjected: w.__ctx.slots.injected,
        section: {
          name: w.__section.options.name,
          id: w.__section.options.id,
          order: w.__section.options.order,
          label: w.__section.options.label(),
        },
      };
    });
    expect(loaded).toEqual({
      inject: ['slots', 'locale'],
      effects: ['tool-normalizer: copy dictionaries'],
      slotsInjected: ['settings.section'],
      section: { name: 'settings.section', id: 'tool-normalizer', order: 25, label: '工具调用修复' },
    });
    const mounted = page.locator('#root tn-dashboard');
    await expect.poll(() => mounted.getAttribute('src')).toBe('/plugin-api/tool-normalizer/stats');
    expect(await mounted.getAttribute('events-src')).toBe('/plugin-api/tool-normalizer/events');
    expect(await mounted.getAttribute('theme')).toBe('auto');
    await expect.poll(() => mounted.locator('[data-kpi="calls"] .value').textContent()).toBe('907');
    // The copy comes from the host's translate function (zh here), numbers from the page language (zh-CN).
    expect(await mounted.locator('[data-kpi="calls"] .label').textContent()).toBe('拦截的调用');
    expect(await mounted.locator('#events-title').textContent()).toBe('事件');
    expect(await mounted.locator('[data-kpi="tokens"] .value').textContent()).toBe('1217万');
  });

  it("marks another harness's event (the MCP proxy's) with a labelled badge on its row only, in en and zh", async () => {
    const base = fixturePayload();
    const [dsh, other] = base.recent;
    const mcp = { ...other!, id: 'ev-mcp', tool: 'read_file', harness: 'mcp' };
    server.payload = { ...base, recent: [dsh!, mcp], recentMatched: 2 };
    const badges = () =>
      dash()
        .locator('tbody tr[data-event] [data-harness]')
        .evaluateAll((nodes) =>
          nodes.map((node) => ({
            row: node.closest('tr')!.getAttribute('data-event'),
            harness: node.getAttribute('data-harness'),
            text: node.textContent!.trim(),
            title: node.getAttribute('title'),
          })),
        );
    await open();
    await expect.poll(eventIds).toEqual([dsh!.id, 'ev-mcp']);
    expect(await badges()).toEqual([
      { row: 'ev-mcp', harness: 'mcp', text: 'MCP proxy', title: 'Recorded by another harness than DSH: mcp' },
    ]);
    // DSH's own row is as before: its tool cell holds the tool name only.
    expect(await dash().locator(`tr[data-event="${dsh!.id}"] td.cell-tool`).textContent()).toBe(dsh!.tool);
    expect(await dash().locator('tr[data-event="ev-mcp"] td.cell-tool').textContent()).toBe('read_file MCP proxy');

    await open({ locale: 'zh' });
    await expect.poll(eventIds).toEqual([dsh!.id, 'ev-mcp']);
    expect(await badges()).toEqual([
      { row: 'ev-mcp', harness: 'mcp', text: 'MCP 代理', title: '由 DSH 以外的调用方记录：mcp' },
    ]);

    // At 420 px the row is a card: the badge stays inside it and the page does not scroll sideways.
    await page.setViewportSize({ width: 420, height: 900 });
    await open();
    await expect.poll(eventIds).toEqual([dsh!.id, 'ev-mcp']);
    const fits = await dash().evaluate((host) => {
      const root = host.shadowRoot as ShadowRoot;
      const badge = root.querySelector('tr[data-event="ev-mcp"] [data-harness]')!.getBoundingClientRect();
      const card = root.querySelector('tr[data-event="ev-mcp"]')!.getBoundingClientRect();
      const doc = document.documentElement;
      return {
        inside: badge.width > 0 && badge.left >= card.left - 0.5 && badge.right <= card.right + 0.5,
        scrolls: doc.scrollWidth > doc.clientWidth,
      };
    });
    expect(fits).toEqual({ inside: true, scrolls: false });
    await page.screenshot({ path: `${artifactsDir}dashboard-420-harness.png`, fullPage: true });

    // A harness the catalogue does not know shows its raw name, as text.
    server.payload = { ...base, recent: [dsh!, { ...mcp, harness: '<b>acme</b>' }], recentMatched: 2 };
    await open();
    await expect.poll(() => badges()).toHaveLength(1);
    expect((await badges())[0]).toMatchObject({ row: 'ev-mcp', text: '<b>acme</b>' });
    expect(await dash().locator('tbody b').count()).toBe(0);

    // No event with a harness: no badge anywhere.
    server.payload = base;
    await open();
    await expect.poll(eventIds).toHaveLength(base.recent.length);
    expect(await dash().locator('[data-harness], .badge.harness').count()).toBe(0);
  });

  it('renders every string in Chinese with locale="zh" (and follows <html lang> without one)', async () => {
    await open({ locale: 'zh' });
    await expect.poll(() => kpi('calls').locator('.label').textContent()).toBe('拦截的调用');
    expect(await kpi('tokens').locator('.value').textContent()).toBe('1217万');
    expect(await dash().getByRole('button', { name: '刷新' }).count()).toBe(1);
    expect(await dash().locator('caption').textContent()).toContain('显示最近 7 个事件中的第 1–7 个');
    // No English copy left in the page chrome (event data, ids and option names excepted).
    const chrome = await dash().evaluate((element) =>
      [...element.shadowRoot!.querySelectorAll('h2, h3, th, label, button, .kpi .label, caption, .badge')].map((node) =>
        node.textContent!.trim(),
      ),
    );
    const english = chrome.filter(
      (text) => /\b(the|of|and|calls|events|rate|Tool|Search|Refresh|healed)\b/i.test(text) && !/^[\w.-]+$/.test(text),
    );
    expect(english).toEqual([]);
    await page.screenshot({ path: `${artifactsDir}dashboard-zh-light.png`, fullPage: true });

    await open({ lang: 'zh-CN' });
    await expect.poll(() => kpi('calls').locator('.label').textContent()).toBe('拦截的调用');
    await page.evaluate(() => document.documentElement.setAttribute('lang', 'en'));
    await expect.poll(() => kpi('calls').locator('.label').textContent()).toBe('Calls intercepted');
  });

  it('shows a healed run_code as program text with a line diff and the changed spans marked; other tools per key', async () => {
    const program = (code: string, description?: string) =>
      JSON.stringify({ code, ...(description ? { description } : {}) });
    const sent = 'const r = await tools.bash({ command: "node build.js" });\nconsole.log(r.stdout)\nreturn r';
    const ran =
      'const r = await tools.bash({ command: "node build.js", description: "Run node build.js" });\nconsole.log(r.stdout)\nreturn r';
    const payload = fixturePayload();
    payload.recent = [
      {
        ...payload.recent[0]!,
        id: 'prog',
        tool: 'run_code',
        before: program(sent),
        after: program(ran, 'Run the build'),
      },
      { ...payload.recent[5]!, id: 'keys' },
    ];
    server.payload = payload;
    await open();
    const diff = dash().locator('tr[data-event="prog"] [data-change="program"] [data-diff]').first();
    await expect.poll(() => diff.locator('.line').count()).toBe(4);
    const lines = await diff
      .locator('.line')
      .evaluateAll((rows) => rows.map((row) => [row.className.replace('line ', ''), row.textContent]));
    expect(lines).toEqual([
      ['removed', 'const r = await tools.bash({ command: "node build.js" });'],
      ['added', 'const r = await tools.bash({ command: "node build.js", description: "Run node build.js" });'],
      ['same', 'console.log(r.stdout)'],
      ['same', 'return r'],
    ]);
    const marked = await diff.locator('.line.added mark').allTextContents();
    expect(marked.join('')).toContain('description: "Run node build.js"');
    expect(marked.join('')).not.toContain('console');
    // The description the heal added is a key change next to the program.
    expect(await dash().locator('tr[data-event="prog"] [data-key="description"]').textContent()).toContain(
      'Run the build',
    );
    // view_range [1,400] -> [1,120]: one changed key, its line diff marks the numbers.
    const range = dash().locator('tr[data-event="keys"] [data-key="view_range"]');
    expect(await range.locator('.line.removed mark').allTextContents()).toEqual(['400']);
    expect(await range.locator('.line.added mark').allTextContents()).toEqual(['120']);
    expect(await dash().locator('tr[data-event="keys"] [data-key="path"]').count()).toBe(0);
    // Raw JSON one toggle away, and back.
    const row = dash().locator('tr[data-event="prog"]');
    await row.getByRole('button', { name: 'Raw JSON' }).click();
    expect(await row.locator('pre[data-before]').textContent()).toBe(program(sent));
    await row.getByRole('button', { name: 'Readable' }).click();
    expect(await row.locator('pre[data-before]').count()).toBe(0);
    await row.scrollIntoViewIfNeeded();
    await row.screenshot({ path: `${artifactsDir}dashboard-diff.png` });
  });

  it('pages through more stored events than the ring holds, with filters and a time range applied on the server', async () => {
    await open({ src: '/history/stats', 'events-src': '/history/events' });
    await expect.poll(() => dash().locator('caption').textContent()).toContain('Showing 1–25 of 1,200 stored events.');
    expect(await eventIds()).toEqual(Array.from({ length: 25 }, (_, index) => `h-${index}`));
    await dash().getByRole('button', { name: 'Older' }).click();
    await expect.poll(eventIds).toEqual(Array.from({ length: 25 }, (_, index) => `h-${index + 25}`));
    expect(await dash().locator('[data-page-of]').textContent()).toBe('Page 2 of 48');
    // Jump far past any in-memory window: page 48 holds the oldest events.
    for (let pageIndex = 2; pageIndex < 48; pageIndex++) await dash().getByRole('button', { name: 'Older' }).click();
    await expect.poll(() => dash().locator('[data-page-of]').textContent()).toBe('Page 48 of 48');
    expect((await eventIds()).at(-1)).toBe('h-1199');
    expect(await dash().getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);

    await dash().getByLabel('Tool').selectOption('bash');
    await expect.poll(() => dash().locator('caption').textContent()).toContain('of 240 stored events');
    expect(await dash().locator('[data-page-of]').textContent()).toBe('Page 1 of 10');
    // h-0 is at 2026-01-01 20:00 UTC; h-100 at 18:20. A range keeps the bash calls inside it.
    const local = (at: number) => {
      const date = new Date(at - new Date(at).getTimezoneOffset() * 60_000);
      return date.toISOString().slice(0, 16);
    };
    const h = (index: number) => Date.UTC(2026, 0, 1) + (1200 - index) * 60_000;
    await dash()
      .getByLabel('From', { exact: true })
      .fill(local(h(100)));
    await dash().getByLabel('From', { exact: true }).dispatchEvent('change');
    await dash()
      .getByLabel('To', { exact: true })
      .fill(local(h(50)));
    await dash().getByLabel('To', { exact: true }).dispatchEvent('change');
    await expect
      .poll(eventIds)
      .toEqual(['h-55', 'h-60', 'h-65', 'h-70', 'h-75', 'h-80', 'h-85', 'h-90', 'h-95', 'h-100']);
    const last = new URLSearchParams(server.eventsRequests.at(-1));
    expect(last.get('tool')).toBe('bash');
    expect(Number(last.get('from'))).toBe(h(100));
    expect(Number(last.get('to'))).toBe(h(50));
  });

  it('shows "10,000+" and keeps paging older when the server capped its total, in English and Chinese', async () => {
    await open({ src: '/history/stats', 'events-src': '/capped/events' });
    await expect
      .poll(() => dash().locator('caption').textContent())
      .toContain('Showing 1–25 of 10,000+ stored events.');
    expect(await dash().locator('[data-page-of]').textContent()).toBe('Page 1'); // no page count from a capped total
    const older = dash().getByRole('button', { name: 'Older' });
    expect(await older.isDisabled()).toBe(false);
    await older.click();
    await expect.poll(eventIds).toEqual(Array.from({ length: 25 }, (_, index) => `b-${index + 25}`));
    expect(await dash().locator('[data-page-of]').textContent()).toBe('Page 2');
    expect(await dash().locator('caption').textContent()).toContain('Showing 26–50 of 10,000+ stored events.');
    await dash().getByRole('button', { name: 'Newer' }).click();
    await expect.poll(() => dash().locator('[data-page-of]').textContent()).toBe('Page 1');
    // A filter that matches fewer than the cap: an exact total again, with a page count.
    await dash().getByLabel('Tool').selectOption('bash');
    await expect.poll(() => dash().locator('caption').textContent()).toContain('of 2,006 stored events');
    expect(await dash().locator('[data-page-of]').textContent()).toBe('Page 1 of 81');

    await open({ src: '/history/stats', 'events-src': '/capped/events', locale: 'zh' });
    await expect
      .poll(() => dash().locator('caption').textContent())
      .toContain('显示已存储的 10,000+ 个事件中的第 1–25 个');
    expect(await dash().locator('[data-page-of]').textContent()).toBe('第 1 页');
    expect(await dash().getByRole('button', { name: '较早' }).isDisabled()).toBe(false);
  });

  it("shows the rule cards with the server's states and counts, and the effective options read-only", async () => {
    server.payload = {
      ...fixturePayload(),
      rules: [
        {
          id: 'recover.view-range-clamp',
          stage: 'recover',
          category: 'editor-range',
          title: 'Clamp view_range',
          description: 'd',
          option: 'autoClampRanges',
          enabled: false,
          fired: 0,
        },
        {
          id: 'args.fill-description',
          stage: 'normalize',
          category: 'invalid-args',
          title: 'Fill a missing description',
          description: 'd',
          option: 'autoWrapRunCode',
          enabled: true,
          fired: 123,
        },
      ],
      ruleUsage: { counted: 500, complete: false },
      options: [
        { name: 'autoClampRanges', value: false, defaultValue: true, description: 'Clamp ranges.' },
        { name: 'maxLogBytes', value: 4194304, defaultValue: 4194304 },
        { name: 'allowedHosts', value: ['dsh.lan'], defaultValue: [] },
      ],
    };
    await open();
    const fill = dash().locator('[data-rule="args.fill-description"]');
    await expect.poll(() => fill.locator('[data-state]').textContent()).toBe('on');
    expect(await fill.locator('[data-fired]').textContent()).toBe('fired in 123 of the newest 500 events');
    expect(await dash().locator('[data-rule="recover.view-range-clamp"] [data-state]').textContent()).toBe('off');
    const option = (name: string) => dash().locator(`[data-option="${name}"]`);
    expect(await option('autoClampRanges').locator('[data-value]').textContent()).toBe('false');
    expect(await option('autoClampRanges').textContent()).toContain('changed from true');
    expect(await option('maxLogBytes').textContent()).toContain('default');
    expect(await option('allowedHosts').locator('[data-value]').textContent()).toBe('["dsh.lan"]');
    expect(await dash().locator('[data-option] input, [data-option] select, [data-option] button').count()).toBe(0);
  });
  it('renders the rule cards, categories, event lines and OTLP health in Chinese, with no English left in them', async () => {
    server.payload = catalogueFixture();
    await open({ locale: 'zh' });
    const cards = dash().locator('[data-rule]');
    await expect.poll(() => cards.count()).toBe(catalogueFixture().rules?.length);
    for (const rule of catalogueFixture().rules ?? []) {
      const card = dash().locator(`[data-rule="${rule.id}"]`);
      expect(await card.locator('[data-show-rule]').textContent(), rule.id).toContain(ruleTextsZh[rule.id]?.title);
      expect(await card.locator('[data-description]').textContent(), rule.id).toBe(ruleTextsZh[rule.id]?.description);
      expect(await card.locator('[data-category]').textContent(), rule.id).toMatch(/[\u4e00-\u9fff]/);
    }
    // the category ranking and the events' category cells use the Chinese labels; "ok" is not a failure category
    const categories = dash().locator('[data-ranking="category"]');
    expect(await categories.textContent()).toContain('写入前未读取文件');
    expect(await categories.locator('li[data-row="ok"]').count()).toBe(0);
    expect(await categories.textContent()).not.toContain('成功 (');
    // the lines that say what the plugin did: retold, without the sub-call's internal call id
    const lines = await dash().locator('[data-change-lines] li').allTextContents();
    expect(lines).toContain('由“先读取，再重试”恢复（2 次嵌套调用）');
    expect(lines).toContain('程序内的 edit 调用：先读取，再重试');
    expect(lines).toContain('本会话中第 2 次相同的失败');
    expect(lines).toContain('补上 run_code 的 description');
    expect(lines.join('\n')).not.toContain('call_inner_7f3a');
    expect(await dash().locator('[data-otlp]').textContent()).toContain('当前失败');
    expect(await dash().locator('[data-otlp-error]').textContent()).toContain('ECONNREFUSED');
    expect(await dash().locator('[data-tokens-definition]').textContent()).toContain('节省的 token（实测）');
    expect(await kpi('tokens').locator('.label').textContent()).toBe('节省的 token（实测）');
    expect(await dash().locator('[data-option="autoWrapRunCode"] [data-where]').textContent()).toContain('插件配置');
    expect(await dash().locator('[data-option="storePath"] [data-where]').textContent()).toContain('重启后生效');
    // the sections that are translated hold no English word (ids and code aside)
    const english = await dash().evaluate((host) => {
      const root = host.shadowRoot as ShadowRoot;
      const texts: string[] = [];
      for (const section of root.querySelectorAll('[part~="rules"], [part~="kpis"], [data-change-lines]')) {
        const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement?.closest('code, [data-otlp-error]')) continue;
          texts.push(node.textContent ?? '');
        }
      }
      return texts.join(' ').match(/\b[A-Za-z]{4,}\b/g) ?? [];
    });
    // tool and option names the Chinese text quotes (run_code, errorHints...) are not English prose
    const allowed = new Set([
      'edit',
      'description',
      'command',
      'code',
      'script',
      'bash',
      'subagent',
      'json',
      'jsonrepair',
      'true',
      'view_range',
      'write',
      'insert',
      'create',
      'read',
      'tools',
      'Code',
      'Mode',
      'Markdown',
      'schema',
      'null',
      'errorHints',
      'functions',
      'default_api',
      'OTLP',
      'token',
      'start',
      'end',
      'path',
      'file_path',
      'old_str',
      'old_string',
      'cmd',
      'str_replace_editor',
      'FS_NOT_OBSERVED',
      'JSON',
      'shell',
      'FS_STALE_VERSION',
      // names of things and the literal examples the rule descriptions quote
      'DSML',
      'DeepSeek',
      'vLLM',
      'SGLang',
      'queries',
      'rust',
      'async',
      'runtime',
      'meta',
      'name',
    ]);
    expect(english.filter((word) => !allowed.has(word))).toEqual([]);
    await page.screenshot({ path: `${artifactsDir}dashboard-zh-catalogue.png`, fullPage: true });
  });

  it('clicking a rule card shows the events naming that rule, on the server, and the chip clears it', async () => {
    await open();
    const card = dash().locator('[data-rule="fs.observe-then-retry"] [data-show-rule]');
    await card.click();
    await expect.poll(eventIds).toEqual(['ev-2', 'ev-4']);
    expect(new URLSearchParams(server.eventsRequests.at(-1)).get('rule')).toBe('fs.observe-then-retry');
    expect(await dash().locator('[data-rule="fs.observe-then-retry"]').getAttribute('class')).toContain('selected');
    expect(await dash().locator('[data-rule-filter]').textContent()).toContain('Read before edit');
    await dash().locator('[data-rule-filter] button').click();
    await expect.poll(() => dash().locator('[data-rule-filter]').count()).toBe(0);
    expect((await eventIds()).length).toBeGreaterThan(2);
  });

  it('a recovered event shows its before/after (the call and its retry), not an internal call id', async () => {
    server.payload = catalogueFixture();
    await open();
    const row = dash().locator('tr[data-event="ev-recovered"]');
    await expect.poll(() => row.locator('[data-change]').getAttribute('data-change')).toBe('keys');
    const text = await row.locator('.cell-previews').textContent();
    expect(text).toContain('old_string');
    expect(text).toContain('recovered by Observe, then retry (2 nested calls)');
  });

  it('fits a 420 px viewport: no summary card clips or breaks a word, and the page has no horizontal scroll', async () => {
    // the whole 420 px viewport, and narrower panels inside it (DSH's Settings page at 420 px keeps its own nav)
    for (const [locale, width] of [
      ['en'],
      ['zh'],
      ['en', '300'],
      ['zh', '300'],
      ['en', '240'],
      ['en', '170'],
      ['zh', '170'],
      ['en', '136'],
    ] as const) {
      await page.setViewportSize({ width: 420, height: 900 });
      server.payload = { ...catalogueFixture(), rates: { ...catalogueFixture().rates, healingSuccessRate: 1 } };
      await open({ locale, ...(width ? { width } : {}) });
      await expect.poll(() => kpi('healing-rate').locator('.value').textContent()).toBe('100.0%');
      const problems = await dash().evaluate((host) => {
        const root = host.shadowRoot as ShadowRoot;
        const found: string[] = [];
        for (const card of root.querySelectorAll<HTMLElement>('.kpi, .rule')) {
          const box = card.getBoundingClientRect();
          for (const child of card.querySelectorAll<HTMLElement>('*')) {
            const r = child.getBoundingClientRect();
            if (r.width === 0) continue;
            if (r.left < box.left - 0.5 || r.right > box.right + 0.5)
              found.push(`${card.dataset.kpi ?? card.dataset.rule}: ${child.className || child.tagName} overflows`);
            if (child.scrollWidth > child.clientWidth + 1 && getComputedStyle(child).overflowX !== 'visible')
              found.push(`${card.dataset.kpi ?? card.dataset.rule}: ${child.className || child.tagName} is clipped`);
          }
          // no word split although it fits on a line: a whitespace-separated word (or figure) spread over two
          // lines is a mid-word break unless it is wider than the card's text box (a long identifier must wrap);
          // lines may break at spaces, hyphens, slashes, commas and between Chinese characters
          const room = card.clientWidth - 24;
          // (summary cards: rule cards quote long identifiers in their prose, which must wrap)
          const walker = document.createTreeWalker(
            card.matches('.kpi') ? card : document.createElement('div'),
            NodeFilter.SHOW_TEXT,
          );
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent ?? '';
            for (const match of text.matchAll(/[^\s\-/,\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]{2,}/g)) {
              const range = document.createRange();
              range.setStart(node, match.index);
              range.setEnd(node, match.index + match[0].length);
              const rects = [...range.getClientRects()].filter((r) => r.width > 0);
              const lines = new Set(rects.map((r) => Math.round(r.top)));
              const width = rects.reduce((sum, r) => sum + r.width, 0);
              if (lines.size > 1 && width <= room)
                found.push(`${card.dataset.kpi ?? card.dataset.rule}: "${match[0]}" breaks mid-word`);
            }
          }
        }
        // anything wider than the element itself (what would make its panel scroll)
        const edge = host.getBoundingClientRect().right;
        for (const element of root.querySelectorAll<HTMLElement>('*'))
          if (element.getBoundingClientRect().right > edge + 0.5 && !element.closest('thead'))
            found.push(
              `wider than the element: ${element.tagName.toLowerCase()}.${element.className} ${element.textContent?.slice(0, 40)}`,
            );
        const doc = document.documentElement;
        if (doc.scrollWidth > doc.clientWidth)
          found.push(`page scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
        const panel = document.querySelector('#frame');
        // (1 px of slack: scrollWidth rounds a fractional layout width up)
        if (panel && panel.scrollWidth > panel.clientWidth + 1)
          found.push(`panel scrolls sideways: ${panel.scrollWidth} > ${panel.clientWidth}`);
        return found;
      });
      expect(problems, `${locale} ${width ?? 'full width'}`).toEqual([]);
      if (!width) await page.screenshot({ path: `${artifactsDir}dashboard-420-${locale}.png`, fullPage: true });
    }
  });
});
