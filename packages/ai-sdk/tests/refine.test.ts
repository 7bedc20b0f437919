/**
 * The refine seam (`experimental_refineToolInput`) in the real AI SDK: calls that parse but are still wrong
 * (any JSON for a `jsonSchema()` tool without `validate`, a fenced program in a string field) are repaired
 * before `execute`; a valid input comes back as the very object; the repaired input is what the tool's own
 * validator outputs; a failing refinement or report never changes what the SDK does.
 */
import { generateText, stepCountIs, jsonSchema, ToolLoopAgent, type ToolSet, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolInputRefinement, healToolCalls, type RepairReport } from '../src/index.js';
import { healProgram } from '../src/programs.js';
import { codingTools, type Executions, modelSending } from './sdk-loop.js';

const bashSchema = {
  type: 'object',
  properties: { command: { type: 'string' }, description: { type: 'string' } },
  required: ['command', 'description'],
} as const;

function plainTools(executions: Executions): ToolSet {
  return {
    bash: tool({
      description: 'Run a shell command',
      inputSchema: jsonSchema(bashSchema),
      execute: async (input) => {
        executions.push({ tool: 'bash', input });
        return 'ran';
      },
    }),
  };
}

describe('experimental_refineToolInput', () => {
  it('a valid input comes back as the very object', async () => {
    const refine = createToolInputRefinement(plainTools([]));
    const input = { command: 'ls', description: 'List' };
    expect(await refine.bash!(input as never)).toBe(input);
  });

  it('a jsonSchema() tool without validate: the SDK runs any JSON; the refine seam repairs it first', async () => {
    const executions: Executions = [];
    const reports: RepairReport[] = [];
    const tools = plainTools(executions);
    const unhealed: Executions = [];
    await generateText({
      model: modelSending([{ toolName: 'bash', input: '{"cmd":"ls -la"}' }]),
      tools: plainTools(unhealed),
      prompt: 'x',
    });
    expect(unhealed).toEqual([{ tool: 'bash', input: { cmd: 'ls -la' } }]);
    await generateText({
      model: modelSending([{ toolName: 'bash', input: '{"cmd":"ls -la"}' }]),
      tools,
      prompt: 'x',
      ...healToolCalls(tools, { onReport: (report) => reports.push(report) }),
    });
    expect(executions).toEqual([{ tool: 'bash', input: { command: 'ls -la', description: expect.any(String) } }]);
    expect(reports).toMatchObject([
      { seam: 'refine', repaired: true, ruleIds: ['args.rename-alias', 'args.fill-description'] },
    ]);
  });

  it('a zod tool: a fenced program that passes the schema is healed before execute', async () => {
    const executions: Executions = [];
    const tools = codingTools(executions);
    const code = '```js\nconst a = 1;\nreturn a + 1;\n```';
    const { steps } = await generateText({
      model: modelSending([{ toolName: 'run_js', input: JSON.stringify({ code, timeout_ms: 100 }) }]),
      tools,
      prompt: 'x',
      ...healToolCalls(tools, { programs: { fields: { run_js: 'code' }, healProgram } }),
    });
    expect(executions).toEqual([{ tool: 'run_js', input: { code: 'const a = 1;\nreturn a + 1;', timeout_ms: 100 } }]);
    // The step's tool call shows what ran (the SDK records the refined input).
    const call = steps[0]!.content.find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({ input: { code: 'const a = 1;\nreturn a + 1;' } });
  });

  it("the refined input is the validator's output (zod transforms apply; nothing unvalidated reaches execute)", async () => {
    const executions: Executions = [];
    const tools: ToolSet = {
      read: tool({
        inputSchema: z.object({
          file_path: z.string().transform((path) => path.toUpperCase()),
          description: z.string(),
        }),
        execute: async (input) => {
          executions.push({ tool: 'read', input });
          return 'ok';
        },
      }),
    };
    await generateText({
      model: modelSending([{ toolName: 'read', input: '{"path":"/w/a"}' }]),
      tools,
      prompt: 'x',
      ...healToolCalls(tools),
    });
    expect(executions).toEqual([{ tool: 'read', input: { file_path: '/W/A', description: expect.any(String) } }]);
  });

  it('a tool named bash without a description parameter: its valid calls are not held to the DSH description check', async () => {
    const executions: Executions = [];
    const reports: RepairReport[] = [];
    const tools: ToolSet = {
      bash: tool({
        inputSchema: z.object({ command: z.string() }),
        execute: async (input) => {
          executions.push({ tool: 'bash', input });
          return 'ok';
        },
      }),
    };
    await generateText({
      model: modelSending([{ toolName: 'bash', input: '{"command":"ls"}' }]),
      tools,
      prompt: 'x',
      ...healToolCalls(tools, { onReport: (report) => reports.push(report) }),
    });
    expect(executions).toEqual([{ tool: 'bash', input: { command: 'ls' } }]);
    expect(reports).toEqual([]);
  });

  it('ToolLoopAgent takes both seams the same way', async () => {
    const executions: Executions = [];
    const tools = plainTools(executions);
    const agent = new ToolLoopAgent({
      model: modelSending([{ toolName: 'functions.bash', input: '{"cmd":"uname -a"}' }]),
      tools,
      stopWhen: stepCountIs(1),
      ...healToolCalls(tools),
    });
    await agent.generate({ prompt: 'x' });
    expect(executions).toEqual([{ tool: 'bash', input: { command: 'uname -a', description: expect.any(String) } }]);
  });

  it('a throwing onReport and a refusal leave the parsed input as it was', async () => {
    const executions: Executions = [];
    const tools = plainTools(executions);
    await generateText({
      model: modelSending([
        { toolName: 'bash', input: '{"cmd":"ls","script":"pwd"}' },
        { toolName: 'bash', input: '{"cmd":"date"}' },
      ]),
      tools,
      prompt: 'x',
      ...healToolCalls(tools, {
        onReport: () => {
          throw new Error('sink down');
        },
      }),
    });
    expect(executions).toContainEqual({ tool: 'bash', input: { cmd: 'ls', script: 'pwd' } });
    expect(executions).toContainEqual({ tool: 'bash', input: { command: 'date', description: expect.any(String) } });
  });
});
