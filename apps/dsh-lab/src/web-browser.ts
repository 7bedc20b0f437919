/**
 * The real DSH web UI in Debian's headless Chromium, the way the web tests open it: one place that finds the
 * Chromium binary, launches it with a page that collects uncaught page errors, loads the host's web client
 * (dismissing the first-visit notice) and goes to a Settings section. Also reads the plugin's stats route and
 * clears the store the way the dashboard does (the route token, then a same-origin POST), and says what the stats
 * route serves in the scope the dashboard opens on (the demo's `--web` prints it).
 * playwright-core is loaded only when a browser is launched, so importing dsh-lab does not load it.
 */
import fs from 'node:fs';
import { opensOnAllProfiles, otherProfilesWhenOwnIsEmpty } from '@dsh-tool-normalizer/dashboard-lit';
import type { FeedPayload } from '@dsh-tool-normalizer/telemetry-store/feed';
import type { Browser, Locator, Page } from 'playwright-core';

/** The Chromium binary the web tests drive (`CHROMIUM_PATH`, or Debian's `/usr/bin/chromium`). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Whether that binary exists; the web tests are skipped (with the reason printed) when it does not. */
export const hasChromium = fs.existsSync(CHROMIUM_PATH);

/** The plugin's stats route on a web profile (the payload `<tn-dashboard>` renders). */
export const STATS_ROUTE = '/plugin-api/tool-normalizer/stats';

/** Prints why a web test file is skipped when there is no Chromium binary; `hint` says how to get one. */
export function warnIfNoChromium(testName: string, hint = '(apt-get install chromium, or set CHROMIUM_PATH)'): void {
  if (!hasChromium)
    console.warn(`[dsh-lab] ${testName} skipped: no Chromium binary at ${CHROMIUM_PATH}${hint ? ` ${hint}` : ''}`);
}

/** A launched headless Chromium and one page in it. */
export interface ChromiumPage {
  browser: Browser;
  page: Page;
}

/**
 * Launches headless Chromium and opens one page of `viewport` size; every uncaught error of that page is pushed to
 * `pageErrors` (the tests assert it stays empty).
 */
export async function openChromiumPage(
  pageErrors: string[],
  viewport: { width: number; height: number } = { width: 1280, height: 1000 },
): Promise<ChromiumPage> {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { browser, page };
}

/** Launches headless Chromium (sandbox off: the lab runs as a user without one). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}

export interface OpenWebUiOptions {
  /** The Settings button's label in the language DSH shows (default `Settings`). */
  settings?: string;
  /** How long to wait for the first-visit notice when it is not up yet (default 1,500 ms). */
  noticeTimeoutMs?: number;
  /**
   * Tick the dashboard's "All profiles" switch after opening it: the lab's homes hold receipts of its headless runs
   * and seeded stores too, while the page shows its own profile (`web`) by default once that has calls (an empty
   * `web` opens on all profiles by itself).
   */
  allProfiles?: boolean;
}

/**
 * Loads the DSH web client at `url`, waits for the shell (its Settings button, bottom of the sidebar) and dismisses
 * the first-visit notice when it shows. Returns the Settings button.
 */
export async function openDshWebUi(page: Page, url: string, options: OpenWebUiOptions = {}): Promise<Locator> {
  await page.goto(url);
  const settings = page.getByRole('button', { name: options.settings ?? 'Settings', exact: true });
  await settings.waitFor({ timeout: 60_000 });
  const notice = page.getByRole('button', { name: 'Continue', exact: true });
  // The notice comes up with the shell; once dismissed DSH remembers it in the DSH_HOME's settings.
  if (await notice.isVisible().catch(() => false)) await notice.click();
  else
    await notice.waitFor({ timeout: options.noticeTimeoutMs ?? 1500 }).then(
      () => notice.click(),
      () => undefined,
    );
  return settings;
}

/**
 * Opens the Settings dialog of the DSH web UI at `url` and, when `section` is given, that section of its navigation
 * (e.g. `Tool Normalizer`; labels in the language DSH shows).
 */
export async function openSettings(
  page: Page,
  url: string,
  section?: string,
  options: OpenWebUiOptions = {},
): Promise<void> {
  const settings = await openDshWebUi(page, url, options);
  await settings.click();
  if (section) await page.getByRole('dialog').getByRole('button', { name: section, exact: true }).click();
  if (options.allProfiles) await page.locator('tn-dashboard [data-all-profiles]').check({ timeout: 30_000 });
}

/** The plugin's route token, fetched as the dashboard page does (a same-origin request from this machine). */
export const TOKEN_ROUTE = '/plugin-api/tool-normalizer/token';
export const TOKEN_HEADER = 'x-tool-normalizer-token';

export async function routeToken(url: string): Promise<string> {
  const response = await fetch(`${url}${TOKEN_ROUTE}`, { headers: { 'sec-fetch-site': 'same-origin' } });
  if (response.status !== 200) throw new Error(`the token route answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * The plugin's stats payload as a web profile at `url` serves it now (with the token, which a 0.0.0.0 bind needs),
 * over every profile of the DSH_HOME (`?profile=all`): the lab's homes are shared by its headless and web runs.
 */
export async function readStats<T>(url: string): Promise<T> {
  const headers = { [TOKEN_HEADER]: await routeToken(url) };
  return (await (await fetch(`${url}${STATS_ROUTE}?profile=all`, { headers })).json()) as T;
}

/** Clears the plugin's store the way the dashboard's Clear button does; resolves to the route's HTTP status. */
export async function clearStats(url: string): Promise<number> {
  const response = await fetch(`${url}/plugin-api/tool-normalizer/clear`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-tool-normalizer-action': 'clear',
      origin: url,
      'sec-fetch-site': 'same-origin',
      [TOKEN_HEADER]: await routeToken(url),
    },
    body: JSON.stringify({ confirm: 'clear' }),
  });
  await response.body?.cancel();
  return response.status;
}

type StatsBody = FeedPayload;

/**
 * What the stats route serves, in the words and the scope the dashboard opens on: the web profile's own receipts,
 * or every profile's when the own one has none and others have some (`opensOnAllProfiles`, the dashboard's rule):
 * the demo records under `headless`, so after `bash scripts/demo.sh` both show the demo's calls.
 */
export async function statsLines(url: string): Promise<string[]> {
  const route = `${url}${STATS_ROUTE}`;
  const read = async (query: string): Promise<StatsBody | string> => {
    try {
      const res = await fetch(`${route}${query}`);
      return res.ok ? ((await res.json()) as StatsBody) : `HTTP ${res.status}`;
    } catch (error) {
      return `unreachable (${String(error)})`;
    }
  };
  const figures = (body: StatsBody) =>
    `${body.totals.calls} calls intercepted, ${body.totals.healedSuccess} healed so far`;
  const own = await read('');
  if (typeof own === 'string') return [`Stats route ${route}: ${own}`];
  const ownName = own.ownProfile ?? own.profile;
  const ownLine = `Stats route ${route}: HTTP 200, ${figures(own)}${ownName ? ` (profile ${ownName})` : ''}`;
  if (otherProfilesWhenOwnIsEmpty(own).length === 0) return [ownLine];
  const all = await read('?profile=*');
  if (typeof all === 'string' || !opensOnAllProfiles(own, all)) return [ownLine];
  return [
    ownLine,
    `  all profiles (${(own.profiles ?? []).join(', ')}): ${figures(all)}; the dashboard opens on all profiles while ${ownName} has no calls.`,
  ];
}
