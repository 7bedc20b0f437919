/**
 * Seam 1 through the real `llm/stream` waterfall of the real LlmRuntime: finished tool-call blocks are repaired
 * before the call exists, valid blocks and every other chunk come through as the very same (frozen) objects,
 * and in Code Mode a direct call to a visible tool becomes a run_code call (the host would reject it before any
 * tools/* listener could act).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamChunk, ToolCallBlock } from '@deepseek-ai/dsh-llm';
import { CUT_BLOCK, SGLANG_17141_V32, SGLANG_35736 } from '../../core-rules/tests/dsml-text-fixtures.js';
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

/**
 * DeepSeek served by vLLM/SGLang: a whole DSML call left in the text with a `stop` finish (sgl-project/sglang
 * #35736), and a `tool-calls` finish with no call at all (vllm-project/vllm #53255; deepseek-ai/DeepSeek-V3 #944).
 * Chunks as rc.8's deepseek adapter yields them at `[DONE]`: block-ends, usage, finish.
 */
describe('llm/stream: DSML left in the text, empty tool-calls finishes', () => {
  const textResponse = (text: string, kind: 'stop' | 'tool-calls' | 'max-tokens'): StreamChunk[] => [
    { type: 'block-start', index: 0, blockType: 'text' },
    { type: 'text-delta', index: 0, text },
    { type: 'block-end', index: 0, block: { type: 'text', text } },
    { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } },
    { type: 'finish', reason: { kind } },
  ];
  const finishOf = (chunks: StreamChunk[]) =>
    (chunks.find((chunk) => chunk.type === 'finish') as Extract<StreamChunk, { type: 'finish' }>).reason;

  it('turns the sglang #35736 shape into the call the host runs, the markup removed, the finish tool-calls', async () => {
    host = await bootHost();
    const path = host.file('a.txt', 'alpha\n');
    // The report's block, calling this host's read tool by another spelling (the report's "Bash" is not registered here).
    const text = SGLANG_35736.replace('name="Bash"', 'name="Read"')
      .replace('name="command"', 'name="file_path"')
      .replace('>pwd<', `>${path}<`);
    const { chunks, blocks } = await host.stream(textResponse(`Checking.\n${text}`, 'stop'));
    expect(blocks[0]).toEqual({ type: 'text', text: 'Checking.\n' });
    const [call] = toolCalls(blocks);
    expect(call?.name).toBe('read');
    expect(JSON.parse(call?.arguments ?? '{}')).toEqual({ file_path: path });
    expect(finishOf(chunks)).toEqual({ kind: 'tool-calls' });
    // The call runs under its new id.
    const result = await host.execute(call!.name, JSON.parse(call!.arguments), { callId: String(call!.id) });
    expect(result.isError).toBe(false);
  });

  it('leaves the report’s own "Bash" call as text when the host presents no bash tool', async () => {
    host = await bootHost();
    const incoming = textResponse(SGLANG_35736, 'stop');
    const { chunks } = await host.stream(incoming);
    expect(chunks).toEqual(incoming);
  });

  it.each<[string, StreamChunk[]]>([
    ['a cut block', textResponse(CUT_BLOCK, 'stop')],
    ['a block whose tool the host does not have', textResponse(SGLANG_17141_V32, 'stop')],
    ['a complete block under a max-tokens finish', textResponse(SGLANG_35736, 'max-tokens')],
    [
      'text beside a real tool call',
      [
        { type: 'block-end', index: 0, block: { type: 'text', text: SGLANG_35736 } },
        ...toolCallChunks(1, 'call_real', 'bash', JSON.stringify({ command: 'ls', description: 'List' })),
        { type: 'finish', reason: { kind: 'tool-calls' } },
      ],
    ],
  ])('leaves %s exactly as the model sent it', async (_what, incoming) => {
    host = await bootHost();
    const { chunks } = await host.stream(incoming);
    expect(chunks).toEqual(incoming);
  });

  it('answers a tool-calls finish with no call and no text with the host’s EMPTY_RESPONSE failure', async () => {
    host = await bootHost();
    const { chunks } = await host.stream([
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 0 } },
      { type: 'finish', reason: { kind: 'tool-calls' } },
    ]);
    expect(finishOf(chunks)).toEqual({
      kind: 'error',
      failure: { code: 'EMPTY_RESPONSE', message: 'model returned a completed response with no content' },
    });
  });

  it('keeps a tool-calls finish that has text to show (the host ends the turn with the text)', async () => {
    host = await bootHost();
    const incoming = textResponse('Done.', 'tool-calls');
    const { chunks } = await host.stream(incoming);
    expect(chunks).toEqual(incoming);
  });

  it('changes nothing without the plugin (the control)', async () => {
    host = await bootHost({ plugin: false });
    const incoming = textResponse(SGLANG_35736, 'stop');
    const { chunks } = await host.stream(incoming);
    expect(chunks).toEqual(incoming);
  });
});
