/**
 * The real-host tier, baseline: boots the real DSH 0.1.0-rc.8 headless once per mode WITHOUT the plugin,
 * plays every scenario in that one session, and asserts that the model saw exactly the host's own captured
 * errors, and that DSH's durable session log agrees (same text, same error code). This is what the plugin
 * must beat (its with-plugin counterpart lives in tests/plugin-*.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  capturedErrorCodes,
  checkModelSees,
  runSession,
  scenarioFixtures,
  scenarioScript,
  scenariosFor,
  sessionToolResults,
  type SessionRun,
  type ToolsMode,
} from '../src/index.js';

describe.each<ToolsMode>(['native', 'code'])('real DSH headless, %s mode, without the plugin', (mode) => {
  const scenarios = scenariosFor(mode);
  let run: SessionRun;

  beforeAll(async () => {
    run = await runSession({
      mode,
      plugin: false,
      label: 'baseline',
      steps: scenarioScript(scenarios),
      workspaceFixtures: scenarioFixtures,
    });
  });

  it('boots, plays the whole script against the scripted model and exits 0', () => {
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    const played = run.toolMessages.map((m) => m.callId);
    expect(played).toEqual(expect.arrayContaining(scenarios.map((s) => s.id)));
    // one model round-trip per scripted call, plus the final text turn
    expect(run.requests.filter((r) => r.isAgent)).toHaveLength(run.toolMessages.length + 1);
  });

  it('presents the tools of the mode to the model', () => {
    const names = run.requests.find((r) => r.isAgent)!.body.tools!.map((t) => t.function.name);
    if (mode === 'code') expect(names).toEqual(['run_code']);
    else expect(names).toEqual(expect.arrayContaining(['bash', 'read', 'edit', 'write', 'str_replace_editor']));
  });

  it.each(scenarios.map((s) => [s.id, s] as const))('%s: the model sees the host baseline', (_id, scenario) => {
    const message = run.toolMessages.find((m) => m.callId === scenario.id);
    expect(checkModelSees(message?.content, scenario.withoutPlugin, run.workspace)).toEqual([]);
    const recorded = sessionToolResults(run.sessionEvents).get(scenario.id);
    expect(recorded?.text).toBe(message?.content);
    expect(recorded?.isError).toBe(scenario.withoutPlugin.isError);
    expect(recorded?.code).toBe(capturedErrorCodes[scenario.id]);
  });
});
