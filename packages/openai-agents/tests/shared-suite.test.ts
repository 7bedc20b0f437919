/**
 * The shared case table (core-rules/tests/shared-cases.ts) through the real Agents SDK: a real `Agent` and `run()`
 * (plain and streamed) on the SDK's `ScriptedModel` wrapped by `healModel`, with the table's tools as the SDK's JSON
 * Schema function tools (the table's `schema` style: the SDK checks only that the arguments are JSON). A repairable
 * call must run with exactly the repaired input and no error; a call that must not change must end exactly as it
 * ends without the healing (the same tool input and output, or the same error thrown by the run).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  declaredOnly,
  expectedFor,
  SHARED_OPTIONS,
  type SharedCase,
  sharedCases,
  sharedTools,
} from '../../core-rules/tests/shared-cases.js';
import { healModel } from '../src/index.js';
import { type Executions, jsonSchemaTools, type Outcome, runAgent, scriptedModel, zodTools } from './agent-loop.js';

async function runCase(testCase: SharedCase, healed: boolean, stream: boolean, zod = false) {
  const executions: Executions = [];
  const model = scriptedModel([{ name: testCase.name, input: testCase.input }]);
  const outcome: Outcome = await runAgent(
    healed ? healModel(model, SHARED_OPTIONS) : model,
    (zod ? zodTools : jsonSchemaTools)(sharedTools, executions),
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

/**
 * zod tools: the model is sent the SDK's strict conversion, which the table's expectations were not written for
 * (an optional field becomes required and nullable, an integer a number). So here a call either ends exactly as
 * it ends without the healing, or it runs with exactly the table's repair (keys the schema declares: zod strips the
 * rest). Anything else is a wrong change.
 */
describe('run, zod tools', () => {
  const key = 'run, zod tools';
  it.each(sharedCases.map((testCase) => [testCase.id, testCase] as const))('%s', async (_id, testCase) => {
    const expected = expectedFor(testCase, 'stripping');
    const outcome = await runCase(testCase, true, false, true);
    const baseline = await runCase(testCase, false, false, true);
    if (expected.kind === 'repair') count(key, 'repairable');
    if (JSON.stringify(outcome) === JSON.stringify(baseline)) {
      count(key, 'unchanged');
      return;
    }
    // The table's repair, also where a stripping validator would run the call as sent: the strict conversion the
    // model is sent makes every optional key required, so `{dry_run}` for an optional `dryRun` misses a key the
    // model's schema requires and is renamed (the call then runs as a dry run, not as a write with it stripped).
    const repair = expected.kind === 'repair' ? expected : testCase.expect;
    expect(repair.kind).toBe('repair');
    if (repair.kind !== 'repair') return;
    expect(outcome.thrown).toBeUndefined();
    expect(outcome.executions).toHaveLength(1);
    const [execution] = outcome.executions;
    expect(execution!.tool).toBe(repair.name);
    const tool = sharedTools.find((entry) => entry.name === repair.name)!;
    const derived = repair.derived ?? [];
    const got = execution!.input as Record<string, unknown>;
    for (const field of derived) expect(String(got[field] ?? '').trim()).not.toBe('');
    expect(Object.fromEntries(Object.entries(got).filter(([field]) => !derived.includes(field)))).toEqual(
      declaredOnly(tool, repair.args),
    );
    count(key, 'repaired');
  });
});

afterAll(() => {
  // Figures for the notes (repair rate and wrong changes per driver); the assertions are per case.
  const lines = [...tally].map(
    ([key, t]) => `${key}: repaired ${t.repaired}/${t.repairable}, unchanged ${t.unchanged}, wrong changes ${t.wrong}`,
  );
  if (process.env.TN_SHARED_TALLY) console.log(lines.join('\n'));
});
