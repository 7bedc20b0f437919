/**
 * The plugin's options in DSH's own Plugins > Plugin configuration tab, in the REAL DSH web UI (rc.8) and Debian's
 * headless Chromium: the tab lists Tool Normalizer (the host pairs the settings namespace the plugin registers with
 * the card its client bundle ships), the card shows the live options with their descriptions, and turning
 * `errorHints` off and saving stores it in `$DSH_HOME/settings.yaml` and reaches the running plugin without a
 * restart (the web process's stats feed reports the errorHints rule off: it reads the same config object the seams
 * read on every call). A real session through the scripted model in the same DSH_HOME shows what the switch does to
 * a tool call: `read` past the end of a file gets the plugin's hint before, and only the host's own error after.
 * Reset removes the override again. With DSH's Language set to 中文 the card is in Chinese. And an invalid value in the document never stops DSH: the plugin reports the
 * refused namespace (a plugin error on the stats feed, 0 with a valid document) and keeps working on its loader
 * row's config, in a headless session and in a fresh web boot. Screenshots: `artifacts/dsh-web-plugin-configuration{,-zh}.png`. Skipped, with the reason,
 * when no Chromium binary exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ensureProfile,
  ensureBuiltPlugin,
  hasChromium,
  labPaths,
  openChromiumPage,
  openSettings,
  readStats,
  repoRoot,
  runSession,
  scenarioFixtures,
  scenarioScript,
  scenariosFor,
  startWebProfile,
  type WebProfile,
  warnIfNoChromium,
} from '../src/index.js';
import { switchCatalogue } from '@dsh-tool-normalizer/core-rules/catalogue';
import type { FeedPayload } from '@dsh-tool-normalizer/telemetry-store/feed';

const artifactsDir = path.join(repoRoot, 'artifacts');
/** The options the card must show: every rule switch of the catalogue, then the plugin's own trimStackTraces. */
const LIVE_OPTIONS = [...switchCatalogue.map((row) => row.id), 'trimStackTraces'];

warnIfNoChromium('plugin-web-plugin-configuration');

/** `settings.yaml` without the plugin's section, block or flow style (the document's other sections are kept). */
function withoutPluginSection(text: string): string {
  return text.replace(/^tool-normalizer:(?:[ \t]*\{.*\}[ \t]*\n?|[ \t]*\n(?:[ \t]+.*\n?)*)/m, '');
}

/** The plugin's section of `settings.yaml` as the host wrote it (DSH writes a small map in flow style). */
function pluginSection(text: string): string | undefined {
  return /^tool-normalizer:(?:[ \t]*(\{.*\})|[ \t]*\n((?:[ \t]+.*\n?)*))/m
    .exec(text)
    ?.slice(1)
    .find((part) => part !== undefined);
}

describe.skipIf(!hasChromium)('Plugins > Plugin configuration in the real DSH web UI', () => {
  const home = labPaths.home('plugin');
  const settingsFile = path.join(home, 'settings.yaml');
  let web: WebProfile;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  /** Whether the running plugin's errorHints rule is on, from its stats feed. */
  const errorHintsRuleOn = async () => {
    const stats = await readStats<FeedPayload>(web.url);
    return stats.rules?.find((rule) => rule.option === 'errorHints')?.enabled;
  };

  /** What the model saw for a `read` past the end of a 10-line file, in a real native session in this DSH_HOME. */
  async function readPastEnd(label: string): Promise<string> {
    const scenarios = scenariosFor('native').filter((scenario) => scenario.id === 'n_read_past_end');
    expect(scenarios).toHaveLength(1);
    const run = await runSession({
      mode: 'native',
      plugin: true,
      label,
      steps: scenarioScript(scenarios),
      workspaceFixtures: scenarioFixtures,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const message = run.toolMessages.find((m) => m.callId === 'n_read_past_end');
    const content = message?.content ?? '';
    expect(content).toContain('is out of range');
    return content;
  }

  beforeAll(async () => {
    await ensureBuiltPlugin();
    await ensureProfile('plugin', 'web');
    if (fs.existsSync(settingsFile))
      fs.writeFileSync(settingsFile, withoutPluginSection(fs.readFileSync(settingsFile, 'utf8')));
    web = await startWebProfile({ kind: 'plugin' });
    ({ browser, page } = await openChromiumPage(pageErrors));
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
    // Also drop a saved language, should the switch back to English have failed, so later tests find DSH in English.
    if (fs.existsSync(settingsFile)) {
      const text = withoutPluginSection(fs.readFileSync(settingsFile, 'utf8'));
      fs.writeFileSync(settingsFile, text.replace(/^locale:\n(?:[ \t]+.*\n?)*/m, ''));
    }
  });

  const dialog = () => page.getByRole('dialog');
  const card = () => dialog().locator('li[data-plugin-card="tool-normalizer"]');

  /** Settings > General > Language (labels in the language DSH shows), then Plugins > Plugin configuration. */
  async function chooseLanguage(
    from: string,
    to: string,
    general: string,
    plugins: string,
    tab: string,
  ): Promise<void> {
    await dialog().getByRole('button', { name: general, exact: true }).click();
    await dialog().getByRole('button', { name: from, exact: true }).click();
    await page
      .getByRole('menuitem', { name: to })
      .or(page.getByRole('menuitemradio', { name: to }))
      .or(page.getByRole('option', { name: to }))
      .first()
      .click();
    await openPluginConfiguration(plugins, tab);
  }

  async function openPluginConfiguration(plugins = 'Plugins', tab = 'Plugin configuration'): Promise<void> {
    await dialog().getByRole('button', { name: plugins, exact: true }).click();
    await dialog()
      .getByRole('tab', { name: tab })
      .or(dialog().getByRole('button', { name: tab, exact: true }))
      .first()
      .click();
  }

  it('lists Tool Normalizer with its live options; errorHints off is saved to settings.yaml and applies without a restart', async () => {
    expect(await errorHintsRuleOn()).toBe(true);
    // A valid document (no plugin section): the namespace registers without a plugin error.
    expect((await readStats<FeedPayload>(web.url)).pluginErrors).toBe(0);
    expect(await readPastEnd('plugin-configuration-hints-on')).toContain('Hint: the file has 10 lines');
    await openSettings(page, web.url);
    await openPluginConfiguration();

    await card().waitFor({ timeout: 30_000 });
    await card()
      .getByRole('button', { name: /Tool Normalizer/ })
      .click();
    const boxes = card().locator('input[type="checkbox"]');
    expect(await boxes.evaluateAll((inputs) => inputs.map((input) => input.getAttribute('data-option')))).toEqual(
      LIVE_OPTIONS,
    );
    for (const name of LIVE_OPTIONS)
      await expect.poll(() => card().locator(`input[data-option="${name}"]`).isChecked()).toBe(true);
    await expect
      .poll(() => card().textContent())
      .toContain('Appends one actionable hint to an error nobody could heal.');

    await card().locator('input[data-option="errorHints"]').uncheck();
    await card().getByText('Unsaved').waitFor();
    await card().getByRole('button', { name: 'Save', exact: true }).click();
    await card().getByText('Changed').waitFor({ timeout: 15_000 });
    // The only key of the section, whichever YAML style the host chose for it.
    const stored = () =>
      pluginSection(fs.readFileSync(settingsFile, 'utf8'))
        ?.replace(/[{}\s]+/g, ' ')
        .trim();
    await expect.poll(stored, { timeout: 15_000 }).toBe('errorHints: false');
    // The running plugin took it: no restart happened (same web process).
    await expect.poll(errorHintsRuleOn, { timeout: 15_000 }).toBe(false);
    expect(await readPastEnd('plugin-configuration-hints-off')).not.toContain('Hint:');
    fs.mkdirSync(artifactsDir, { recursive: true });
    await card().screenshot({ path: path.join(artifactsDir, 'dsh-web-plugin-configuration.png') });

    await card().getByRole('button', { name: 'Reset', exact: true }).click();
    await card().getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(errorHintsRuleOn, { timeout: 15_000 }).toBe(true);
    await expect.poll(() => fs.readFileSync(settingsFile, 'utf8')).not.toMatch(/errorHints/);
    expect(pageErrors).toEqual([]);
  }, 300_000);

  it("follows DSH's Language setting: the card in Chinese, then back", async () => {
    try {
      await chooseLanguage('English', '中文', 'General', '插件', '插件配置');
      // the card's title is Chinese too
      await card()
        .getByRole('button', { name: /工具调用修复/ })
        .click();
      await expect
        .poll(() => card().textContent(), { timeout: 15_000 })
        .toContain('为无法修复的错误附加一条可操作的提示。');
      expect(await card().textContent()).toContain('错误提示');
      await card().screenshot({ path: path.join(artifactsDir, 'dsh-web-plugin-configuration-zh.png') });
    } finally {
      await chooseLanguage('中文', 'English', '通用设置', 'Plugins', 'Plugin configuration').catch(() => undefined);
    }
    await expect.poll(() => card().textContent(), { timeout: 15_000 }).toContain('Repairs failing tool calls');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('an invalid value in settings.yaml does not stop DSH: sessions and the web UI run on the row config (hints on)', async () => {
    const before = fs.existsSync(settingsFile) ? withoutPluginSection(fs.readFileSync(settingsFile, 'utf8')) : '';
    const separator = before === '' || before.endsWith('\n') ? '' : '\n';
    fs.writeFileSync(settingsFile, `${before}${separator}tool-normalizer:\n  errorHints: "no"\n`);
    try {
      expect(await readPastEnd('plugin-configuration-invalid')).toContain('Hint: the file has 10 lines');
      // A web boot on the same document: up, the refused namespace counted as a plugin error, the row config in force.
      await web.stop();
      web = await startWebProfile({ kind: 'plugin' });
      const stats = await readStats<FeedPayload>(web.url);
      expect(stats.pluginErrors).toBeGreaterThanOrEqual(1);
      expect(stats.rules?.find((rule) => rule.option === 'errorHints')?.enabled).toBe(true);
    } finally {
      fs.writeFileSync(settingsFile, before);
    }
  }, 180_000);
});
