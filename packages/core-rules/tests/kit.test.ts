/**
 * The repair kit on the shared case table (every validator style), plus the promises the table cannot show:
 * a valid call keeps its very arguments object, host-profile checks gate every repair, bad input is answered
 * with a reason in bounded time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRepairKit, type KitAnswer, type KitTool } from '../src/index.js';
import { READ_LIMIT } from '../src/host-checks.js';
import { validateArguments } from '../src/validate.js';
import {
  expectedFor,
  SHARED_OPTIONS,
  type SharedCase,
  sharedCases,
  sharedTools,
  VALIDATOR_STYLES,
  type ValidatorStyle,
} from './shared-cases.js';
import { cpuMsSince } from '../../../vitest.shared.js';

/** A schema without `additionalProperties: false`: what a stripping validator (zod's `.strip()`) accepts. */
function open(schema: Record<string, unknown>): Record<string, unknown> {
  const { additionalProperties: _closed, ...rest } = schema;
  return rest;
}

function kitTools(style: ValidatorStyle): KitTool[] {
  return sharedTools.map((tool) => {
    if (style === 'schema') return tool;
    const checked = style === 'strict' ? tool.parameters : open(tool.parameters);
    return { ...tool, validate: (args) => validateArguments(checked, args).length === 0 };
  });
}

/** Asserts one kit answer against the case's expectation. */
export function expectAnswer(answer: KitAnswer, testCase: SharedCase, style: ValidatorStyle): void {
  const expected = expectedFor(testCase, style);
  if (expected.kind === 'refuse') {
    expect(answer.ok, answer.ok ? JSON.stringify(answer.args).slice(0, 300) : '').toBe(false);
    return;
  }
  expect(answer.ok, answer.ok ? '' : answer.reason).toBe(true);
  if (!answer.ok) return;
  if (expected.kind === 'valid') {
    expect(answer.changed, JSON.stringify(answer.receipts)).toBe(false);
    return;
  }
  expect(answer.changed).toBe(true);
  expect(answer.name).toBe(expected.name);
  const derived = expected.derived ?? [];
  for (const key of derived) {
    expect(typeof answer.args[key]).toBe('string');
    expect(String(answer.args[key]).trim()).not.toBe('');
  }
  const rest = Object.fromEntries(Object.entries(answer.args).filter(([key]) => !derived.includes(key)));
  expect(rest).toEqual(expected.args);
  expect(answer.receipts.length).toBeGreaterThan(0);
}

describe('repair kit: the shared case table', () => {
  for (const style of VALIDATOR_STYLES) {
    const kit = createRepairKit(kitTools(style), SHARED_OPTIONS);
    describe(style, () => {
      it.each(sharedCases.map((testCase) => [testCase.id, testCase] as const))('%s', async (_id, testCase) => {
        expectAnswer(await kit.repair({ name: testCase.name, arguments: testCase.input }), testCase, style);
      });
    });
  }
});

describe('repair kit: promises beyond the table', () => {
  const kit = createRepairKit(sharedTools, SHARED_OPTIONS);

  it('answers a valid call with its very arguments object and no receipts', async () => {
    const args = { file_path: '/ws/a.ts', offset: 3 };
    const answer = await kit.repair({ name: 'read', arguments: args });
    expect(answer).toEqual({ ok: true, changed: false, name: 'read', args, receipts: [] });
    expect(answer.ok && answer.args).toBe(args);
  });

  it('never changes the arguments object it was given', async () => {
    const args = { cmd: 'ls', nested: { a: [1] } };
    const before = structuredClone(args);
    await kit.repair({ name: 'bash', arguments: args });
    expect(args).toEqual(before);
  });

  it('every receipt names a catalogue rule', async () => {
    const { ruleCatalogue } = await import('../src/catalogue.js');
    const ids = new Set(ruleCatalogue.map((rule) => rule.id));
    for (const testCase of sharedCases) {
      const answer = await kit.repair({ name: testCase.name, arguments: testCase.input });
      if (answer.ok) for (const receipt of answer.receipts) expect(ids.has(receipt.ruleId), receipt.ruleId).toBe(true);
    }
  });

  it('gates a repair on the host profile: a coercion the host would refuse is not made', async () => {
    // DSH's read declares offset/limit as plain numbers and refuses anything but positive integers.
    const read = {
      name: 'read',
      parameters: {
        type: 'object',
        properties: { file_path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } },
        required: ['file_path'],
      },
    };
    const hostChecks = (_tool: string, args: Record<string, unknown>) =>
      ['offset', 'limit'].flatMap((key) =>
        key in args && !(Number.isInteger(args[key]) && (args[key] as number) >= 1)
          ? [`${key} must be a positive integer`]
          : [],
      );
    const dsh = createRepairKit([read], { hostChecks });
    expect((await dsh.repair({ name: 'read', arguments: '{"file_path":"/a","offset":"12"}' })).ok).toBe(true);
    expect((await dsh.repair({ name: 'read', arguments: '{"file_path":"/a","limit":"0"}' })).ok).toBe(false);
    const valid = await dsh.repair({ name: 'read', arguments: { file_path: '/a', offset: 0 } });
    expect(valid.ok).toBe(false);
  });

  it('a throwing host profile or validator refuses instead of throwing', async () => {
    const throwing = createRepairKit(
      [
        {
          ...sharedTools[1]!,
          validate: () => {
            throw new Error('boom');
          },
        },
      ],
      {
        hostChecks: () => {
          throw new Error('profile boom');
        },
      },
    );
    const answer = await throwing.repair({ name: 'read', arguments: '{"path":"/ws/a"}' });
    expect(answer).toMatchObject({ ok: false });
    expect(await throwing.violations('read', { file_path: '/a' })).toEqual([expect.stringContaining('profile boom')]);
  });

  it('a tool the validator alone rejects is refused with its reason', async () => {
    const picky = createRepairKit([{ ...sharedTools[0]!, validate: (args) => args.command !== 'rm -rf /' }]);
    const answer = await picky.repair({ name: 'bash', arguments: '{"cmd":"rm -rf /"}' });
    expect(answer).toMatchObject({ ok: false, reason: expect.stringContaining('validator') });
  });

  it('without programs, a fenced program is left to the host (the healer is not consulted)', async () => {
    const plain = createRepairKit(sharedTools);
    const answer = await plain.repair({ name: 'run_js', arguments: JSON.stringify({ code: '```js\nreturn 1;\n```' }) });
    expect(answer).toMatchObject({ ok: true, changed: false });
  });

  it('answers junk with a reason, never a throw', async () => {
    const hostile = {
      name: 'read',
      get arguments(): unknown {
        throw new Error('getter');
      },
    };
    for (const call of [
      null,
      42,
      { name: 5 },
      hostile,
      { name: 'read', arguments: 7 },
      { name: 'read', arguments: null },
    ])
      expect((await kit.repair(call as never)).ok).toBe(false);
  });

  it('finishes 10 MB of broken or valid text in bounded time', async () => {
    const big = 'y'.repeat(10 * 1024 * 1024);
    const started = process.cpuUsage();
    const cut = await kit.repair({ name: 'write', arguments: `{"file_path": "/ws/a", "content": "${big}` });
    const near = await kit.repair({ name: 'write', arguments: `{'file_path': '/ws/a', 'content': '${big}'}` });
    const valid = await kit.repair({ name: 'write', arguments: JSON.stringify({ file_path: '/ws/a', content: big }) });
    const program = await kit.repair({ name: 'run_js', arguments: JSON.stringify({ code: `return "${big}"` }) });
    expect([cut.ok, near.ok, valid.ok, program.ok]).toEqual([false, false, true, true]);
    expect(cpuMsSince(started)).toBeLessThan(5000); // CPU time: a hang bound a loaded machine does not inflate
  });

  it('a repaired call, sent again, passes as it is (repairing twice = repairing once)', async () => {
    for (const testCase of sharedCases) {
      const first = await kit.repair({ name: testCase.name, arguments: testCase.input });
      if (!first.ok || !first.changed) continue;
      const again = await kit.repair({ name: first.name, arguments: first.args });
      expect(again, testCase.id).toMatchObject({ ok: true, changed: false });
      expect(again.ok && again.args, testCase.id).toBe(first.args);
    }
  });

  it('random valid calls come back as the very object, in every validator style', async () => {
    const text = fc.string({ maxLength: 30 }).filter((value) => value.trim() !== '');
    const absolute = fc.stringMatching(/^\/ws\/[a-z0-9_.-]{1,20}$/);
    const validCall = fc.oneof(
      fc.record({ name: fc.constant('bash'), arguments: fc.record({ command: text, description: text }) }),
      fc.record({
        name: fc.constant('read'),
        arguments: fc.record(
          {
            file_path: fc.oneof(absolute, text),
            offset: fc.integer({ min: 1 }),
            limit: fc.integer({ min: 1, max: READ_LIMIT }),
          },
          { requiredKeys: ['file_path'] },
        ),
      }),
      fc.record({ name: fc.constant('write'), arguments: fc.record({ file_path: text, content: fc.string() }) }),
      fc.record({
        name: fc.constant('web_search'),
        arguments: fc.record({ queries: fc.array(fc.string(), { minLength: 1, maxLength: 4 }) }),
      }),
      fc.record({
        name: fc.constant('str_replace_editor'),
        arguments: fc.record({ command: fc.constant('view'), path: absolute }),
      }),
    );
    for (const style of VALIDATOR_STYLES) {
      const styled = createRepairKit(kitTools(style), SHARED_OPTIONS);
      await fc.assert(
        fc.asyncProperty(validCall, async (call) => {
          const answer = await styled.repair(call);
          expect(answer).toMatchObject({ ok: true, changed: false });
          expect(answer.ok && answer.args).toBe(call.arguments);
        }),
        { numRuns: 200 },
      );
    }
  });
});
