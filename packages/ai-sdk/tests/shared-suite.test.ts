/**
 * The shared case table (core-rules/tests/shared-cases.ts) through the real AI SDK: `generateText` and
 * `streamText` with the SDK's `MockLanguageModelV4`, tools declared three ways (`jsonSchema()` alone, with an
 * Ajv `validate`, and zod `z.fromJSONSchema(...).strip()`), both seams on through `healToolCalls`. A repairable
 * call must run in the same step with exactly the repaired input; a call that must not change must end exactly
 * as it ends without the healing (same tool input, or the same SDK error).
 */
import { generateText, streamText, type ToolSet } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import {
  declaredOnly,
  expectedFor,
  SHARED_OPTIONS,
  type SharedCase,
  sharedCases,
  sharedTools,
  type ValidatorStyle,
} from '../../core-rules/tests/shared-cases.js';
import { healToolCalls } from '../src/index.js';
import { type Executions, modelSending, streamingModelSending, type ToolStyle, toolsOf } from './sdk-loop.js';

const STYLES: Record<ToolStyle, ValidatorStyle> = { jsonSchema: 'schema', ajv: 'strict', zod: 'stripping' };
type Driver = 'generateText' | 'streamText';

interface Outcome {
  executions: Executions;
  errors: { tool: string; name: string; message: string }[];
}

function errorOf(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'none', message: String(error) };
}

async function runCase(style: ToolStyle, driver: Driver, testCase: SharedCase, healed: boolean): Promise<Outcome> {
  const executions: Executions = [];
  const tools: ToolSet = toolsOf(style, sharedTools, executions);
  const healing = healed ? healToolCalls(tools, SHARED_OPTIONS) : {};
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
    .map((part) => ({ tool: String(part.toolName), ...errorOf(part.error) }));
  return { executions, errors };
}

const tally = new Map<string, { repairable: number; repaired: number; unchanged: number; wrong: number }>();
function count(key: string, field: 'repairable' | 'repaired' | 'unchanged' | 'wrong'): void {
  const entry = tally.get(key) ?? { repairable: 0, repaired: 0, unchanged: 0, wrong: 0 };
  entry[field] += 1;
  tally.set(key, entry);
}

for (const [style, validatorStyle] of Object.entries(STYLES) as [ToolStyle, ValidatorStyle][]) {
  for (const driver of ['generateText', 'streamText'] as const) {
    const key = `${style}/${driver}`;
    describe(key, () => {
      it.each(sharedCases.map((testCase) => [testCase.id, testCase] as const))('%s', async (_id, testCase) => {
        const expected = expectedFor(testCase, validatorStyle);
        const outcome = await runCase(style, driver, testCase, true);
        if (expected.kind === 'repair') {
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
        const baseline = await runCase(style, driver, testCase, false);
        const same = JSON.stringify(outcome) === JSON.stringify(baseline);
        count(key, same ? 'unchanged' : 'wrong');
        expect(outcome).toEqual(baseline);
      });
    });
  }
}

afterAll(() => {
  // Figures for the notes (repair rate and wrong changes per style and driver); the assertions are per case.
  const lines = [...tally].map(
    ([key, t]) => `${key}: repaired ${t.repaired}/${t.repairable}, unchanged ${t.unchanged}, wrong changes ${t.wrong}`,
  );
  if (process.env.TN_SHARED_TALLY) console.log(lines.join('\n'));
});
