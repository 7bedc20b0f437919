/**
 * The repair inside the real AI SDK tool loop: a mock model (the SDK's own) sends broken calls; repairable ones
 * reach the tool's `execute` with repaired arguments in the same step, and must-not-change ones reach the SDK's
 * own `InvalidToolInputError` / `NoSuchToolError` untouched (the very error object the SDK raised).
 */
import {
  generateText,
  InvalidToolInputError,
  jsonSchema,
  NoSuchToolError,
  type ToolCallRepairFunction,
  type ToolSet,
  tool,
} from 'ai';
import { describe, expect, it } from 'vitest';
import type { KitPrograms } from '@dsh-tool-normalizer/core-rules';
import { createToolCallRepair, healToolCalls, type RepairReport } from '../src/index.js';
import { healProgram } from '../src/programs.js';
import { codingTools, type Executions, modelSending, runOneStep, type ScriptedCall } from './sdk-loop.js';

async function run(
  calls: ScriptedCall[],
  options: {
    option?: 'repairToolCall' | 'experimental_repairToolCall';
    programs?: KitPrograms;
    tools?: (e: Executions) => ToolSet;
  } = {},
) {
  const executions: Executions = [];
  const reports: RepairReport[] = [];
  const errorsSeen: unknown[] = [];
  const repair = createToolCallRepair({
    onReport: (report) => reports.push(report),
    ...(options.programs ? { programs: options.programs } : {}),
  });
  const spy: ToolCallRepairFunction<ToolSet> = async (input) => {
    errorsSeen.push(input.error);
    return repair(input);
  };
  const tools = (options.tools ?? codingTools)(executions);
  const { result, model } = await runOneStep(calls, tools, { [options.option ?? 'repairToolCall']: spy });
  const content = result.steps[0]!.content;
  const toolErrors = content.filter((part) => part.type === 'tool-error');
  /** The SDK keeps the error object on the invalid tool-call part and shows the model its message in the tool-error part. */
  const invalidCalls = content.flatMap((part) => (part.type === 'tool-call' && part.invalid ? [part] : []));
  return { result, model, executions, reports, errorsSeen, toolErrors, invalidCalls };
}

/** The call ended in the SDK's own error: the very object the SDK raised, its message shown to the model, nothing ran. */
function expectSdkError(outcome: Awaited<ReturnType<typeof run>>, isInstance: (error: unknown) => boolean): void {
  expect(outcome.executions).toEqual([]);
  expect(outcome.invalidCalls).toHaveLength(1);
  const error = outcome.invalidCalls[0]!.error;
  expect(isInstance(error)).toBe(true);
  expect(error).toBe(outcome.errorsSeen[0]);
  expect(outcome.toolErrors).toHaveLength(1);
  expect(String(outcome.toolErrors[0]!.error)).toContain((error as Error).message);
}

describe('repairable calls run in the same step with repaired arguments', () => {
  it('{"cmd": ...} for bash becomes {"command": ...} (and the missing description is filled)', async () => {
    const { executions, reports, result, model } = await run([{ toolName: 'bash', input: '{"cmd":"ls -la /tmp"}' }]);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(result.steps).toHaveLength(1);
    expect(executions).toEqual([{ tool: 'bash', input: { command: 'ls -la /tmp', description: expect.any(String) } }]);
    expect((executions[0]!.input as { description: string }).description.length).toBeGreaterThan(0);
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual(['bash ran']);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      callId: 'call-1',
      tool: 'bash',
      requestedTool: 'bash',
      repaired: true,
      category: 'invalid-args',
      error: 'AI_InvalidToolInputError',
    });
    expect(reports[0]!.ruleIds).toEqual(['args.rename-alias', 'args.fill-description']);
  });

  it('a missing required description (the safe fill) is derived from the command', async () => {
    const { executions, reports } = await run([{ toolName: 'bash', input: '{"command":"git status --short"}' }]);
    expect(executions).toHaveLength(1);
    expect(executions[0]!.input).toMatchObject({ command: 'git status --short' });
    expect(typeof (executions[0]!.input as { description: unknown }).description).toBe('string');
    expect(reports[0]!.ruleIds).toEqual(['args.fill-description']);
  });

  it('an unknown tool name with one fitting target runs as that tool', async () => {
    const { executions, reports, toolErrors } = await run([
      { toolName: 'read_file', input: '{"file_path":"/w/a.txt"}' },
    ]);
    expect(toolErrors).toEqual([]);
    expect(executions).toEqual([{ tool: 'read', input: { file_path: '/w/a.txt' } }]);
    expect(reports[0]).toMatchObject({
      tool: 'read',
      requestedTool: 'read_file',
      category: 'unknown-tool',
      repaired: true,
      error: 'AI_NoSuchToolError',
    });
    expect(reports[0]!.ruleIds).toEqual(['recover.unknown-tool-alias']);
  });

  it('an unknown name whose arguments also need a repair gets both', async () => {
    const { executions } = await run([{ toolName: 'run_command', input: '{"cmd":"npm test"}' }]);
    expect(executions).toEqual([{ tool: 'bash', input: { command: 'npm test', description: expect.any(String) } }]);
  });

  it('near-JSON arguments (single quotes, unquoted key, trailing comma) are read the one obvious way', async () => {
    const { executions, reports } = await run([
      { toolName: 'write', input: "{file_path: '/w/notes.md', 'content': 'it\\'s \"done\"\\n',}" },
    ]);
    expect(executions).toEqual([{ tool: 'write', input: { file_path: '/w/notes.md', content: 'it\'s "done"\n' } }]);
    expect(reports[0]!.ruleIds).toEqual(['args.repair-near-json']);
  });

  it('Python constants in near-JSON are read; a comment is not (core-rules reads near-JSON one way only)', async () => {
    const { executions } = await run([
      { toolName: 'write', input: '{"file_path": "/w/a.py", "content": None,}' },
      { toolName: 'read', input: '{"file_path": "/w/a.py", "offset": 3,}' },
    ]);
    expect(executions).toEqual([{ tool: 'read', input: { file_path: '/w/a.py', offset: 3 } }]);
    const comment = await run([{ toolName: 'read', input: '{"file_path": "/w/a.py", // the file\n "offset": 3}' }]);
    expectSdkError(comment, InvalidToolInputError.isInstance);
  });

  it('several calls in one response: each repaired on its own, all run in the one step', async () => {
    const { executions, result } = await run([
      { toolName: 'bash', input: '{"cmd":"pwd"}' },
      { toolName: 'read', input: '{"file_path":"/w/ok.txt"}' },
      { toolName: 'cat', input: '{"file_path":"/w/b.txt"}' },
    ]);
    expect(result.steps).toHaveLength(1);
    expect(executions.map((e) => e.tool).sort()).toEqual(['bash', 'read', 'read']);
  });

  it('works under the older option name experimental_repairToolCall', async () => {
    const { executions } = await run([{ toolName: 'bash', input: '{"cmd":"date"}' }], {
      option: 'experimental_repairToolCall',
    });
    expect(executions).toEqual([{ tool: 'bash', input: { command: 'date', description: expect.any(String) } }]);
  });

  it('a program tool: a fenced program in a call that fails its schema is healed together with the schema repair', async () => {
    const program = '```js\nconst note = """\nhi\n""";\nreturn note;\n```';
    const input = `${JSON.stringify({ code: program }).slice(0, -1)}, timeout_ms: 5000}`;
    const healed = await run([{ toolName: 'run_js', input }], {
      programs: { fields: { run_js: 'code' }, healProgram },
    });
    expect(healed.executions).toEqual([
      { tool: 'run_js', input: { code: 'const note = `\nhi\n`;\nreturn note;', timeout_ms: 5000 } },
    ]);
    expect(healed.reports[0]!.ruleIds).toEqual(['args.repair-near-json', 'run_code.heal-syntax']);
    const notConfigured = await run([{ toolName: 'run_js', input }]);
    expect(notConfigured.executions).toEqual([{ tool: 'run_js', input: { code: program, timeout_ms: 5000 } }]);
  });
});

describe('must-not-change calls reach the SDK error untouched', () => {
  it('an ambiguous key alias (path and file both could be file_path): InvalidToolInputError, nothing runs', async () => {
    const outcome = await run([{ toolName: 'read', input: '{"path":"/w/a.txt","file":"/w/b.txt"}' }]);
    expectSdkError(outcome, InvalidToolInputError.isInstance);
    const { reports } = outcome;
    expect(reports[0]).toMatchObject({ repaired: false, category: 'invalid-args' });
    expect(reports[0]!.reason).toMatch(/ambiguous/);
  });

  it('an unknown name with two fitting targets (read, and ReadFile from a second tool set): NoSuchToolError, nothing runs', async () => {
    const tools = (executions: Executions) => {
      const base = codingTools(executions);
      return { ...base, ReadFile: base.read };
    };
    const outcome = await run([{ toolName: 'read_file', input: '{"file_path":"/w/a.txt"}' }], { tools });
    expectSdkError(outcome, NoSuchToolError.isInstance);
    const { reports } = outcome;
    expect(reports[0]).toMatchObject({ repaired: false, category: 'unknown-tool' });
  });

  it('an unknown name with no fitting target: NoSuchToolError', async () => {
    expectSdkError(await run([{ toolName: 'deploy', input: '{"env":"prod"}' }]), NoSuchToolError.isInstance);
  });

  it.each([
    ['cut mid-string', '{"command": "rm -rf /srv/app/releases/2024'],
    ['cut after a comma', '{"command": "rm -rf /tmp/x", '],
    ['cut in near-JSON', "{'command': 'rm -rf /srv/app/rel"],
    ['a mismatched bracket', '{"command": ["ls", "-la"}'],
    ['two readings of the quotes', '{"command": "echo "hi"", "description": "x"}'],
    ['text after the object', '{"command": "ls", "description": "x"} and then'],
  ])('cut-off or unclear JSON (%s): InvalidToolInputError, nothing runs', async (_label, input) => {
    const outcome = await run([{ toolName: 'bash', input }]);
    expectSdkError(outcome, InvalidToolInputError.isInstance);
    expect((outcome.invalidCalls[0]!.error as InvalidToolInputError).toolInput).toBe(input);
    expect(outcome.reports[0]!.repaired).toBe(false);
  });

  it("a repair the tool's own validator rejects is not handed back (zod refinement beyond the JSON Schema)", async () => {
    const outcome = await run([{ toolName: 'run_js', input: '{"code":"return 1;","timeout_ms":0}' }]);
    expectSdkError(outcome, InvalidToolInputError.isInstance);
    expect(outcome.reports[0]!.repaired).toBe(false);
  });

  it('valid calls never reach the repair function', async () => {
    const { executions, reports, errorsSeen } = await run([
      { toolName: 'bash', input: '{"command":"ls","description":"List"}' },
    ]);
    expect(executions).toEqual([{ tool: 'bash', input: { command: 'ls', description: 'List' } }]);
    expect(errorsSeen).toEqual([]);
    expect(reports).toEqual([]);
  });
});

describe('reports and robustness', () => {
  it('a throwing onReport does not change what the SDK does', async () => {
    const executions: Executions = [];
    const repair = createToolCallRepair({
      onReport: () => {
        throw new Error('report sink down');
      },
    });
    const { result } = await runOneStep([{ toolName: 'bash', input: '{"cmd":"ls"}' }], codingTools(executions), {
      repairToolCall: repair,
    });
    expect(executions).toEqual([{ tool: 'bash', input: { command: 'ls', description: expect.any(String) } }]);
    expect(result.steps[0]!.content.some((part) => part.type === 'tool-error')).toBe(false);
  });

  it('a report carries the raw input, the repaired input and one change line per receipt', async () => {
    const { reports } = await run([{ toolName: 'bash', input: '{"cmd":"ls"}' }]);
    const report = reports[0]!;
    expect(report.before).toBe('{"cmd":"ls"}');
    expect(report.after).toEqual({ command: 'ls', description: expect.any(String) });
    expect(report.changes).toHaveLength(report.receipts.length);
    expect(report.receipts.map((receipt) => receipt.ruleId)).toEqual(report.ruleIds);
  });

  it('Read (case) and run_command (alias) resolve to their one registered tool', async () => {
    const read = await run([{ toolName: 'Read', input: '{"file_path":"/w/a"}' }]);
    expect(read.executions).toEqual([{ tool: 'read', input: { file_path: '/w/a' } }]);
  });
});

describe('defaults and old shapes', () => {
  const editorTools = (executions: Executions): ToolSet => ({
    str_replace_editor: tool({
      inputSchema: jsonSchema({
        type: 'object',
        properties: {
          command: { type: 'string' },
          path: { type: 'string' },
          view_range: { type: 'array', items: { type: 'integer' } },
        },
        required: ['command', 'path'],
      }),
      execute: async (input) => {
        executions.push({ tool: 'str_replace_editor', input });
        return 'ok';
      },
    }),
  });

  it("DeepSeek Harness's checks apply by default to a tool with its name (a relative editor path, with a cwd)", async () => {
    const executions: Executions = [];
    const tools = editorTools(executions);
    await generateText({
      model: modelSending([
        { toolName: 'str_replace_editor', input: '{"command":"view","path":"src/a.ts","view_range":"1,5"}' },
      ]),
      tools,
      prompt: 'x',
      ...healToolCalls(tools, { cwd: '/w' }),
    });
    expect(executions).toEqual([
      { tool: 'str_replace_editor', input: { command: 'view', path: '/w/src/a.ts', view_range: [1, 5] } },
    ]);
  });

  it('hostChecks: () => [] turns the profile off (the relative path runs as sent)', async () => {
    const executions: Executions = [];
    const tools = editorTools(executions);
    await generateText({
      model: modelSending([{ toolName: 'str_replace_editor', input: '{"command":"view","path":"src/a.ts"}' }]),
      tools,
      prompt: 'x',
      ...healToolCalls(tools, { cwd: '/w', hostChecks: () => [] }),
    });
    expect(executions).toEqual([{ tool: 'str_replace_editor', input: { command: 'view', path: 'src/a.ts' } }]);
  });

  it('the old programs shape ({ tool: field }, no healer) turns programs off with a warning; other repairs go on', async () => {
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      const { executions } = await run([{ toolName: 'bash', input: '{"cmd":"ls"}' }], {
        programs: { run_js: 'code' } as unknown as KitPrograms,
      });
      expect(executions).toEqual([{ tool: 'bash', input: { command: 'ls', description: expect.any(String) } }]);
    } finally {
      console.warn = warn;
    }
    expect(warnings.length).toBeLessThanOrEqual(1);
  });

  it("a repair that would hold __proto__ is not handed back: the SDK's own error stands, the same object", async () => {
    const input = '{"file_path":"/w/a","offset":"5","__proto__":{"polluted":true}}';
    const outcome = await run([{ toolName: 'read', input }]);
    expectSdkError(outcome, InvalidToolInputError.isInstance);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('functions.read and a double-encoded read_file never reach NoSuchToolError', async () => {
    const { executions, toolErrors } = await run([
      { toolName: 'functions.read', input: '{"file_path":"/w/a"}' },
      { toolName: 'read_file', input: JSON.stringify(JSON.stringify({ file_path: '/w/b' })) },
    ]);
    expect(toolErrors).toEqual([]);
    expect(executions).toEqual([
      { tool: 'read', input: { file_path: '/w/a' } },
      { tool: 'read', input: { file_path: '/w/b' } },
    ]);
  });
});

describe('large input is answered in bounded time', () => {
  const big = 'z'.repeat(10 * 1024 * 1024);

  it('a 10 MB cut-off call reaches the SDK error; a 10 MB valid call runs as sent through both seams', async () => {
    const cut = await run([{ toolName: 'write', input: `{"file_path": "/w/a", "content": "${big}` }]);
    expectSdkError(cut, InvalidToolInputError.isInstance);
    const executions: Executions = [];
    const tools = codingTools(executions);
    await generateText({
      model: modelSending([{ toolName: 'write', input: JSON.stringify({ file_path: '/w/a', content: big }) }]),
      tools,
      prompt: 'x',
      ...healToolCalls(tools),
    });
    expect(executions).toHaveLength(1);
    expect((executions[0]!.input as { content: string }).content).toHaveLength(big.length);
    const near = await run([{ toolName: 'write', input: `{'file_path': '/w/a', 'content': '${big}'}` }]);
    expectSdkError(near, InvalidToolInputError.isInstance);
  }, 120_000);
});
