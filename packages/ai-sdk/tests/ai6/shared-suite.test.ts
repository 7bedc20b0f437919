/**
 * The shared case table (core-rules/tests/shared-cases.ts) through the real `ai` 6 `generateText` and `streamText`,
 * the package's sources running on `ai` 6 too (the `ai-sdk-ai6` project). `ai` 6 has one seam,
 * `experimental_repairToolCall`, called for a call it cannot parse; it has no `experimental_refineToolInput`. So:
 * a repairable call that `ai` 6 rejects must run in the same step with exactly the repaired input; a repairable
 * call that `ai` 6 accepts as sent (a `jsonSchema()` tool without `validate` takes any JSON) and every call that
 * must not change end exactly as they end without the healing.
 */
import { generateText, streamText, type ToolSet } from 'ai6';
import { afterAll, describe, expect, it } from 'vitest';
import {
  declaredOnly,
  expectedFor,
  SHARED_OPTIONS,
  type SharedCase,
  sharedCases,
  sharedTools,
  type ValidatorStyle,
} from '../../../core-rules/tests/shared-cases.js';
import { healToolCalls } from '../../src/index.js';
import { type Executions, modelSending, streamingModelSending, type ToolStyle, toolsOf } from './sdk-loop.js';

const STYLES: Record<ToolStyle, ValidatorStyle> = { jsonSchema: 'schema', ajv: 'strict', zod: 'stripping' };
type Driver = 'generateText' | 'streamText';

interface Outcome {
  executions: Executions;
  errors: { tool: string; name: string; message: string }[];
}

async function runCase(style: ToolStyle, driver: Driver, testCase: SharedCase, healed: boolean): Promise<Outcome> {
  const executions: Executions = [];
  const tools: ToolSet = toolsOf(style, sharedTools, executions);
  const healing = healed ? healToolCalls(tools as never, SHARED_OPTIONS) : {};
  const calls = [{ toolName: testCase.name, input: testCase.input }];
  let content: { type: string; toolName?: string; error?: unknown }[];
  if (driver === 'generateText') {
    const result = await generateText({ model: modelSending(calls), tools, prompt: 'do the task', ...healing });
    content = result.steps[0]!.content;
  } else {
    const result = streamText({ model: streamingModelSending(calls), tools, prompt: 'do the task', ...healing });
    for await (const _part of result.fullStream) {
      // drain the stream
    }
    content = (await result.steps)[0]!.content;
  }
  const errors = content
    .filter((part) => part.type === 'tool-error')
    .map((part) => ({
      tool: String(part.toolName),
      name: part.error instanceof Error ? part.error.name : 'none',
      message: part.error instanceof Error ? part.error.message : String(part.error),
    }));
  return { executions, errors };
}

const tally = new Map<string, Record<'repairable' | 'repaired' | 'acceptedAsSent' | 'unchanged' | 'wrong', number>>();
function count(key: string, field: 'repairable' | 'repaired' | 'acceptedAsSent' | 'unchanged' | 'wrong'): void {
  const entry = tally.get(key) ?? { repairable: 0, repaired: 0, acceptedAsSent: 0, unchanged: 0, wrong: 0 };
  entry[field] += 1;
  tally.set(key, entry);
}

it('runs on ai 6: the package and the tests import the same ai 6 module', async () => {
  const [seen, six] = await Promise.all([import('ai'), import('ai6')]);
  expect(seen).toBe(six);
});

for (const [style, validatorStyle] of Object.entries(STYLES) as [ToolStyle, ValidatorStyle][]) {
  for (const driver of ['generateText', 'streamText'] as const) {
    const key = `ai 6 ${style}/${driver}`;
    describe(key, () => {
      it.each(sharedCases.map((testCase) => [testCase.id, testCase] as const))('%s', async (_id, testCase) => {
        const expected = expectedFor(testCase, validatorStyle);
        const outcome = await runCase(style, driver, testCase, true);
        const baseline = await runCase(style, driver, testCase, false);
        const acceptedAsSent = baseline.errors.length === 0 && baseline.executions.length === 1;
        if (expected.kind === 'repair' && !acceptedAsSent) {
          count(key, 'repairable');
          expect(outcome.errors).toEqual([]);
          expect(outcome.executions).toHaveLength(1);
          const [execution] = outcome.executions;
          expect(execution!.tool).toBe(expected.name);
          const tool = sharedTools.find((entry) => entry.name === expected.name)!;
          const want = validatorStyle === 'stripping' ? declaredOnly(tool, expected.args) : expected.args;
          const got = execution!.input as Record<string, unknown>;
          const derived = expected.derived ?? [];
          for (const field of derived) expect(String(got[field] ?? '').trim()).not.toBe('');
          expect(Object.fromEntries(Object.entries(got).filter(([field]) => !derived.includes(field)))).toEqual(want);
          count(key, 'repaired');
          return;
        }
        const same = JSON.stringify(outcome) === JSON.stringify(baseline);
        count(key, !same ? 'wrong' : expected.kind === 'repair' ? 'acceptedAsSent' : 'unchanged');
        expect(outcome).toEqual(baseline);
      });
    });
  }
}

afterAll(() => {
  const lines = [...tally].map(
    ([key, t]) =>
      `${key}: repaired ${t.repaired}/${t.repairable} that ai 6 rejects, ${t.acceptedAsSent} repairable ones ai 6 runs as sent, unchanged ${t.unchanged}, wrong changes ${t.wrong}`,
  );
  if (process.env.TN_SHARED_TALLY) console.log(lines.join('\n'));
});
