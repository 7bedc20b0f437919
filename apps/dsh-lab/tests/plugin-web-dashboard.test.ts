/**
 * The dashboard inside the REAL DSH web UI: a headless session through the scripted model first makes the plugin
 * record real events (healed, kept and passed-through calls) in the lab's plugin DSH_HOME; then the real
 * `dsh --profile web` boots in that same DSH_HOME (its store reads the counters from the telemetry database), and
 * Debian's headless Chromium opens the host's web client, goes to Settings > Tool Normalizer the way a user does
 * and checks that `<tn-dashboard>` shows exactly what the plugin's stats route serves, in the host's light and
 * dark themes. Screenshots go to `artifacts/dsh-web-dashboard-{light,dark,dark-events}.png` at the repo root. Skipped, with
 * the reason, when no Chromium binary exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  nativeScenarios,
  ensureBuiltPlugin,
  hasChromium,
  openChromiumPage,
  openSettings,
  readStats,
  repoRoot,
  runSession,
  scenarioFixtures,
  scenarioScript,
  STATS_ROUTE,
  clearStats,
  statsLines,
  startWebProfile,
  type SessionRun,
  type WebProfile,
  warnIfNoChromium,
} from '../src/index.js';
import type { EventsPage, FeedPayload } from '@dsh-tool-normalizer/telemetry-store/feed';

const EVENTS = '/plugin-api/tool-normalizer/events';
const artifactsDir = path.join(repoRoot, 'artifacts');

/** A short native session: one control, six calls the plugin heals, one anchor error it must keep. */
const SESSION_SCENARIOS = [
  'n_bash_ok',
  'n_bash_no_description',
  'n_bash_wrong_key',
  'n_f_view_range_start_past_end',
  'n_e_edit_unread',
  'n_unknown_tool',
  'n_m_fenced_json',
  'n_edit_not_found',
];

type Stats = FeedPayload;

warnIfNoChromium('plugin-web-dashboard');

const integer = (n: number) => new Intl.NumberFormat('en-US').format(n);

/** sRGB relative luminance of a computed `rgb(...)` colour (0 black .. 1 white). */
function luminance(colour: string): number {
  const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

describe.skipIf(!hasChromium)('the dashboard in the real DSH web UI (Settings > Tool Normalizer)', () => {
  let session: SessionRun;
  let firstPage: EventsPage;
  let web: WebProfile;
  let browser: Browser;
  let page: Page;
  let stats: Stats;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuiltPlugin();

    // As after `bash scripts/demo.sh` then `--web`: the web profile is up with nothing of its own (cleared), and
    // the calls are recorded by a headless run in the same DSH_HOME, under `headless`.
    web = await startWebProfile({ kind: 'plugin' });
    expect(await clearStats(web.url), web.stderr()).toBe(200);
    const scenarios = SESSION_SCENARIOS.map((id) => nativeScenarios.find((s) => s.id === id)!);
    session = await runSession({
      mode: 'native',
      plugin: true,
      label: 'web-dashboard',
      steps: scenarioScript(scenarios),
      workspaceFixtures: scenarioFixtures,
    });
    expect(session.exitCode, session.stderr).toBe(0);

    stats = await readStats<Stats>(web.url);
    firstPage = (await (await fetch(`${web.url}${EVENTS}?limit=25&profile=all`)).json()) as EventsPage;
    ({ browser, page } = await openChromiumPage(pageErrors));
  });

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  /** The dashboard's own text and colours, and the host's design token it should follow. */
  const dashboard = () => page.locator('tn-dashboard');
  const kpiValue = (id: string) => dashboard().locator(`[data-kpi="${id}"] .value`).textContent();
  const colours = () =>
    dashboard().evaluate((element) => {
      // The host's tokens may be scoped to an ancestor, so resolve them next to the element.
      const probe = document.createElement('div');
      element.parentElement!.append(probe);
      const token = (name: string) => {
        probe.style.color = `var(${name})`;
        return getComputedStyle(probe).color;
      };
      const host = { label: token('--dsw-alias-label-primary'), surface: token('--dsw-alias-bg-module-platform') };
      probe.remove();
      const card = element.shadowRoot!.querySelector('[data-kpi="calls"]')!;
      return {
        background: getComputedStyle(element).backgroundColor,
        panel: getComputedStyle(element.closest('[role="dialog"]')!).backgroundColor,
        text: getComputedStyle(element).color,
        card: getComputedStyle(card).backgroundColor,
        host,
      };
    });

  /** The dashboard blends into the Settings panel and takes its text and card colours from the host's tokens. */
  async function expectHostColours(theme: 'light' | 'dark'): Promise<void> {
    const isThemed = async () => {
      const panel = luminance((await colours()).panel);
      return theme === 'light' ? panel > 0.8 : panel < 0.2;
    };
    await expect.poll(isThemed).toBe(true);
    const seen = await colours();
    expect(seen.background).toBe('rgba(0, 0, 0, 0)');
    expect(seen.text).toBe(seen.host.label);
    expect(seen.card).toBe(seen.host.surface);
    expect(
      theme === 'light' ? luminance(seen.text) < 0.2 : luminance(seen.text) > 0.6,
      `text ${seen.text} on ${seen.panel}`,
    ).toBe(true);
  }

  /** Settings (bottom of the sidebar) > Tool Normalizer, dismissing the first-visit notice when it shows. */
  async function openToolNormalizer(): Promise<void> {
    await openSettings(page, web.url, 'Tool Normalizer', { allProfiles: true });
  }

  async function chooseHostTheme(theme: 'Light' | 'Dark' | 'System'): Promise<void> {
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'General', exact: true }).click();
    await dialog.getByRole('button', { name: theme, exact: true }).click();
    await dialog.getByRole('button', { name: 'Tool Normalizer', exact: true }).click();
  }

  it('the plugin recorded the headless session, and the web host reads those counters and events', () => {
    expect(stats.totals.calls).toBeGreaterThanOrEqual(session.toolMessages.length);
    expect(stats.totals.healedSuccess).toBeGreaterThan(0);
    expect(stats.recent.length).toBeGreaterThan(0);
    expect(firstPage.total).toBeGreaterThanOrEqual(stats.recent.length);
    // The newest stored events are this session's (the web host made no calls since).
    expect(firstPage.events.map((event) => event.id)).toEqual(
      stats.recent.slice(0, firstPage.events.length).map((event) => event.id),
    );
  });

  it('opens on the headless calls with no click: its own profile (web) has none, so it shows all profiles and says so', async () => {
    const own = (await (await fetch(`${web.url}${STATS_ROUTE}`)).json()) as Stats;
    expect(own.profile).toBe('web');
    expect(own.totals.calls).toBe(0);
    await openSettings(page, web.url, 'Tool Normalizer');
    await expect.poll(() => kpiValue('calls'), { timeout: 30_000 }).toBe(integer(stats.totals.calls));
    expect(stats.totals.calls).toBeGreaterThan(0);
    expect(await dashboard().locator('[data-all-profiles]').isChecked()).toBe(true);
    expect(await dashboard().locator('[data-profile-scope="auto"]').textContent()).toContain(
      `Profile web has no calls yet, so this page shows all profiles: ${integer(stats.totals.calls)} calls, recorded in headless.`,
    );
    // the demo's `--web` says the same
    const lines = (await statsLines(web.url)).join('\n');
    expect(lines).toContain('0 calls intercepted, 0 healed so far (profile web)');
    expect(lines).toContain(
      `all profiles (headless): ${stats.totals.calls} calls intercepted, ${stats.totals.healedSuccess} healed so far; the dashboard opens on all profiles while web has no calls.`,
    );
  });

  it("Settings > Tool Normalizer shows the stats route's real figures", async () => {
    await openToolNormalizer();
    await expect.poll(() => kpiValue('calls'), { timeout: 30_000 }).toBe(integer(stats.totals.calls));
    expect(await dashboard().getAttribute('src')).toBe(STATS_ROUTE);
    expect(await kpiValue('healed')).toBe(integer(stats.totals.healedSuccess));
    expect(await dashboard().locator('[data-kpi="healed"]').textContent()).toContain(
      `${integer(stats.totals.healedFailed)} healing attempts still failed`,
    );
    await expect.poll(() => dashboard().locator('tbody tr[data-event]').count()).toBe(firstPage.events.length);
    const toolRows = await dashboard()
      .locator('[data-ranking="tool"] li[data-row]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row')));
    // Ranked tools with failures in the server's order first, then ranked tools that never failed.
    expect(toolRows.slice(0, stats.rankings.toolsByFailureRate.length)).toEqual(stats.rankings.toolsByFailureRate);
    expect([...toolRows].sort()).toEqual(
      stats.tools
        .filter((row) => row.ranked)
        .map((row) => row.name)
        .sort(),
    );
    expect(await dashboard().getByRole('alert').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("follows the host's Light and Dark themes (screenshots in artifacts/)", async () => {
    fs.mkdirSync(artifactsDir, { recursive: true });
    try {
      await chooseHostTheme('Light');
      await expectHostColours('light');
      expect(await kpiValue('calls')).toBe(integer(stats.totals.calls));
      await page.screenshot({ path: path.join(artifactsDir, 'dsh-web-dashboard-light.png') });

      await chooseHostTheme('Dark');
      await expectHostColours('dark');
      expect(await kpiValue('calls')).toBe(integer(stats.totals.calls));
      await page.screenshot({ path: path.join(artifactsDir, 'dsh-web-dashboard-dark.png') });
      // The recent-events section: filters, caption and the newest rows.
      await dashboard()
        .locator('#events-title')
        .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
      const caption = (await dashboard().locator('caption').textContent())!.replace(/\s+/g, ' ');
      expect(caption).toContain(
        `Showing 1–${firstPage.events.length} of ${integer(firstPage.total)} stored events. Previews`,
      );
      await page.screenshot({ path: path.join(artifactsDir, 'dsh-web-dashboard-dark-events.png') });
    } finally {
      // The choice is saved in the lab's DSH_HOME; leave it as DSH sets it up.
      await chooseHostTheme('System').catch(() => undefined);
    }
    expect(pageErrors).toEqual([]);
  });
  it('at a 420 px viewport the summary and rule cards fit: nothing clipped, no word split, no sideways scroll', async () => {
    // DSH's narrow layout hides the sidebar's Settings button: open the page wide, then narrow the window
    await openToolNormalizer();
    await expect.poll(() => kpiValue('calls'), { timeout: 30_000 }).toBe(integer(stats.totals.calls));
    await page.setViewportSize({ width: 420, height: 900 });
    try {
      await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(420);
      // the checks below mean something only while the page is on screen (a hidden element has no boxes)
      await expect
        .poll(() =>
          dashboard()
            .locator('[data-kpi="calls"]')
            .evaluate((card) => card.getBoundingClientRect().width),
        )
        .toBeGreaterThan(0);
      await dashboard().evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      const problems = await dashboard().evaluate((host) => {
        const root = host.shadowRoot as ShadowRoot;
        const found: string[] = [];
        for (const card of root.querySelectorAll<HTMLElement>('.kpi, .rule')) {
          const name = card.dataset.kpi ?? card.dataset.rule;
          const box = card.getBoundingClientRect();
          for (const child of card.querySelectorAll<HTMLElement>('*')) {
            const r = child.getBoundingClientRect();
            if (r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5)) found.push(`${name}: overflow`);
          }
          // a word spread over two lines although it fits on one is a mid-word break (lines may break at spaces,
          // hyphens, slashes, commas and between Chinese characters)
          const room = card.clientWidth - 24;
          // (summary cards: rule cards quote long identifiers in their prose, which must wrap)
          const walker = document.createTreeWalker(
            card.matches('.kpi') ? card : document.createElement('div'),
            NodeFilter.SHOW_TEXT,
          );
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of (node.textContent ?? '').matchAll(
              /[^\s\-/\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]{2,}/g,
            )) {
              const range = document.createRange();
              range.setStart(node, match.index);
              range.setEnd(node, match.index + match[0].length);
              const rects = [...range.getClientRects()].filter((r) => r.width > 0);
              const width = rects.reduce((sum, r) => sum + r.width, 0);
              if (new Set(rects.map((r) => Math.round(r.top))).size > 1 && width <= room)
                found.push(`${name}: "${match[0]}" split`);
            }
          }
        }
        // what is wider than the element (names the culprit when the element scrolls)
        const edge = host.getBoundingClientRect().right;
        for (const element of root.querySelectorAll<HTMLElement>('*'))
          if (element.getBoundingClientRect().right > edge + 0.5 && !element.closest('thead'))
            found.push(
              `wider than the element: ${element.tagName.toLowerCase()}.${element.className} ${element.textContent?.slice(0, 40)}`,
            );
        // the element and the Settings dialog up to it (DSH's own collapsed sidebar rail is DSH's layout), and the page
        const dialog = host.closest('[role="dialog"]');
        for (let el: Element | null = host; el; el = el === dialog ? null : el.parentElement)
          if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'hidden')
            found.push(`${el.tagName}.${el.className}: scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
        const doc = document.documentElement;
        if (doc.scrollWidth > doc.clientWidth)
          found.push(`the page scrolls sideways (${doc.scrollWidth} > ${doc.clientWidth})`);
        return found;
      });
      await page.screenshot({ path: path.join(artifactsDir, 'dsh-web-dashboard-420.png') });
      expect(problems).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    expect(pageErrors).toEqual([]);
  });
});
