/**
 * How live options reach each DSH release. The transport comes from the release's row in dsh-profile; the `Config`
 * export built for `volatile-config` is a real Schemastery schema whose live options (and only they) are volatile,
 * validated as before, with references the host's loader recognizes; a real cordis host with DSH 0.1.7-rc.2's
 * settings forms (fixture, written from public source: tests/fixtures/settings-forms-0.1.7.ts) serves and edits
 * them, and the change reaches the plugin's stats on the next request without a restart. A host with a settings
 * service but no `register` and no volatile config is reported, never silent. rc.8's namespace path is proven on the
 * real host (apps/dsh-lab plugin-web-plugin-configuration.test.ts) and in settings-namespace.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Schema from '@deepseek-ai/schemastery';
import { DSH_RELEASES } from '@dsh-tool-normalizer/dsh-profile';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostConfig, splitLiveReferences } from '../src/host-config.js';
import { runningDshVersion } from '../src/host-release.js';
import * as plugin from '../src/index.js';
import { LIVE_OPTIONS } from '../src/live-options.js';
import { NO_LIVE_SETTINGS, liveOptionsTransport } from '../src/settings-namespace.js';
import { SettingsForms017, volatileFields } from './fixtures/settings-forms-0.1.7.js';
import { bootHost, type Host } from './support/composition.js';

const WRITE = Symbol.for('cosmokit.volatile.write');

describe('liveOptionsTransport', () => {
  it.each([
    ['0.1.0-rc.8', 'settings-namespace'],
    ['0.1.1-rc.2', 'settings-namespace'],
    ['0.1.6-alpha.2', 'settings-namespace'],
    ['0.1.7-rc.1', 'settings-namespace'],
    ['0.1.7-rc.2', 'volatile-config'],
    ['0.2.0-rc.2', 'volatile-config'],
    ['0.2.1-alpha.2', 'volatile-config'],
    ['0.3.0', 'volatile-config'],
    [undefined, 'settings-namespace'],
    ['not a version', 'settings-namespace'],
  ] as const)('DSH %s: %s', (release, transport) => {
    expect(liveOptionsTransport(release)).toBe(transport);
  });

  it('every known release has one', () => {
    for (const release of DSH_RELEASES)
      expect(['settings-namespace', 'volatile-config']).toContain(liveOptionsTransport(release));
  });
});

describe('runningDshVersion', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the @deepseek-ai/dsh package the entry script belongs to, through a bin symlink', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tn-release-'));
    dirs.push(dir);
    const pkg = join(dir, 'node_modules', '@deepseek-ai', 'dsh');
    mkdirSync(join(pkg, 'lib'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@deepseek-ai/dsh', version: '0.1.7-rc.2' }));
    writeFileSync(join(pkg, 'lib', 'bin.js'), '');
    symlinkSync(join(pkg, 'lib', 'bin.js'), join(dir, 'dsh'));
    expect(runningDshVersion(join(dir, 'dsh'))).toBe('0.1.7-rc.2');
  });

  it('is undefined outside DSH, for a missing entry and for a broken manifest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tn-release-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'package.json'), '{ not json');
    writeFileSync(join(dir, 'main.js'), '');
    expect(runningDshVersion(join(dir, 'main.js'))).toBeUndefined();
    expect(runningDshVersion(join(dir, 'absent.js'))).toBeUndefined();
    expect(runningDshVersion(undefined)).toBeUndefined();
    // This test process is vitest, not DSH: the module-level Config was built for rc.8's namespace.
    expect(plugin.Config.transport).toBe('settings-namespace');
  });
});

describe('the volatile-config Config', () => {
  const Config = createHostConfig('volatile-config');

  it('is a Schemastery object schema whose volatile fields are exactly the live options', () => {
    expect(Config['~standard'].vendor).toBe('schemastery');
    expect(volatileFields(Config).sort()).toEqual([...LIVE_OPTIONS].sort());
    // The serialized form the host sends the browser rehydrates with the same defaults.
    const rehydrated = Schema(JSON.parse(JSON.stringify(Config.toJSON())));
    expect(Object.keys((rehydrated as unknown as { dict: object }).dict)).toContain('maxLogBytes');
    expect(volatileFields(createHostConfig('settings-namespace'))).toEqual([]);
  });

  it('hands live options as references of the shared protocol, the rest as plain values', () => {
    const result = Config['~standard'].validate({ errorHints: false, maxLogBytes: 100000 });
    if (result.issues) throw new Error(result.issues[0]?.message);
    for (const name of LIVE_OPTIONS) expect(WRITE in (result.value[name] as object), name).toBe(true);
    expect(result.value.maxLogBytes).toBe(100000);
    const { config, references } = splitLiveReferences(result.value);
    expect(Object.keys(references).sort()).toEqual([...LIVE_OPTIONS].sort());
    expect(config).toMatchObject({ errorHints: false, breakLoops: true, maxLogBytes: 100000 });
    expect(plugin.resolveConfig(config)).toMatchObject({ errorHints: false });
  });

  it('still refuses a wrong value with the message that names the option', () => {
    const result = Config['~standard'].validate({ errorHints: 'no' });
    expect(result.issues?.[0]?.message).toMatch(/option "errorHints" must be a boolean/);
  });
});

describe('DSH 0.1.7-rc.2 settings forms (fixture)', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('serves the live options, and an edit reaches the plugin without a restart', async () => {
    host = await bootHost({ web: true, plugin: false });
    const volatilePlugin = { ...plugin, Config: createHostConfig('volatile-config') };
    const row = { logDir: host.logDir, autoClampRanges: false };
    const fiber = await host.ctx.plugin(volatilePlugin, row);
    const forms = new SettingsForms017(plugin.name, fiber, row);
    const uid = fiber.uid;

    const [view] = forms.describe();
    expect(view?.ns).toBe('tool-normalizer');
    expect(Object.keys(view?.value ?? {}).sort()).toEqual([...LIVE_OPTIONS].sort());
    expect(view?.value).toMatchObject({ autoClampRanges: false, errorHints: true });

    await forms.mutate('tool-normalizer', [{ op: 'set', path: ['errorHints'], value: false }], view?.revision);
    expect(forms.emitted).toEqual([['errorHints']]);
    expect(forms.describe()[0]?.value).toMatchObject({ errorHints: false });
    const options = (await host.stats()) as unknown as { options: { name: string; value: unknown }[] };
    expect(options.options.find((option) => option.name === 'errorHints')?.value).toBe(false);
    expect(fiber.uid).toBe(uid);

    // Unset: back to the row's value; a non-volatile field and a wrong type are refused before anything is stored.
    await forms.mutate('tool-normalizer', [{ op: 'unset', path: ['errorHints'] }]);
    const after = (await host.stats()) as unknown as { options: { name: string; value: unknown }[] };
    expect(after.options.find((option) => option.name === 'errorHints')?.value).toBe(true);
    await expect(forms.mutate('tool-normalizer', [{ op: 'set', path: ['maxLogBytes'], value: 1 }])).rejects.toThrow(
      /not volatile/,
    );
    await expect(forms.mutate('tool-normalizer', [{ op: 'set', path: ['breakLoops'], value: 'off' }])).rejects.toThrow(
      /breakLoops/,
    );
    expect(forms.user).toEqual({});
    expect((await host.stats()).pluginErrors).toBe(0);
  });

  it('a settings service without register and no volatile config is reported, the row values kept', async () => {
    host = await bootHost({ web: true, plugin: false });
    // A settings service of the 0.1.7-rc.2 shape (no register), reached by a plugin whose Config is not volatile.
    host.ctx.provide('settings', { describe: () => [] });
    await host.ctx.plugin(plugin, { logDir: host.logDir, errorHints: false });
    const stats = (await host.stats()) as unknown as {
      pluginErrors: number;
      options: { name: string; value: unknown }[];
    };
    expect(stats.pluginErrors).toBe(1);
    expect(stats.options.find((option) => option.name === 'errorHints')?.value).toBe(false);
    expect(NO_LIVE_SETTINGS).toMatch(/cordis\.patch\.yml/);
  });
});
