/**
 * Session log formats 0, 3 and 4 and both Code-Mode sub-call vocabularies (`tool/code-dispatch`, `tool/ptc-dispatch`):
 * one table-driven suite over fixtures written after the public type definitions (tests/fixtures/log-formats.ts
 * names the sources). Each log is zstd-compressed and read from disk like a real one. The same story must give the
 * same census, predictions and cost in every format, and with either sub-call event name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionAnalysis } from '../src/index.js';
import { analyzeFile, findSessionFiles } from '../src/node.js';
import { LOG_FORMAT_FIXTURES, withSubCallEvent } from './fixtures/log-formats.js';
import { compress, hasZstd, tempDir } from './support.js';

const toText = (lines: readonly object[]) => `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;

describe.skipIf(!hasZstd)('session log formats', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('formats');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function analyse(name: string, lines: readonly object[]): Promise<SessionAnalysis> {
    const file = path.join(dir, name, 'session.jsonl.zstd');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, compress(toText(lines)));
    const result = await analyzeFile(file);
    if ('skipped' in result) throw new Error(`skipped: ${result.skipped}`);
    return result;
  }

  describe.each(LOG_FORMAT_FIXTURES.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    it('names its source (repository, path, commit)', () => {
      expect(fixture.source.repo).toMatch(/^[\w-]+\/[\w.-]+$/);
      expect(fixture.source.commit).toMatch(/^[0-9a-f]{10,40}$/);
      expect(fixture.lines[0]).toMatchObject({ type: 'session', version: fixture.format });
    });

    for (const event of ['tool/code-dispatch', 'tool/ptc-dispatch'] as const) {
      it(`reads calls, results, sub-calls (${event}) and the release`, async () => {
        const session = await analyse(`${fixture.format}-${event.replace('/', '-')}`, withSubCallEvent(fixture, event));
        expect(session.format).toBe(fixture.format);
        expect(session.release).toContain(`log format ${fixture.format}`);
        expect(session).toMatchObject({ toolCalls: 3, toolResults: 3, errors: 3, subCalls: 1, subCallErrors: 1 });
        expect(session.toolsRecorded).toBe(true);
        expect(session.models).toEqual(['deepseek-v4-flash']);
        const byCall = Object.fromEntries(session.failures.map((failure) => [failure.callId, failure]));
        // the bash call without its required description: healed before dispatch (the error names the field)
        expect(byCall['c-bash']).toMatchObject({
          outcome: 'healed',
          ruleId: 'args.fill-description',
          basis: 'recorded-tools',
        });
        // the program's inner edit before a read: the SDK in the prompt gives the inner schemas; observe then retry
        expect(byCall['c-code']).toMatchObject({
          outcome: 'recovered',
          ruleId: 'recover.observe-then-retry',
          innerTool: 'edit',
        });
        // a policy denial: no rule applies
        expect(byCall['c-deny']).toMatchObject({ outcome: 'nothing', code: undefined });
        // each failure points at the line of its tool/result
        for (const failure of session.failures)
          expect(fixture.lines[failure.line - 1]).toMatchObject({ type: 'tool/result' });
      });
    }

    it('charges the three failures the next request, split by billing kind (an injected message is not a new turn)', async () => {
      const session = await analyse(`${fixture.format}-cost`, fixture.lines);
      const sum = (key: 'uncachedInput' | 'cacheRead') =>
        session.failures.reduce((total, failure) => total + failure.cost[key], 0);
      for (const failure of session.failures) expect(failure.cost.source).toBe('measured');
      expect(sum('uncachedInput')).toBe(300);
      expect(sum('cacheRead')).toBe(5100);
      expect(Object.keys(session.byDay)).toEqual(['2026-10-12']);
    });
  });

  it("finds 0.1.5's session.v3.jsonl.zstd next to rc.8's session.jsonl.zstd", () => {
    const root = path.join(dir, 'discovery');
    for (const [folder, name] of [
      ['a', 'session.jsonl.zstd'],
      ['b', 'session.v3.jsonl.zstd'],
    ] as const) {
      fs.mkdirSync(path.join(root, folder), { recursive: true });
      fs.writeFileSync(path.join(root, folder, name), compress('{}\n'));
    }
    expect(findSessionFiles(root).map((file) => path.relative(root, file))).toEqual([
      path.join('a', 'session.jsonl.zstd'),
      path.join('b', 'session.v3.jsonl.zstd'),
    ]);
  });

  it('a new message from the user is a new turn: the failures before it are not charged its request', async () => {
    const fixture = LOG_FORMAT_FIXTURES[2];
    if (!fixture) throw new Error('no format-4 fixture');
    const lines = fixture.lines.map((line) =>
      line.type === 'user/message' && JSON.stringify(line).includes('a.txt changed')
        ? { ...line, data: { ...(line.data as object), source: { kind: 'user' } } }
        : line,
    );
    const session = await analyse('new-turn', lines);
    for (const failure of session.failures)
      expect(failure.cost).toMatchObject({ source: 'new-user-turn', cacheRead: 0 });
  });

  it('a log of a format it does not know is still read, with no stand-in schemas', async () => {
    const fixture = LOG_FORMAT_FIXTURES[2];
    if (!fixture) throw new Error('no format-4 fixture');
    const lines = fixture.lines
      .map((line, index) => (index === 0 ? { ...line, version: 9 } : line))
      .filter((line) => line.type !== 'request/header');
    const session = await analyse('future', lines);
    expect(session.release).toBe('unknown DSH log format 9');
    const byCall = Object.fromEntries(session.failures.map((failure) => [failure.callId, failure]));
    expect(byCall['c-deny']).toMatchObject({ outcome: 'nothing', basis: 'error-class' });
    expect(byCall['c-bash']).toMatchObject({ outcome: 'unknown', basis: 'none' });
    expect(byCall['c-bash']?.basisNote).toContain('no tool schemas are known for unknown DSH log format 9');
  });
});
