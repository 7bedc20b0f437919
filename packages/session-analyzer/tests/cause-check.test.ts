/**
 * A predicted heal must address the recorded error. On a real DSH log (run_code sent without its `description`,
 * answered INVALID_ARGS) the heal is predicted; doctored copies of the same log (made in a temp folder, never
 * committed) must not be called healed: the result edited into a runtime exception, or the session's run_code schema
 * edited to have no `description`. The rewrite is then reported as unrelated, never as a heal.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayFailure, resultOf } from '../src/index.js';
import { analyzeFile } from '../src/node.js';
import { compress, decompress, hasRealSessions, REAL_SESSIONS, tempDir } from './support.js';

const FLAGSHIP = 'deepseek-harness--examples-acp-agent-tests-snapshots-both-mode-turn/session-49ec25c9d66c';
const RUN_CODE = {
  name: 'run_code',
  parameters: {
    type: 'object',
    properties: { code: { type: 'string' }, description: { type: 'string' } },
    required: ['code', 'description'],
  },
};

describe.skipIf(!hasRealSessions)('cause check on a real log and its doctored copies', () => {
  let dir: string;
  let lines: Record<string, any>[];
  beforeAll(() => {
    dir = tempDir('cause');
    lines = decompress(path.join(REAL_SESSIONS, FLAGSHIP, 'session.jsonl.zstd'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function failureOf(name: string, edit: (event: Record<string, any>) => Record<string, any>) {
    const file = path.join(dir, name, 'session.jsonl.zstd');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const text = lines.map((event) => JSON.stringify(edit(structuredClone(event)))).join('\n');
    fs.writeFileSync(file, compress(`${text}\n`));
    const session = await analyzeFile(file);
    if ('skipped' in session) throw new Error(session.skipped);
    expect(session.failures).toHaveLength(1);
    return session.failures[0];
  }

  it('the real log: run_code without description is predicted healed (rc.8 schemas; the error names the field)', async () => {
    const failure = await failureOf('real', (event) => event);
    expect(failure).toMatchObject({ outcome: 'healed', ruleId: 'run_code.fill-description', basis: 'release-schemas' });
  });

  it('the result edited into a runtime exception: the same rewrite does not address it', async () => {
    const failure = await failureOf('runtime', (event) => {
      if (event.type !== 'tool/result') return event;
      event.data.content = [
        { type: 'text', text: 'Error: code run failed (exception): TypeError: x is not a function' },
      ];
      event.data.error = { name: 'CodeRunFailedError', code: 'CODE_RUN_FAILED' };
      return event;
    });
    expect(failure?.outcome).not.toBe('healed');
    expect(failure?.unrelatedRewrite).toBe('run_code.fill-description');
  });

  it("the session's run_code schema edited to have no description: the field the rule fills does not exist", async () => {
    const failure = await failureOf('no-description-field', (event) => {
      if (event.type !== 'request/header') return event;
      event.data.header.tools = [
        {
          name: 'run_code',
          parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
        },
      ];
      return event;
    });
    expect(failure?.basis).toBe('recorded-tools');
    expect(failure?.outcome).not.toBe('healed');
  });
});

describe('cause check (replayFailure)', () => {
  const env = { tools: [RUN_CODE], mode: 'code' as const };
  const call = { name: 'run_code', arguments: { code: 'return 1' } };
  it('heals when the error is the missing field the repair fills', () => {
    const result = resultOf(
      'invalid arguments: missing required property "description"',
      'INVALID_ARGS',
      'ToolArgsError',
    );
    expect(replayFailure(call, result, env).outcome).toBe('healed');
  });
  it('does not when the error names another property', () => {
    const result = resultOf('invalid arguments: missing required property "code"', 'INVALID_ARGS', 'ToolArgsError');
    expect(replayFailure(call, result, env)).toMatchObject({ unrelatedRewrite: 'run_code.fill-description' });
    expect(replayFailure(call, result, env).outcome).not.toBe('healed');
  });
  it('does not when the error is a host decision', () => {
    const result = resultOf('run_code is disabled by policy in this session', undefined, undefined);
    expect(replayFailure(call, result, env).outcome).not.toBe('healed');
  });
});
