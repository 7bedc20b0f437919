/**
 * The host's record stays whole with the plugin (real DSH 0.1.0-rc.8 headless, native and Code Mode): the same
 * scripted session is played without and with the plugin installed, and DSH's own decompressed session log is
 * compared. For every call that fails in both runs, the `tool/result` event carries the same `error` object (code,
 * name) in both, and the plugin's text is the host's text with only this appended: one `Hint:` line (and, for a
 * refused `write`, the file as `read` shows it before the hint). The only other difference allowed is stack-frame
 * lines removed (or shortened to the program's line) by `trimStackTraces`, checked line by line. The comparison is
 * written to `artifacts/plugin-host-record-<mode>.md`.
 *
 * With `errorHints` and `trimStackTraces` off (every recovery switch on, `breakLoops` on), the same script plus an
 * identical failing call sent three times is played again: every call that fails with the plugin is byte-identical
 * to the run without it (the `tool/result` error object and the text), the refused `write` included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ensureBuiltPlugin,
  repoRoot,
  runSession,
  scenarioFixtures,
  scenarioScript,
  scenariosFor,
  type ScriptStep,
  type SessionEvent,
  type SessionRun,
  type ToolsMode,
} from '../src/index.js';

interface RecordedResult {
  callId: string;
  isError: boolean;
  error: unknown;
  text: string;
}

/** Every top-level `tool/result` of a session log, by call id, with the workspace path replaced by `{{ws}}`. */
function toolResults(events: readonly SessionEvent[], workspace: string, dshHome: string): Map<string, RecordedResult> {
  const results = new Map<string, RecordedResult>();
  for (const event of events) {
    if (event.type !== 'tool/result') continue;
    const data = event.data as
      | {
          message?: { source?: { callId?: string }; content?: { isError?: boolean; content?: { text?: string }[] }[] };
          error?: unknown;
        }
      | undefined;
    const callId = data?.message?.source?.callId;
    const block = data?.message?.content?.[0];
    if (!callId || !block || results.has(callId)) continue;
    const text = (block.content ?? []).map((part) => part.text ?? '').join('');
    results.set(callId, {
      callId,
      isError: block.isError === true,
      error: data?.error,
      text: text.replaceAll(workspace, '{{ws}}').replaceAll(dshHome, '{{home}}'),
    });
  }
  return results;
}

const FRAME = /^\s+at /;
const PROGRAM_FRAME = /^\s+at run_code program line \d+, column \d+$/;

/**
 * True when `ours` is `plain` with some stack-frame lines removed and program frames shortened, nothing else:
 * every line of `ours` appears in `plain` in order, and every skipped line of `plain` is a frame.
 */
function onlyFramesTrimmed(plain: string, ours: string): boolean {
  const plainLines = plain.split('\n');
  let index = 0;
  for (const line of ours.split('\n')) {
    while (index < plainLines.length && plainLines[index] !== line) {
      const skipped = plainLines[index] as string;
      if (!FRAME.test(skipped)) return false;
      if (PROGRAM_FRAME.test(line) && skipped.includes('<anonymous>:')) break;
      index += 1;
    }
    if (index >= plainLines.length) return false;
    index += 1;
  }
  return plainLines.slice(index).every((line) => FRAME.test(line));
}

describe.each<ToolsMode>(['native', 'code'])(
  'real DSH headless, %s mode: the session log keeps the host error',
  (mode) => {
    const scenarios = scenariosFor(mode);
    let plain: SessionRun;
    let withPlugin: SessionRun;
    let plainResults: Map<string, RecordedResult>;
    let pluginResults: Map<string, RecordedResult>;

    beforeAll(async () => {
      await ensureBuiltPlugin();
      const steps = scenarioScript(scenarios);
      plain = await runSession({ mode, plugin: false, label: 'record', steps, workspaceFixtures: scenarioFixtures });
      withPlugin = await runSession({
        mode,
        plugin: true,
        label: 'record',
        steps,
        workspaceFixtures: scenarioFixtures,
      });
      plainResults = toolResults(plain.sessionEvents, plain.workspace, plain.dshHome);
      pluginResults = toolResults(withPlugin.sessionEvents, withPlugin.workspace, withPlugin.dshHome);
    });

    it('both runs play the whole script and exit 0', () => {
      for (const run of [plain, withPlugin]) {
        expect(run.timedOut, run.stderr).toBe(false);
        expect(run.exitCode, run.stderr).toBe(0);
      }
      expect([...pluginResults.keys()]).toEqual(expect.arrayContaining(scenarios.map((s) => s.id)));
    });

    it('every call that fails in both runs has the same error object, and only appended text (or trimmed frames) differs', () => {
      const failedInBoth = [...plainResults.values()].filter(
        (result) => result.isError && pluginResults.get(result.callId)?.isError,
      );
      expect(failedInBoth.length).toBeGreaterThanOrEqual(mode === 'native' ? 8 : 6);
      // Not vacuous: most of these carry a host code, and most gained a hint.
      expect(
        failedInBoth.filter((result) => (result.error as { code?: string } | undefined)?.code !== undefined).length,
      ).toBeGreaterThanOrEqual(mode === 'native' ? 6 : 5);
      let hinted = 0;
      const problems: string[] = [];
      for (const host of failedInBoth) {
        const ours = pluginResults.get(host.callId)!;
        if (JSON.stringify(ours.error) !== JSON.stringify(host.error))
          problems.push(`${host.callId}: error ${JSON.stringify(ours.error)} != host ${JSON.stringify(host.error)}`);
        const lines = ours.text.split('\n');
        const last = lines.at(-1) ?? '';
        const hint = last.startsWith('Hint: ') ? last : undefined;
        if (hint !== undefined) hinted += 1;
        const body = hint === undefined ? ours.text : lines.slice(0, -1).join('\n');
        if ((ours.text.match(/\nHint: /g) ?? []).length > 1) problems.push(`${host.callId}: more than one hint`);
        if (host.callId === 'n_e_write_unread') {
          // The refused write: the host's text, then the file as read shows it, then the hint.
          if (!body.startsWith(`${host.text}\n<path>{{ws}}/existing_write.txt</path>`) || !body.includes('1: alpha'))
            problems.push(`${host.callId}: ${JSON.stringify(ours.text)}`);
          continue;
        }
        if (body !== host.text && !onlyFramesTrimmed(host.text, body))
          problems.push(`${host.callId}: ${JSON.stringify(host.text)} -> ${JSON.stringify(ours.text)}`);
      }
      const rows = failedInBoth.map((host) => {
        const ours = pluginResults.get(host.callId)!;
        const added = ours.text.startsWith(host.text)
          ? ours.text.slice(host.text.length).trim()
          : '(frames trimmed) ' + (ours.text.split('\n').at(-1) ?? '');
        const cell = (text: string) =>
          (text.length > 90 ? `${text.slice(0, 87)}...` : text).replaceAll('|', '\\|').replaceAll('\n', ' ');
        return `| ${host.callId} | ${JSON.stringify(host.error ?? null)} | ${JSON.stringify(ours.error ?? null) === JSON.stringify(host.error ?? null) ? 'same' : 'DIFFERENT'} | ${cell(host.text.split('\n')[0] ?? '')} | ${cell(added)} |`;
      });
      fs.mkdirSync(path.join(repoRoot, 'artifacts'), { recursive: true });
      fs.writeFileSync(
        path.join(repoRoot, 'artifacts', `plugin-host-record-${mode}.md`),
        [
          `# DSH session log, ${mode} mode: calls failing without and with the plugin`,
          '',
          `${failedInBoth.length} calls, ${hinted} with a hint.`,
          '',
          '| call | host error object | with plugin | host text (first line) | appended by the plugin |',
          '|---|---|---|---|---|',
          ...rows,
          '',
        ].join('\n'),
      );
      expect(problems).toEqual([]);
      expect(hinted).toBeGreaterThanOrEqual(3);
    });

    it('errors the plugin leaves without a hint are byte-identical to the host (apart from trimmed frames)', () => {
      for (const host of plainResults.values()) {
        const ours = pluginResults.get(host.callId);
        if (!host.isError || !ours?.isError || ours.text.includes('\nHint: ')) continue;
        expect(ours.text === host.text || onlyFramesTrimmed(host.text, ours.text), host.callId).toBe(true);
      }
    });
  },
);

/** The same failing call, sent three times in a row (loop detection is on; with errorHints off it must stay silent). */
function repeatedFailure(mode: ToolsMode): ScriptStep[] {
  const missing = '{{ws}}/missing_repeat.txt';
  const once = (n: number): ScriptStep =>
    mode === 'native'
      ? { toolCalls: [{ id: `repeat_${n}`, name: 'read', arguments: JSON.stringify({ file_path: missing }) }] }
      : {
          toolCalls: [
            {
              id: `repeat_${n}`,
              name: 'run_code',
              arguments: JSON.stringify({
                code: `return await tools.read({ file_path: '${missing}' });`,
                description: 'Read a missing file',
              }),
            },
          ],
        };
  return [once(1), once(2), once(3)];
}

describe.each<ToolsMode>(['native', 'code'])(
  'real DSH headless, %s mode: errorHints and trimStackTraces off',
  (mode) => {
    const scenarios = scenariosFor(mode);
    let plainResults: Map<string, RecordedResult>;
    let offResults: Map<string, RecordedResult>;
    let runs: SessionRun[];

    beforeAll(async () => {
      await ensureBuiltPlugin();
      const script = scenarioScript(scenarios);
      const steps = [...script.slice(0, -1), ...repeatedFailure(mode), ...script.slice(-1)];
      const plain = await runSession({
        mode,
        plugin: false,
        label: 'record-off',
        steps,
        workspaceFixtures: scenarioFixtures,
      });
      const off = await runSession({
        mode,
        plugin: true,
        label: 'record-off',
        steps,
        workspaceFixtures: scenarioFixtures,
        patch: '- id: tool-normalizer\n  config: {errorHints: false, trimStackTraces: false}\n',
      });
      runs = [plain, off];
      plainResults = toolResults(plain.sessionEvents, plain.workspace, plain.dshHome);
      offResults = toolResults(off.sessionEvents, off.workspace, off.dshHome);
    });

    it('both runs play the whole script and exit 0', () => {
      for (const run of runs) {
        expect(run.timedOut, run.stderr).toBe(false);
        expect(run.exitCode, run.stderr).toBe(0);
      }
      expect([...offResults.keys()]).toEqual(
        expect.arrayContaining([...scenarios.map((s) => s.id), 'repeat_1', 'repeat_2', 'repeat_3']),
      );
    });

    it('every error the model sees is exactly the host error (object and text); calls only ever get healed, never broken', () => {
      const problems: string[] = [];
      let failedInBoth = 0;
      for (const host of plainResults.values()) {
        const ours = offResults.get(host.callId);
        if (!ours) {
          problems.push(`${host.callId}: missing with the plugin`);
          continue;
        }
        if (!host.isError && ours.isError)
          problems.push(`${host.callId}: succeeded without the plugin, failed with it`);
        if (!host.isError || !ours.isError) continue;
        failedInBoth += 1;
        if (JSON.stringify(ours.error) !== JSON.stringify(host.error))
          problems.push(`${host.callId}: error ${JSON.stringify(ours.error)} != host ${JSON.stringify(host.error)}`);
        if (ours.text !== host.text)
          problems.push(`${host.callId}: ${JSON.stringify(host.text)} -> ${JSON.stringify(ours.text)}`);
      }
      expect(problems).toEqual([]);
      // Not vacuous: the refused write (native) and the three identical failures are among the compared calls.
      expect(failedInBoth).toBeGreaterThanOrEqual(mode === 'native' ? 9 : 7);
      for (const id of ['repeat_1', 'repeat_2', 'repeat_3', ...(mode === 'native' ? ['n_e_write_unread'] : [])]) {
        expect(plainResults.get(id)?.isError, id).toBe(true);
        expect(offResults.get(id)?.text, id).toBe(plainResults.get(id)?.text);
      }
      expect([...offResults.values()].filter((result) => result.text.includes('\nHint: '))).toEqual([]);
    });
  },
);
