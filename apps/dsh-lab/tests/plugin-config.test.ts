/**
 * The plugin's configuration as a USER sets it, in the real DSH 0.1.0-rc.8: an overlay passed with
 * `dsh --profile headless --patch <file>` (the last layer; docs/host-facts.md#configuration) that targets the plugin's row
 * `- id: tool-normalizer`. The host REPLACES the row's config with the overlay's (it does not merge it with the
 * bundle layer's full list), so every option the user leaves out must fall back to the plugin's own default.
 *
 * Proven here, one real boot per case:
 * - an invalid value ("yes" for a boolean) fails the whole headless boot quickly (exit 1, no model request),
 *   and stderr names the option and the expected type;
 * - `errorHints: false` is honoured: an error nobody heals reaches the model byte-identical to the host's own
 *   text, while the options left out keep healing (their defaults);
 * - `autoWrapRunCode: false` is honoured: a run_code `{command}` call is not healed and the model sees the host's
 *   INVALID_ARGS text, while a direct call is still bridged and hints still follow errors (defaults).
 * - the `tui` profile: rc.8 ships no terminal UI, so `dsh --profile tui` is the profile `dsh plugin --profile tui
 *   add` creates (dsh-base + the plugin). Its user layer (`profiles/tui/cordis.patch.yml`) with an invalid value
 *   fails that boot the same way; with the defaults, its plugin tree (driven by dsh-headless's runner rows as a
 *   `--patch` overlay, since the profile has no app) adds the prompt section and heals in one round-trip.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../src/child-process.js';
import { TUI_SCRIPTED_DRIVER_PATCH } from '../src/run-session.js';
import {
  checkModelSees,
  dshEnvironment,
  ensureProfile,
  ensureBuiltPlugin,
  runSession,
  scenarioFixtures,
  scenarioScript,
  scenariosFor,
  type Scenario,
  type SessionRun,
  type ToolsMode,
} from '../src/index.js';

/** A user overlay that targets the plugin's row (the row id the meta-package's cordis.patch.yml inserts). */
function rowOverride(config: string): string {
  return `# user overlay (dsh-lab plugin-config test)\n- id: tool-normalizer\n  config:\n${config}`;
}

const INVALID_OVERLAY = rowOverride('    autoWrapRunCode: "yes"\n');
const NO_HINTS_OVERLAY = rowOverride('    errorHints: false\n');
const NO_RUN_CODE_WRAP_OVERLAY = rowOverride('    autoWrapRunCode: false\n');

/** The named scenarios of a mode, in catalogue order (throws on a typo so a renamed scenario cannot pass silently). */
function pick(mode: ToolsMode, ids: readonly string[]): Scenario[] {
  const all = scenariosFor(mode);
  for (const id of ids) if (!all.some((s) => s.id === id)) throw new Error(`no ${mode} scenario ${id}`);
  return all.filter((s) => ids.includes(s.id));
}

function byId(scenarios: readonly Scenario[], id: string): Scenario {
  const found = scenarios.find((s) => s.id === id);
  if (!found) throw new Error(`no scenario ${id}`);
  return found;
}

/** The host's own text for a scenario (without the plugin), with the run's workspace filled in. */
function hostText(scenario: Scenario, run: SessionRun): string {
  const exact = scenario.withoutPlugin.exact;
  if (exact === undefined) throw new Error(`${scenario.id} has no exact host baseline`);
  return exact.replaceAll('{{ws}}', run.workspace);
}

function seen(run: SessionRun, id: string) {
  const message = run.toolMessages.find((m) => m.callId === id);
  expect(message, `the model saw an answer to ${id}`).toBeDefined();
  expect(message!.content, `the model saw an answer to ${id}`).toBeDefined();
  return message!;
}

function systemPromptOf(run: SessionRun): string {
  const system = run.requests.find((r) => r.isAgent)?.body.messages?.find((m) => m.role === 'system');
  return JSON.stringify(system?.content ?? '');
}

beforeAll(async () => {
  await ensureBuiltPlugin();
});

describe('the host composes a user override by replacing the row config (dsh --dump-config)', () => {
  it('the --patch overlay leaves exactly the user-given option in the tool-normalizer row', async () => {
    const { install, dshHome } = await ensureProfile('plugin', 'headless');
    const file = path.join(fs.mkdtempSync(path.join(dshHome, '..', 'dump-config-')), 'patch.yml');
    fs.writeFileSync(file, NO_HINTS_OVERLAY);
    const result = await runCommand(
      install.nodeBin,
      [install.dshEntry, '--profile', 'headless', '--patch', file, '--dump-config'],
      {
        step: 'dsh --dump-config',
        env: dshEnvironment(install, dshHome),
        cwd: dshHome,
        timeoutMs: 60_000,
      },
    );
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(result.exitCode, result.stderr).toBe(0);
    const row = result.stdout.slice(result.stdout.indexOf('- id: tool-normalizer'));
    const rowText = row.split(/\n(?=- id: |# == )/)[0]?.trimEnd();
    // Replaced, not merged: the bundle layer's eight explicit options are gone, only the user's one is left.
    expect(rowText).toBe('- id: tool-normalizer\n  name: dsh-tool-normalizer\n  config:\n    errorHints: false');
  });
});

describe('an invalid option value set by the user (--patch)', () => {
  let run: SessionRun;

  beforeAll(async () => {
    run = await runSession({
      mode: 'native',
      plugin: true,
      label: 'config-invalid',
      patch: INVALID_OVERLAY,
      steps: scenarioScript(pick('native', ['n_bash_ok'])),
      workspaceFixtures: scenarioFixtures,
      timeoutMs: 90_000,
    });
  });

  it('fails the whole headless boot with exit code 1, without hanging and before any model request', () => {
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.requests).toHaveLength(0);
    expect(run.toolMessages.every((m) => m.content === undefined)).toBe(true);
  });

  it('tells the user on stderr which plugin, which option, what type is expected and what was given', () => {
    expect(run.stderr).toContain('dsh: plugin tree failed to load');
    expect(run.stderr).toContain('dsh-tool-normalizer: ValidationError: invalid config:');
    expect(run.stderr).toContain('tool-normalizer: option "autoWrapRunCode" must be a boolean, got string "yes"');
    expect(run.stdout.trim()).toBe('');
  });
});

describe('errorHints: false set by the user (--patch), native mode', () => {
  const kept = ['n_read_past_end', 'n_stale_edit', 'n_run_code_in_native'];
  const healedByDefaults = [
    'n_bash_no_description',
    'n_f_view_range_end_past_end',
    'n_e_edit_unread',
    'n_unknown_tool',
  ];
  const scenarios = pick('native', [...kept, ...healedByDefaults]);
  let run: SessionRun;

  beforeAll(async () => {
    run = await runSession({
      mode: 'native',
      plugin: true,
      label: 'config-no-hints',
      patch: NO_HINTS_OVERLAY,
      steps: scenarioScript(scenarios),
      workspaceFixtures: scenarioFixtures,
    });
  });

  it('boots and plays the script (a valid override loads)', () => {
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
  });

  it.each(kept)('%s: the unhealed error reaches the model byte-identical to the host text, no Hint line', (id) => {
    const message = seen(run, id);
    expect(message.isError).toBe(true);
    expect(message.content).toBe(hostText(byId(scenarios, id), run));
    expect(message.content).not.toContain('Hint:');
  });

  it.each(healedByDefaults)('%s: the options left out keep their default (still healed in one round-trip)', (id) => {
    const message = seen(run, id);
    expect(message.isError, message.content).toBe(false);
    expect(message.content).not.toBe(hostText(byId(scenarios, id), run));
  });

  it('injectPrompt keeps its default: the guidance section is in the system prompt', () => {
    expect(systemPromptOf(run)).toContain('Tool call hygiene');
  });
});

describe('autoWrapRunCode: false set by the user (--patch), Code Mode', () => {
  const notHealed = ['c_a_command_instead_of_code', 'c_b_no_description', 'c_g_markdown_fence'];
  const scenarios = pick('code', [...notHealed, 'c_c_direct_read', 'c_g_ts_enum']);
  let run: SessionRun;

  beforeAll(async () => {
    run = await runSession({
      mode: 'code',
      plugin: true,
      label: 'config-no-wrap',
      patch: NO_RUN_CODE_WRAP_OVERLAY,
      steps: scenarioScript(scenarios),
      workspaceFixtures: scenarioFixtures,
    });
  });

  it('boots and plays the script (a valid override loads)', () => {
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
  });

  it('a run_code {command} call is not healed: the model sees the host INVALID_ARGS text first', () => {
    const scenario = byId(scenarios, 'c_a_command_instead_of_code');
    const message = seen(run, scenario.id);
    expect(message.isError).toBe(true);
    const host = hostText(scenario, run);
    expect(host).toContain('invalid arguments: missing required property "code"');
    // errorHints is left at its default (true), so one hint may follow the host's own text, nothing else.
    expect(message.content === host || message.content!.startsWith(`${host}\nHint: `), message.content).toBe(true);
    expect(message.content!.match(/\bHint:/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it.each(['c_b_no_description', 'c_g_markdown_fence'])(
    '%s: the other run_code repairs are off too (error kept)',
    (id) => {
      const message = seen(run, id);
      expect(message.isError, message.content).toBe(true);
      const scenario = byId(scenarios, id);
      // The host's first line (stack-frame lines after it are trimmed by trimStackTraces, on by default).
      const host = (scenario.withoutPlugin.exact ?? scenario.withoutPlugin.startsWith ?? '')
        .replaceAll('{{ws}}', run.workspace)
        .split('\n')[0]!;
      expect(host).toMatch(/^Error: invalid|^Error: code run failed/);
      expect(message.content!.split('\n')[0]).toBe(host);
    },
  );

  it('autoBridgeDirectTools keeps its default: a direct read is still bridged into run_code and succeeds', () => {
    const message = seen(run, 'c_c_direct_read');
    expect(message.isError, message.content).toBe(false);
    expect(message.content).toContain('line 1');
  });

  it('errorHints keeps its default: an unhealable error gets the host text plus exactly one hint', () => {
    const scenario = byId(scenarios, 'c_g_ts_enum');
    const message = seen(run, scenario.id);
    expect(message.content!.startsWith(`${hostText(scenario, run)}\nHint: `), message.content).toBe(true);
    expect(message.content!.match(/\bHint:/g)).toHaveLength(1);
  });
});

describe('the tui profile (rc.8: dsh-base plus the plugin, no terminal UI of its own)', () => {
  it('dsh plugin --profile tui add -w registered the plugin bundle: its row is in the composed tui tree', async () => {
    const { install, dshHome } = await ensureProfile('plugin', 'tui');
    const manifest = JSON.parse(fs.readFileSync(path.join(dshHome, 'profiles', 'tui', 'package.json'), 'utf8')) as {
      dsh?: { profile?: { bundles?: string[] } };
    };
    expect(manifest.dsh?.profile?.bundles).toEqual(['@deepseek-ai/dsh-base', 'dsh-tool-normalizer']);
    const result = await runCommand(install.nodeBin, [install.dshEntry, '--profile', 'tui', '--dump-config'], {
      step: 'dsh --profile tui --dump-config',
      env: dshEnvironment(install, dshHome),
      cwd: dshHome,
      timeoutMs: 60_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      '- id: tool-normalizer\n  name: dsh-tool-normalizer\n  config:\n    autoWrapRunCode: true',
    );
  });

  it('an invalid value in the profile user layer (profiles/tui/cordis.patch.yml) fails `dsh --profile tui` with exit 1, naming the option', async () => {
    const { install, dshHome } = await ensureProfile('plugin', 'tui');
    const userLayer = path.join(dshHome, 'profiles', 'tui', 'cordis.patch.yml');
    const original = fs.readFileSync(userLayer, 'utf8');
    fs.writeFileSync(userLayer, INVALID_OVERLAY);
    let result: Awaited<ReturnType<typeof runCommand>>;
    try {
      // Exactly what a user types; with a valid config this profile would boot and idle (it has no app), so the
      // timeout is the "no hang" bound and must not be reached.
      result = await runCommand(install.nodeBin, [install.dshEntry, '--profile', 'tui'], {
        step: 'dsh --profile tui (invalid user layer)',
        env: dshEnvironment(install, dshHome, {
          DEEPSEEK_BASE_URL: 'http://127.0.0.1:9',
          DEEPSEEK_API_KEY: 'sk-dsh-lab-scripted',
        }),
        cwd: dshHome,
        timeoutMs: 90_000,
      });
    } finally {
      fs.writeFileSync(userLayer, original);
    }
    expect(result.timedOut).toBe(false);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toContain('dsh: plugin tree failed to load');
    expect(result.stderr).toContain('tool-normalizer: option "autoWrapRunCode" must be a boolean, got string "yes"');
  });

  describe('its plugin tree played by the scripted model (Code Mode)', () => {
    const scenarios = pick('code', ['c_a_command_instead_of_code', 'c_c_direct_read', 'c_ok_inner_calls']);
    let run: SessionRun;

    beforeAll(async () => {
      expect(TUI_SCRIPTED_DRIVER_PATCH).toContain("name: '@deepseek-ai/dsh-headless'");
      run = await runSession({
        mode: 'code',
        plugin: true,
        profile: 'tui',
        label: 'config-tui',
        steps: scenarioScript(scenarios),
        workspaceFixtures: scenarioFixtures,
      });
    });

    it('boots the tui profile with the plugin and plays the script (exit 0)', () => {
      expect(run.timedOut, run.stderr).toBe(false);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.requests.filter((r) => r.isAgent)).toHaveLength(scenarios.length + 1);
    });

    it('the plugin prompt section is in the system prompt', () => {
      expect(systemPromptOf(run)).toContain('Tool call hygiene');
    });

    it.each(['c_a_command_instead_of_code', 'c_c_direct_read'])('%s is healed in one round-trip', (id) => {
      const scenario = byId(scenarios, id);
      const message = seen(run, id);
      expect(message.content).not.toBe(hostText(scenario, run));
      expect(checkModelSees(message.content, scenario.withPlugin, run.workspace)).toEqual([]);
      expect(message.isError).toBe(false);
    });

    it('a valid call passes through unchanged', () => {
      const scenario = byId(scenarios, 'c_ok_inner_calls');
      expect(checkModelSees(seen(run, scenario.id).content, scenario.withPlugin, run.workspace)).toEqual([]);
    });
  });
});
