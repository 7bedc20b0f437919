/**
 * The shared case table (core-rules/tests/shared-cases.ts) through the real Agents SDK: a real `Agent` and `run()`
 * (plain and streamed) on the SDK's `ScriptedModel` wrapped by `healModel`, with the table's tools as the SDK's JSON
 * Schema function tools (the table's `schema` style: the SDK checks only that the arguments are JSON). A repairable
 * call must run with exactly the repaired input and no error; a call that must not change must end exactly as it
 * ends without the healing (the same tool input and output, or the same error thrown by the run).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  expectedFor,
  SHARED_OPTIONS,
  type SharedCase,
  sharedCases,
  sharedTools,
} from '../../core-rules/tests/shared-cases.js';
import { healModel } from '../src/index.js';
import { type Executions, jsonSchemaTools, type Outcome, runAgent, scriptedModel } from './agent-loop.js';

async function runCase(testCase: SharedCase, healed: boolean, stream: boolean) {
  const executions: Executions = [];
  const model = scriptedModel([{ name: testCase.name, input: testCase.input }]);
  const outcome: Outcome = await runAgent(
    healed ? healModel(model, SHARED_OPTIONS) : model,
    jsonSchemaTools(sharedTools, executions),
    stream,
  );
  return { executions, ...outcome };
}

const tally = new Map<string, { repairable: number; repaired: number; unchanged: number; wrong: number }>();
function count(key: string, field: 'repairable' | 'repaired' | 'unchanged' | 'wrong'): void {
  const entry = tally.get(key) ?? { repairable: 0, repaired: 0, unchanged: 0, wrong: 0 };
  entry[field] += 1;
  tally.set(key, entry);
}

for (const stream of [false, true]) {
  const key = stream ? 'run(stream)' : 'run';
  describe(key, () => {
    it.each(sharedCases.map((testCase) => [testCase.id, testCase] as const))('%s', async (_id, testCase) => {
      const expected = expectedFor(testCase, 'schema');
      const outcome = await runCase(testCase, true, stream);
      if (expected.kind === 'repair') {
        count(key, 'repairable');
        expect(outcome.thrown).toBeUndefined();
        expect(outcome.executions).toHaveLength(1);
        const [execution] = outcome.executions;
        expect(execution!.tool).toBe(expected.name);
        const got = execution!.input as Record<string, unknown>;
        const derived = expected.derived ?? [];
        for (const field of derived) expect(String(got[field] ?? '').trim()).not.toBe('');
        expect(Object.fromEntries(Object.entries(got).filter(([field]) => !derived.includes(field)))).toEqual(
          expected.args,
        );
        count(key, 'repaired');
        return;
      }
      const baseline = await runCase(testCase, false, stream);
      count(key, JSON.stringify(outcome) === JSON.stringify(baseline) ? 'unchanged' : 'wrong');
      expect(outcome).toEqual(baseline);
    });
  });
}

afterAll(() => {
  // Figures for the notes (repair rate and wrong changes per driver); the assertions are per case.
  const lines = [...tally].map(
    ([key, t]) => `${key}: repaired ${t.repaired}/${t.repairable}, unchanged ${t.unchanged}, wrong changes ${t.wrong}`,
  );
  if (process.env.TN_SHARED_TALLY) console.log(lines.join('\n'));
});
