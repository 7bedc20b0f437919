/**
 * The real-host tier WITH the plugin: the meta-package `dsh-tool-normalizer` is built (bundle) and installed the
 * way users install a local plugin (`dsh plugin --profile headless add -w <dir>`), then the real DSH 0.1.0-rc.8
 * headless is booted once per mode and plays every captured scenario against the scripted model.
 *
 * For each scenario it asserts what the model sees after its FIRST call: every class the design calls healable
 * is a success in that one round-trip (no corrected call needed), pass-through calls are untouched, and the
 * rest keep the host's original error text first, followed by at most one hint. A before/now table (the
 * captured host error vs what the model sees with the plugin) is written to `artifacts/plugin-scenarios-<mode>.md`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkModelSees,
  ensureBuiltPlugin,
  repoRoot,
  runSession,
  scenarioFixtures,
  scenarioScript,
  scenariosFor,
  sessionToolResults,
  type Scenario,
  type SessionRun,
  type ToolsMode,
} from '../src/index.js';

const HINTS = /\bHint:/g;

/** A fake credential in a healable call: the plugin's log and stats must never hold it verbatim. */
const SECRET = 'sk-live-TESTSECRET0123456789abcdef';
const SECRET_CALL_ID = 'x_secret_in_arguments';

/** The scenario script plus one healable call whose arguments carry a credential (before the final text turn). */
function scriptWithSecret(mode: ToolsMode, scenarios: readonly Scenario[]) {
  const steps = scenarioScript(scenarios);
  const command = `echo "Authorization: Bearer ${SECRET}" > /dev/null; echo sent`;
  const call =
    mode === 'native'
      ? { id: SECRET_CALL_ID, name: 'bash', arguments: JSON.stringify({ command }) }
      : { id: SECRET_CALL_ID, name: 'run_code', arguments: JSON.stringify({ command }) };
  steps.splice(steps.length - 1, 0, { toolCalls: [call] });
  return steps;
}

function firstLine(text: string | undefined): string {
  const line = (text ?? '(no answer)').split('\n')[0] ?? '';
  return (line.length > 110 ? `${line.slice(0, 107)}...` : line).replaceAll('|', '\\|');
}

function writeReport(mode: ToolsMode, scenarios: readonly Scenario[], run: SessionRun): void {
  const rows = scenarios.map((scenario) => {
    const message = run.toolMessages.find((m) => m.callId === scenario.id);
    const before =
      scenario.withoutPlugin.exact ??
      scenario.withoutPlugin.startsWith ??
      (scenario.withoutPlugin.isError ? 'error' : 'success');
    const now = (message?.content ?? '').replaceAll(run.workspace, '{{ws}}');
    return `| ${scenario.id} | ${scenario.category} | ${scenario.withPlugin.outcome} | ${firstLine(before)} | ${message?.isError ? 'error' : 'success'}: ${firstLine(now)} |`;
  });
  const dir = path.join(repoRoot, 'artifacts');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, `plugin-scenarios-${mode}.md`),
    [
      `# Real DSH rc.8 headless, ${mode} mode, with dsh-tool-normalizer`,
      '',
      '| scenario | category | expected | model saw before (host) | model sees now |',
      '|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

describe.each<ToolsMode>(['native', 'code'])('real DSH headless, %s mode, with the plugin installed', (mode) => {
  const scenarios = scenariosFor(mode);
  let run: SessionRun;

  beforeAll(async () => {
    await ensureBuiltPlugin();
    run = await runSession({
      mode,
      plugin: true,
      label: 'plugin',
      steps: scriptWithSecret(mode, scenarios),
      workspaceFixtures: scenarioFixtures,
    });
    writeReport(mode, scenarios, run);
  });

  it('boots with the plugin, plays the whole script and exits 0', () => {
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.toolMessages.map((m) => m.callId)).toEqual(expect.arrayContaining(scenarios.map((s) => s.id)));
  });

  it('ran on the installed rc.8, which accepts Code Mode only as `code` (the name dsh-profile gives the lab)', () => {
    expect(run.dshVersion).toBe('0.1.0-rc.8');
    expect(run.codeMode?.env).toEqual(mode === 'code' ? { DSH_TOOLS_MODE: 'code' } : undefined);
  });

  it('costs no extra model round-trip: one request per scripted call, plus the final text turn', () => {
    expect(run.requests.filter((r) => r.isAgent)).toHaveLength(run.toolMessages.length + 1);
  });

  it('adds its static guidance section to the system prompt', () => {
    const system = run.requests.find((r) => r.isAgent)?.body.messages?.find((m) => m.role === 'system');
    expect(JSON.stringify(system?.content ?? '')).toContain('Tool call hygiene');
  });

  it.each(scenarios.map((s) => [s.id, s.withPlugin.outcome, s] as const))('%s (%s)', (_id, outcome, scenario) => {
    const message = run.toolMessages.find((m) => m.callId === scenario.id);
    expect(message, 'the scenario call was played').toBeDefined();
    expect(checkModelSees(message?.content, scenario.withPlugin, run.workspace)).toEqual([]);
    if (outcome === 'healed') expect(message?.isError).toBe(false);
    if (outcome === 'kept-error') expect((message?.content ?? '').match(HINTS)?.length ?? 0).toBeLessThanOrEqual(1);
    if (outcome === 'pass-through' && scenario.withoutPlugin.exact !== undefined) {
      expect(message?.content).toBe(scenario.withoutPlugin.exact.replaceAll('{{ws}}', run.workspace));
    }
    // DSH's own durable log records the same outcome the model saw.
    expect(sessionToolResults(run.sessionEvents).get(scenario.id)?.isError).toBe(message?.isError);
  });

  it('records every healed call in its event log with tokens saved measured by the host token meter', () => {
    expect(run.eventLogPath, 'the plugin wrote its JSONL log under DSH_HOME').toBeDefined();
    const events = fs
      .readFileSync(run.eventLogPath!, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { callId?: string; outcome: string; tokensSaved: number; at?: number });
    const healedIds = scenarios.filter((s) => s.withPlugin.outcome === 'healed').map((s) => s.id);
    for (const id of healedIds) {
      const event = events.find(
        (e) => e.callId === id && e.outcome === 'healed-success' && (e.at ?? 0) >= run.startedAt,
      );
      expect(event, id).toBeDefined();
      expect(event!.tokensSaved, id).toBeGreaterThan(0);
    }
  });

  it('heals a call carrying a credential without storing the credential', () => {
    const message = run.toolMessages.find((m) => m.callId === SECRET_CALL_ID);
    expect(message?.isError).toBe(false);
    expect(message?.content).toContain('sent');
    const log = fs.readFileSync(run.eventLogPath!, 'utf8');
    expect(log).toContain(SECRET_CALL_ID);
    expect(log).not.toContain(SECRET);
    // The store's database and its WAL, as raw bytes.
    expect(run.databasePath, 'the plugin opened its SQLite store under DSH_HOME').toBeDefined();
    for (const file of [run.databasePath!, `${run.databasePath}-wal`]) {
      if (fs.existsSync(file)) expect(fs.readFileSync(file).includes(Buffer.from(SECRET)), file).toBe(false);
    }
  });
});
