/**
 * The session analyzer's counterfactual against what really happened: the same scripted session is played in
 * the real DSH 0.1.0-rc.8 twice, without and with dsh-tool-normalizer installed. The analyzer reads the session
 * log DSH wrote for the run WITHOUT the plugin (zstd, as DSH stores it) and predicts, call by call, which failed
 * calls the current rules heal or recover; the run WITH the plugin says which ones really came back as a success.
 * The two lists must be the same. The analyzer must also recognise the plugin run as a plugin session (its
 * repaired calls and the receipts in the plugin's event log) and count the same heals there.
 * Sessions: the demo's Code-Mode coding session and the native scenario catalogue. Runs on Node >= 22.15 (zstd).
 */
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeSessions } from '@dsh-tool-normalizer/session-analyzer/node';
import type { SessionAnalysis } from '@dsh-tool-normalizer/session-analyzer';
import { demoFixtures, demoScript, demoTask } from '../src/demo-session.js';
import {
  findSessionLogs,
  pluginStatus,
  runSession,
  scenarioFixtures,
  scenarioScript,
  scenariosFor,
  sessionToolResults,
  type SessionRun,
  type ToolsMode,
} from '../src/index.js';
import type { ScriptStep } from '../src/scripted-model.js';

const status = pluginStatus();
/** DSH stores sessions zstd-compressed; the analyzer reads them with Node's built-in zstd (Node >= 22.15, like DSH). */
const hasZstd = typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function';

/** The zstd session log DSH itself wrote for this run (its folder is named after the run's workspace). */
function sessionLogOf(run: SessionRun): string {
  const logs = findSessionLogs(run.dshHome, run.startedAt).filter((file) => file.includes(path.basename(run.runDir)));
  expect(logs, `session log of ${run.runDir}`).toHaveLength(1);
  return logs[0] as string;
}

async function analyze(run: SessionRun, withReceipts: boolean): Promise<SessionAnalysis> {
  const { sessions, report } = await analyzeSessions({
    files: [sessionLogOf(run)],
    keepSessions: true,
    ...(withReceipts && run.eventLogPath ? { eventLog: run.eventLogPath } : {}),
  });
  expect(report.skipped).toEqual([]);
  return sessions[0] as SessionAnalysis;
}

interface Pair {
  without: SessionRun;
  with: SessionRun;
}

async function playBoth(
  label: string,
  mode: ToolsMode,
  steps: ScriptStep[],
  fixtures: Record<string, string>,
  task?: string,
): Promise<Pair> {
  const session = { mode, steps, workspaceFixtures: fixtures, label, ...(task ? { task } : {}) };
  const without = await runSession({ ...session, plugin: false });
  const withPlugin = await runSession({ ...session, plugin: true });
  for (const run of [without, withPlugin]) expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
  return { without, with: withPlugin };
}

/** Call ids that failed without the plugin and succeeded, in the same call, with it. */
function reallyHealed(pair: Pair): string[] {
  const without = sessionToolResults(pair.without.sessionEvents);
  const withPlugin = sessionToolResults(pair.with.sessionEvents);
  return [...without.values()]
    .filter((result) => result.isError && withPlugin.get(result.callId)?.isError === false)
    .map((result) => result.callId)
    .sort();
}

const predicted = (analysis: SessionAnalysis) =>
  analysis.failures
    .filter((failure) => failure.outcome === 'healed' || failure.outcome === 'recovered')
    .map((failure) => failure.callId)
    .sort();

describe.skipIf(!status.available || !hasZstd)('session analyzer vs the real plugin (real DSH)', () => {
  const cases: [string, () => Promise<Pair>][] = [
    ['demo session (Code Mode)', () => playBoth('analyzer-demo', 'code', demoScript(), { ...demoFixtures }, demoTask)],
    [
      'native scenario catalogue',
      () => playBoth('analyzer-native', 'native', scenarioScript(scenariosFor('native')), { ...scenarioFixtures }),
    ],
  ];

  for (const [name, play] of cases) {
    describe(name, () => {
      let pair: Pair;
      let plain: SessionAnalysis;
      let plugged: SessionAnalysis;

      beforeAll(async () => {
        pair = await play();
        plain = await analyze(pair.without, false);
        plugged = await analyze(pair.with, true);
      });

      it('predicts, call by call, exactly the failures the plugin really healed or recovered', () => {
        const truth = reallyHealed(pair);
        expect(truth.length).toBeGreaterThan(2);
        const rows = plain.failures.map((failure) => `${failure.callId}: ${failure.outcome} ${failure.ruleId ?? ''}`);
        expect(predicted(plain), rows.join('\n')).toEqual(truth);
        // the failures it does not predict as healed really stayed errors with the plugin
        const withPlugin = sessionToolResults(pair.with.sessionEvents);
        for (const failure of plain.failures.filter(
          (item) => !truth.includes(item.callId) && withPlugin.has(item.callId),
        ))
          expect(withPlugin.get(failure.callId)?.isError, failure.callId).toBe(true);
      });

      it('counts the session the way DSH logged it and costs every failure from recorded usage', () => {
        const results = sessionToolResults(pair.without.sessionEvents);
        expect(plain.toolCalls).toBe(results.size);
        expect(plain.errors).toBe([...results.values()].filter((result) => result.isError).length);
        expect(plain.toolsRecorded).toBe(true);
        for (const failure of plain.failures) {
          expect(failure.outcome).not.toBe('unknown');
          expect(failure.cost.source, failure.callId).toBe('measured');
          expect(failure.cost.uncachedInput + failure.cost.cacheRead + failure.cost.cacheWrite).toBeGreaterThan(1000);
        }
      });

      it('recognises the run with the plugin as a plugin session, with the same heals', () => {
        expect(plain.plugin).toBeUndefined();
        expect(plugged.plugin).toBeDefined();
        expect([...(plugged.plugin?.healedCallIds ?? [])].sort()).toEqual(reallyHealed(pair));
        expect(plugged.errors).toBe(plain.errors - reallyHealed(pair).length);
      });
    });
  }
});
