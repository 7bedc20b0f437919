/**
 * Seam 1 through the real `llm/stream` waterfall of the real LlmRuntime: finished tool-call blocks are repaired
 * before the call exists, valid blocks and every other chunk come through as the very same (frozen) objects,
 * and in Code Mode a direct call to a visible tool becomes a run_code call (the host would reject it before any
 * tools/* listener could act).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamChunk, ToolCallBlock } from '@deepseek-ai/dsh-llm';
import { bootHost, toolCallChunks, type Host } from './support/composition.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

function toolCalls(blocks: { type: string }[]): ToolCallBlock[] {
  return blocks.filter((block): block is ToolCallBlock => block.type === 'tool-call');
}

const textChunks: StreamChunk[] = [
  { type: 'block-start', index: 0, blockType: 'text' },
  { type: 'text-delta', index: 0, text: 'Looking.' },
  { type: 'block-end', index: 0, block: { type: 'text', text: 'Looking.' } },
];

describe('llm/stream in native mode', () => {
  it('yields a valid tool call and all other chunks as the same objects', async () => {
    host = await bootHost();
    const path = host.file('a.txt', 'alpha\n');
    const args = JSON.stringify({ file_path: path });
    const { chunks, blocks } = await host.stream([
      ...textChunks,
      ...toolCallChunks(1, 'call_valid', 'read', args),
      { type: 'finish', reason: { kind: 'tool-calls' } } satisfies StreamChunk,
    ]);
    const [call] = toolCalls(blocks);
    expect(call?.arguments).toBe(args);
    for (const chunk of chunks) expect(Object.isFrozen(chunk)).toBe(true);
  });

  it('repairs a finished block with a relative editor path, against the session cwd, as a new chunk', async () => {
    host = await bootHost();
    host.file('guide.md', 'hello\n');
    const args = JSON.stringify({ command: 'view', path: 'guide.md' });
    const { chunks, blocks } = await host.stream(toolCallChunks(0, 'call_rel', 'str_replace_editor', args));
    const [call] = toolCalls(blocks);
    expect(call?.name).toBe('str_replace_editor');
    expect(JSON.parse(call?.arguments ?? '{}')).toEqual({ command: 'view', path: `${host.dir}/guide.md` });
    const end = chunks.at(-1) as Extract<StreamChunk, { type: 'block-end' }>;
    expect(Object.isFrozen(end)).toBe(false);
    // The repaired call then runs as the model-visible call id and succeeds in one round-trip.
    const result = await host.execute(call!.name, JSON.parse(call!.arguments), { callId: 'call_rel' });
    expect(result.isError).toBe(false);
  });

  it('leaves an unknown tool alone (no guessing on the stream)', async () => {
    host = await bootHost();
    const args = JSON.stringify({ path: '/x' });
    const { blocks } = await host.stream(toolCallChunks(0, 'call_unknown', 'frobnicate', args));
    expect(toolCalls(blocks)[0]).toMatchObject({ name: 'frobnicate', arguments: args });
  });

  it('renames a tool registered nowhere to its one fitting target (the host cannot answer it with a success later)', async () => {
    host = await bootHost();
    const path = host.file('fixture.txt', 'line 1\n');
    const { blocks } = await host.stream(
      toolCallChunks(0, 'n_unknown', 'read_file', JSON.stringify({ file_path: path })),
    );
    const [call] = toolCalls(blocks);
    expect(call).toMatchObject({ name: 'read', id: 'n_unknown' });
    expect(JSON.parse(call!.arguments)).toEqual({ file_path: path });
    const result = await host.execute(call!.name, JSON.parse(call!.arguments), { callId: 'n_unknown' });
    expect(result.isError).toBe(false);
  });

  it('changes nothing when the plugin is not installed (the control)', async () => {
    host = await bootHost({ plugin: false });
    const args = JSON.stringify({ command: 'view', path: 'guide.md' });
    const { blocks } = await host.stream(toolCallChunks(0, 'call_rel', 'str_replace_editor', args));
    expect(toolCalls(blocks)[0]?.arguments).toBe(args);
  });

  it('passes a request without tools straight through (session titles)', async () => {
    host = await bootHost();
    const { chunks, incoming } = await host.stream(textChunks, []);
    expect(chunks).toEqual(incoming);
  });
});

describe('llm/stream in Code Mode', () => {
  it('the host itself rejects a direct call before any tools/* listener (why the stream is the seam)', async () => {
    host = await bootHost({ mode: 'code', plugin: false });
    const path = host.file('a.txt', 'alpha\n');
    const result = await host.execute('read', { file_path: path });
    expect(result.isError).toBe(true);
    expect(result.error?.info?.code).toBe('UNKNOWN_TOOL');
  });

  it('bridges a direct call to a visible tool into a run_code call', async () => {
    host = await bootHost({ mode: 'code' });
    const path = host.file('a.txt', 'alpha\n');
    const presented = host.ctx.tools.schemas(host.agent).filter((tool) => tool.name === 'run_code');
    expect(presented).toHaveLength(1);
    const { blocks } = await host.stream(
      toolCallChunks(0, 'c_direct', 'read', JSON.stringify({ file_path: path, limit: 2 })),
      presented,
    );
    const [call] = toolCalls(blocks);
    expect(call?.name).toBe('run_code');
    expect(call?.id).toBe('c_direct');
    const args = JSON.parse(call?.arguments ?? '{}') as { code: string; description: string };
    expect(args.code).toContain('tools');
    expect(args.code).toContain('read');
    expect(args.code).toContain(path);
    expect(args.description.trim()).not.toBe('');
  });

  it('fills a missing run_code description and strips a Markdown fence', async () => {
    host = await bootHost({ mode: 'code' });
    const presented = host.ctx.tools.schemas(host.agent).filter((tool) => tool.name === 'run_code');
    const fenced = '```ts\nconst x = await tools.read({ file_path: "/tmp/x" });\nreturn x;\n```';
    const { blocks } = await host.stream(
      toolCallChunks(0, 'c_fence', 'run_code', JSON.stringify({ code: fenced })),
      presented,
    );
    const args = JSON.parse(toolCalls(blocks)[0]?.arguments ?? '{}') as Record<string, unknown>;
    expect(args['code']).not.toContain('```');
    expect(args['code']).toContain('await tools.read({ file_path: "/tmp/x" })');
    expect(typeof args['description']).toBe('string');
    expect(String(args['description']).trim()).not.toBe('');
  });

  it('leaves run_code {command} alone when no bash tool is visible to run it', async () => {
    host = await bootHost({ mode: 'code' });
    const presented = host.ctx.tools.schemas(host.agent).filter((tool) => tool.name === 'run_code');
    const args = JSON.stringify({ command: 'ls' });
    const { blocks } = await host.stream(toolCallChunks(0, 'c_cmd', 'run_code', args), presented);
    expect(toolCalls(blocks)[0]?.arguments).toBe(args);
  });

  it('renames an unregistered name, then bridges it into run_code', async () => {
    host = await bootHost({ mode: 'code' });
    const path = host.file('fixture.txt', 'line 1\n');
    const presented = host.ctx.tools.schemas(host.agent).filter((tool) => tool.name === 'run_code');
    const { blocks } = await host.stream(
      toolCallChunks(0, 'c_unknown', 'read_file', JSON.stringify({ file_path: path })),
      presented,
    );
    const [call] = toolCalls(blocks);
    expect(call?.name).toBe('run_code');
    const code = (JSON.parse(call!.arguments) as { code: string }).code;
    expect(code).toContain('read');
    expect(code).not.toContain('read_file');
  });

  it('calls a provider-prefixed name by its registered name, bridged into run_code', async () => {
    host = await bootHost({ mode: 'code' });
    const path = host.file('fixture.txt', 'line 1\n');
    const presented = host.ctx.tools.schemas(host.agent).filter((tool) => tool.name === 'run_code');
    const { blocks } = await host.stream(
      toolCallChunks(0, 'c_prefixed', 'functions.read', JSON.stringify({ file_path: path })),
      presented,
    );
    const [call] = toolCalls(blocks);
    expect(call?.name).toBe('run_code');
    const args = JSON.parse(call!.arguments) as { code: string; description: string };
    expect(args.code).toBe(`return await tools["read"](${JSON.stringify({ file_path: path })});`);
  });

  it('leaves a name with two fitting targets alone (resolveToolAlias answers only one reading)', async () => {
    host = await bootHost();
    const args = JSON.stringify({ pattern: '*.ts' });
    const { blocks } = await host.stream(toolCallChunks(0, 'n_two', 'search', args));
    expect(toolCalls(blocks)[0]).toMatchObject({ name: 'search', arguments: args });
  });

  it('does not bridge when autoBridgeDirectTools is off', async () => {
    host = await bootHost({ mode: 'code', plugin: { autoBridgeDirectTools: false } });
    const presented = host.ctx.tools.schemas(host.agent).filter((tool) => tool.name === 'run_code');
    const args = JSON.stringify({ file_path: '/x' });
    const { blocks } = await host.stream(toolCallChunks(0, 'c_direct', 'read', args), presented);
    expect(toolCalls(blocks)[0]).toMatchObject({ name: 'read', arguments: args });
  });
});
