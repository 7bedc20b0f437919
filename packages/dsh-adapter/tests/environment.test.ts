/**
 * The engine's environment is read from the real tool runtime once per registry state: a request that presents the
 * same tools array reuses it, an execution of the same agent reuses the visible schemas, and any registry change
 * (`tools/change`: a tool registered or removed) makes the next read see the new tools.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deepFreeze, type GenerateOptions } from '@deepseek-ai/dsh-llm';
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools';
import { EnvironmentReader } from '../src/environment.js';
import { bootHost, toolCallChunks, type Host } from './support/composition.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

function request(h: Host, tools: GenerateOptions['tools']): GenerateOptions {
  return deepFreeze({
    provider: 'scripted',
    model: 'scripted-model',
    messages: [],
    tools,
    sessionId: h.agent.id,
  } as GenerateOptions);
}

const probe = defineContentToolFixture({
  name: 'probe_tool',
  description: 'a tool registered while the session runs',
  parameters: {},
  async execute() {
    return [{ type: 'text', text: 'ok' }];
  },
});

describe('EnvironmentReader on the real tool runtime', () => {
  it('computes the environment once per presented-tools array and reads the cwd per request', async () => {
    host = await bootHost({ plugin: false });
    const reader = new EnvironmentReader(host.ctx);
    const presented = deepFreeze(host.ctx.tools.schemas(host.agent));
    const first = reader.forRequest(request(host, presented), presented);
    const second = reader.forRequest(request(host, presented), presented);
    expect(second.tools).toBe(first.tools);
    expect(second).toEqual({ tools: first.tools, mode: 'native', cwd: host.dir });
    expect(first.tools.map((tool) => tool.name)).toEqual(host.ctx.tools.schemas(host.agent).map((tool) => tool.name));
    expect(Object.isFrozen(first.tools)).toBe(true);
    // A new array with the same tools (the host builds one per step) reuses the agent's visible schemas.
    const rebuilt = deepFreeze(host.ctx.tools.schemas(host.agent));
    expect(reader.forRequest(request(host, rebuilt), rebuilt).tools).toBe(first.tools);
    expect(reader.forExecution({ agent: host.agent, parent: undefined }).tools).toBe(first.tools);
  });

  it('sees a tool registered or removed after the first read (tools/change drops what was kept)', async () => {
    host = await bootHost({ plugin: false });
    const reader = new EnvironmentReader(host.ctx);
    const presented = deepFreeze(host.ctx.tools.schemas(host.agent));
    const before = reader.forRequest(request(host, presented), presented);
    expect(before.tools.some((tool) => tool.name === 'probe_tool')).toBe(false);
    const unregister = host.ctx.tools.register(probe);
    const during = reader.forRequest(request(host, presented), presented);
    expect(during.tools.some((tool) => tool.name === 'probe_tool')).toBe(true);
    expect(
      reader.forExecution({ agent: host.agent, parent: undefined }).tools.some((tool) => tool.name === 'probe_tool'),
    ).toBe(true);
    unregister();
    expect(
      reader.forRequest(request(host, presented), presented).tools.some((tool) => tool.name === 'probe_tool'),
    ).toBe(false);
  });

  it('adds what the request presented but the agent view lacks, per request array', async () => {
    host = await bootHost({ plugin: false });
    const reader = new EnvironmentReader(host.ctx);
    const registered = host.ctx.tools.schemas(host.agent);
    expect(registered.some((tool) => tool.name === 'run_code')).toBe(false);
    const runCode = {
      name: 'run_code',
      description: 'Run a program',
      parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
    };
    const withRunCode = deepFreeze([...registered, runCode]);
    const both = reader.forRequest(request(host, withRunCode), withRunCode);
    expect(both.mode).toBe('both');
    expect(both.tools.filter((tool) => tool.name === 'run_code')).toHaveLength(1);
    const plain = deepFreeze(host.ctx.tools.schemas(host.agent));
    const native = reader.forRequest(request(host, plain), plain);
    expect(native.mode).toBe('native');
    expect(native.tools.some((tool) => tool.name === 'run_code')).toBe(false);
    // Each array keeps its own answer.
    expect(reader.forRequest(request(host, withRunCode), withRunCode).tools).toBe(both.tools);
  });

  it('the plugin keeps repairing through the kept environment after a registry change', async () => {
    host = await bootHost();
    const first = await host.stream(
      toolCallChunks(0, 'call_a', 'str_replace_editor', JSON.stringify({ command: 'view', path: 'a.md' })),
    );
    expect(JSON.parse((first.blocks[0] as { arguments: string }).arguments).path).toBe(`${host.dir}/a.md`);
    host.ctx.tools.register(probe);
    const second = await host.stream(
      toolCallChunks(0, 'call_b', 'str_replace_editor', JSON.stringify({ command: 'view', path: 'b.md' })),
    );
    expect(JSON.parse((second.blocks[0] as { arguments: string }).arguments).path).toBe(`${host.dir}/b.md`);
  });
});
