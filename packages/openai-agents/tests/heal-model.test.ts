/**
 * `healModel` with the real Agents SDK: a real `Agent` and `run()` (plain and streamed) on the SDK's own
 * `ScriptedModel`, with zod tools (the way most users declare them) and JSON Schema tools. A broken call is healed
 * before `execute` runs, and the next model request shows the healed call; a valid call reaches `execute` as sent
 * in the very response object; a call the kit cannot heal ends exactly as it ends without the healing (the SDK's
 * own tool output or thrown error).
 */
import { Agent, type Model, Runner, type Tool, tool } from '@openai/agents';
import { assistantMessage, ScriptedModel } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type HealReport, healModel, healModelProvider } from '../src/index.js';
import { type Executions, jsonSchemaTools, runAgent, scriptedModel } from './agent-loop.js';

function zodTools(executions: Executions): Tool[] {
  const record = (name: string) => async (input: unknown) => {
    executions.push({ tool: name, input });
    return `${name} ran`;
  };
  return [
    tool({
      name: 'bash',
      description: 'Run a shell command',
      parameters: z.object({ command: z.string(), description: z.string() }),
      execute: record('bash'),
    }),
    tool({
      name: 'read',
      description: 'Read a file',
      parameters: z.object({ file_path: z.string() }),
      execute: record('read'),
    }),
  ];
}

/** A run with and without the healing, on the same scripted calls. */
async function both(calls: { name: string; input: string }[], stream = false) {
  const healedRuns: Executions = [];
  const reports: HealReport[] = [];
  const model = scriptedModel(calls);
  const healed = await runAgent(
    healModel(model, { onReport: (report) => reports.push(report) }),
    zodTools(healedRuns),
    stream,
  );
  const plainRuns: Executions = [];
  const plain = await runAgent(scriptedModel(calls), zodTools(plainRuns), stream);
  return { healed, healedRuns, plain, plainRuns, reports, model };
}

describe.each([false, true])('healModel with run() (stream: %s)', (stream) => {
  it('heals an alias and a missing description before execute, and the model sees the healed call', async () => {
    const { healed, healedRuns, plain, plainRuns, reports, model } = await both(
      [{ name: 'bash', input: '{"cmd":"ls -la"}' }],
      stream,
    );
    // Without the healing, the SDK's zod check fails and the tool never runs.
    expect(plainRuns).toEqual([]);
    expect(plain.outputs).toEqual(['An error occurred while running the tool. Please try again.']);
    expect(healed.thrown).toBeUndefined();
    expect(healedRuns).toHaveLength(1);
    const input = healedRuns[0]!.input as { command: string; description: string };
    expect(input.command).toBe('ls -la');
    expect(input.description.trim()).not.toBe('');
    expect(healed.outputs).toEqual(['bash ran']);
    expect(reports).toMatchObject([
      { callId: 'call-1', tool: 'bash', requestedTool: 'bash', repaired: true, before: '{"cmd":"ls -la"}' },
    ]);
    expect(reports[0]!.ruleIds).toEqual(expect.arrayContaining(['args.rename-alias', 'args.fill-description']));
    // The transcript the model gets next holds the call that ran, not the broken one.
    const sent = JSON.stringify(model.lastCall?.request.input);
    expect(sent).toContain('ls -la');
    expect(sent).not.toContain('\\"cmd\\"');
  });

  it('heals near-JSON, which the runner would reject before any tool is reached', async () => {
    const { healed, healedRuns, plain, plainRuns } = await both(
      [{ name: 'read', input: "{'file_path': 'README.md',}" }],
      stream,
    );
    expect(plainRuns).toEqual([]);
    expect(plain.outputs).toEqual([
      'An error occurred while parsing tool arguments. Please try again with valid JSON.',
    ]);
    expect(healedRuns).toEqual([{ tool: 'read', input: { file_path: 'README.md' } }]);
    expect(healed.outputs).toEqual(['read ran']);
  });

  it('heals an unknown name standing for one tool, which would end the run', async () => {
    const { healed, healedRuns, plain } = await both([{ name: 'read_file', input: '{"file_path":"a.txt"}' }], stream);
    expect(plain.thrown).toEqual({ name: 'ModelBehaviorError', message: 'Tool read_file not found in agent coder.' });
    expect(healed.thrown).toBeUndefined();
    expect(healedRuns).toEqual([{ tool: 'read', input: { file_path: 'a.txt' } }]);
  });

  it('leaves a valid call untouched', async () => {
    const { healed, healedRuns, plain, plainRuns, reports } = await both(
      [{ name: 'bash', input: '{"command":"ls","description":"List files"}' }],
      stream,
    );
    expect(healedRuns).toEqual([{ tool: 'bash', input: { command: 'ls', description: 'List files' } }]);
    expect(healedRuns).toEqual(plainRuns);
    expect(healed).toEqual(plain);
    expect(reports).toEqual([]);
  });

  it.each([
    ['a cut-off command', 'bash', '{"command": "rm -rf /srv/app/rel'],
    ['an unknown name standing for no tool', 'deploy', '{"target":"prod"}'],
    ['two candidates for one key', 'bash', '{"cmd":"ls","command_line":"rm -rf /","description":"x"}'],
    ['a wrong type no rule reads', 'read', '{"file_path":["a","b"]}'],
  ])('leaves %s to the SDK, whose own error the model gets', async (_label, name, input) => {
    const { healed, healedRuns, plain, plainRuns, reports } = await both([{ name, input }], stream);
    expect(healed).toEqual(plain);
    expect(healedRuns).toEqual(plainRuns);
    expect(healedRuns).toEqual([]);
    expect(reports.every((report) => !report.repaired)).toBe(true);
  });
});

describe('healModel with a strict zod tool that has an optional field', () => {
  it('heals a call that leaves the optional field out, as the SDK sends it nullable and required', async () => {
    const executions: Executions = [];
    const read = tool({
      name: 'read',
      description: 'Read a file',
      parameters: z.object({ file_path: z.string(), offset: z.number().int().optional() }),
      execute: async (input) => {
        executions.push({ tool: 'read', input });
        return 'read ran';
      },
    });
    expect((read.parameters as { required: string[] }).required).toEqual(['file_path', 'offset']);
    const outcome = await runAgent(healModel(scriptedModel([{ name: 'read', input: '{"path":"a.txt"}' }])), [read]);
    expect(outcome.outputs).toEqual(['read ran']);
    expect(executions).toEqual([{ tool: 'read', input: { file_path: 'a.txt' } }]);
  });
});

describe('healModel, the model itself', () => {
  it('answers the very response object when nothing is healed', async () => {
    const inner = scriptedModel([{ name: 'read', input: '{"file_path":"a"}' }]);
    const sent: unknown[] = [];
    const spy: Model = {
      getResponse: async (request) => {
        const response = await inner.getResponse(request);
        sent.push(response);
        return response;
      },
      getStreamedResponse: (request) => inner.getStreamedResponse(request),
    };
    const wrapped = healModel(spy);
    const received: unknown[] = [];
    const recording: Model = {
      getResponse: async (request) => {
        const response = await wrapped.getResponse(request);
        received.push(response);
        return response;
      },
      getStreamedResponse: (request) => wrapped.getStreamedResponse(request),
    };
    const executions: Executions = [];
    await runAgent(recording, jsonSchemaTools([{ name: 'read', description: 'Read', parameters: READ }], executions));
    expect(executions).toEqual([{ tool: 'read', input: { file_path: 'a' } }]);
    expect(received).toHaveLength(2);
    for (const [index, response] of received.entries()) expect(response).toBe(sent[index]);
  });

  it('never touches a call to a handoff', async () => {
    const executions: Executions = [];
    const reports: HealReport[] = [];
    const helper = new Agent({ name: 'helper', model: new ScriptedModel([[assistantMessage('helped')]]) });
    const agent = new Agent({
      name: 'coder',
      model: healModel(scriptedModel([{ name: 'transfer_to_helper', input: '{"why":"x"}' }]), {
        onReport: (report) => reports.push(report),
      }),
      tools: jsonSchemaTools([{ name: 'read', description: 'Read', parameters: READ }], executions),
      handoffs: [helper],
    });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'go');
    expect(result.finalOutput).toBe('helped');
    expect(result.lastAgent?.name).toBe('helper');
    expect(reports).toEqual([]);
    expect(executions).toEqual([]);
  });
});

describe('healModelProvider', () => {
  it('heals the models a Runner looks up by name', async () => {
    const executions: Executions = [];
    const names: (string | undefined)[] = [];
    const model = scriptedModel([{ name: 'read_file', input: '{"file_path":"b.txt"}' }]);
    const provider = healModelProvider({
      getModel: (name) => {
        names.push(name);
        return model;
      },
    });
    const runner = new Runner({ modelProvider: provider, tracingDisabled: true });
    const agent = new Agent({
      name: 'coder',
      model: 'scripted-model',
      tools: jsonSchemaTools([{ name: 'read', description: 'Read', parameters: READ }], executions),
    });
    await runner.run(agent, 'go');
    expect(names[0]).toBe('scripted-model');
    expect(executions).toEqual([{ tool: 'read', input: { file_path: 'b.txt' } }]);
  });
});

const READ = {
  type: 'object',
  properties: { file_path: { type: 'string' } },
  required: ['file_path'],
  additionalProperties: false,
};
