/**
 * The warm-up `healToolCalls` starts at set-up (src/tool-kit.ts `warmKit`): it prepares the kit off the call path
 * and must be invisible otherwise. It never calls a tool's own validator or `execute`, never reports, and the calls
 * that follow it are answered exactly as without it.
 */
import { jsonSchema, tool } from 'ai';
import { expect, it } from 'vitest';
import { healToolCalls, type RepairReport } from '../src/index.js';

/** Lets the warm-up (one macrotask per step, a few steps for two tools) run to its end. */
async function macrotasks(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

const schema = {
  type: 'object',
  properties: { command: { type: 'string' }, description: { type: 'string' } },
  required: ['command', 'description'],
} as const;

it('warms up without calling validators, execute or onReport, and changes no answer', async () => {
  const validated: unknown[] = [];
  const executed: unknown[] = [];
  const reports: RepairReport[] = [];
  const hostChecked: string[] = [];
  const tools = {
    bash: tool({ inputSchema: jsonSchema(schema), execute: async (input) => executed.push(input) }),
    checked: tool({
      inputSchema: jsonSchema(schema, {
        validate: (value) => {
          validated.push(value);
          return { success: true, value: value as { command: string; description: string } };
        },
      }),
      execute: async (input) => executed.push(input),
    }),
  };
  const seams = healToolCalls(tools, {
    onReport: (report) => reports.push(report),
    hostChecks: (name) => {
      hostChecked.push(name);
      return [];
    },
  });
  await macrotasks(50);
  expect(hostChecked.length).toBeGreaterThan(0); // the warm-up ran
  expect(hostChecked).not.toContain('checked'); // a tool with its own validator is left out
  expect(validated).toEqual([]);
  expect(executed).toEqual([]);
  expect(reports).toEqual([]);

  const valid = { command: 'ls', description: 'List' };
  expect(await seams.experimental_refineToolInput.bash!(valid)).toBe(valid);
  expect(await seams.experimental_refineToolInput.bash!({ cmd: 'ls', description: 'List' } as never)).toEqual(valid);
  expect(reports).toHaveLength(1);
});
