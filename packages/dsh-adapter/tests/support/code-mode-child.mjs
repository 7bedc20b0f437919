/**
 * Runs under Node >= 22.13 (spawned by tests/code-mode-node22.test.ts): real DSH in-process in Code Mode with the
 * real worker-thread code runtime, which needs `module.stripTypeScriptTypes`, so run_code programs execute for
 * real. The plugin (argv[2], a bundle of src/) is installed on the same Context. Each case streams the model's
 * tool-call block through the real `llm/stream` waterfall, executes the call the loop would execute, and prints
 * what the model would see. Output: one JSON object on stdout.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Context } from '@deepseek-ai/cordis';
import LlmRuntime, { BlockAssembler, LlmAdapter, deepFreeze } from '@deepseek-ai/dsh-llm';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime from '@deepseek-ai/dsh-tools';
import LocalFileSystem from '@deepseek-ai/dsh-fs-local';
import * as ObservationPolicy from '@deepseek-ai/dsh-fs-observation-policy';
import * as FsTools from '@deepseek-ai/dsh-tool-fs';
import * as StrReplaceEditor from '@deepseek-ai/dsh-tool-str-replace-editor';
import CodeRuntime from '@deepseek-ai/dsh-code-runtime-worker-thread';

const [pluginPath, withPlugin] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'tn-code-'));
const logDir = mkdtempSync(join(tmpdir(), 'tn-code-logs-'));
writeFileSync(join(dir, 'guide.md'), 'hello guide\n');
writeFileSync(join(dir, 'unread.txt'), 'alpha\nbeta\n');

class OneShot extends LlmAdapter {
  constructor(chunks) {
    super();
    this.chunks = chunks;
  }
  async *stream() {
    for (const chunk of this.chunks) yield deepFreeze(structuredClone(chunk));
  }
}

const ctx = new Context();
await ctx.plugin(SystemPrompt);
await ctx.plugin(CodeRuntime, {});
await ctx.plugin(ToolRuntime, { mode: 'code' });
await ctx.plugin(LlmRuntime);
await ctx.plugin(LocalFileSystem, {});
await ctx.plugin(ObservationPolicy);
await ctx.plugin(FsTools, {});
await ctx.plugin(StrReplaceEditor, {});
// Stand-ins for the agent loop's pieces: the session only needs `header.cwd` and `append` (durable events).
const agent = { id: 'session-code', options: { model: 'scripted' }, session: { header: { cwd: dir }, append() {} } };
ctx.provide('agents', { get: (id) => (id === agent.id ? agent : undefined) });
if (withPlugin === 'yes') await ctx.plugin(await import(pathToFileURL(pluginPath).href), { logDir });

async function modelCalls(id, name, args) {
  const chunks = [
    { type: 'block-start', index: 0, blockType: 'tool-call' },
    { type: 'tool-call-delta', index: 0, id, name, argumentsDelta: args },
    { type: 'block-end', index: 0, block: { type: 'tool-call', id, name, arguments: args } },
  ];
  const dispose = ctx.llm.registerAdapter(['scripted'], new OneShot(chunks));
  try {
    const presented = ctx.tools.schemas(agent).filter((tool) => tool.name === 'run_code');
    const request = deepFreeze({
      provider: 'scripted',
      model: 'scripted',
      messages: [],
      tools: presented,
      sessionId: agent.id,
    });
    const assembler = new BlockAssembler();
    for await (const chunk of ctx.llm.stream(request)) assembler.push(chunk);
    const call = assembler.blocks().find((block) => block.type === 'tool-call');
    let parsed;
    try {
      parsed = JSON.parse(call.arguments);
    } catch {
      parsed = call.arguments;
    }
    const result = await ctx.tools.execute({
      callId: id,
      name: call.name,
      arguments: parsed,
      agent,
      signal: new AbortController().signal,
    });
    return {
      called: call.name,
      isError: result.isError,
      text: result.content.map((block) => block.text ?? '').join(''),
    };
  } finally {
    dispose();
  }
}

const out = {};
out.directRead = await modelCalls('c_direct_read', 'read', JSON.stringify({ file_path: join(dir, 'guide.md') }));
out.innerRelativeView = await modelCalls(
  'c_inner_view',
  'run_code',
  JSON.stringify({
    code: 'const r = await tools.str_replace_editor({ command: "view", path: "guide.md" });\nreturn r;',
    description: 'View the guide',
  }),
);
out.innerEditUnread = await modelCalls(
  'c_inner_edit',
  'run_code',
  JSON.stringify({
    code: `return await tools.edit({ file_path: ${JSON.stringify(join(dir, 'unread.txt'))}, old_string: "alpha", new_string: "ALPHA" });`,
    description: 'Edit',
  }),
);
out.fileAfterEdit = readFileSync(join(dir, 'unread.txt'), 'utf8');
out.fencedNoDescription = await modelCalls(
  'c_fence',
  'run_code',
  JSON.stringify({ code: '```ts\nconst n: number = 6 * 7;\nreturn n;\n```' }),
);
rmSync(dir, { recursive: true, force: true });
rmSync(logDir, { recursive: true, force: true });
process.stdout.write(JSON.stringify(out));
process.exit(0);
