/**
 * The composition harness: a real `@deepseek-ai/cordis` Context with the real DSH services the plugin meets
 * (tool runtime, system prompt, LLM runtime with its `llm/stream` waterfall, local filesystem, the fs observation
 * policy, the real `read`/`write`/`edit` and `str_replace_editor` tools), all loading in-process on Node 20.
 *
 * Two things are stand-ins, because building them needs the whole agent stack: the Agent passed to executions
 * (only `id` and `session.header.cwd` are read by the host pieces used here; the observation policy keys on the
 * session object) and the scripted model (a real `LlmAdapter` subclass that replays chunks, deep-frozen like the
 * host's). run_code itself needs Node >= 22.13 (`module.stripTypeScriptTypes`), so Code-Mode programs are
 * exercised in the real-host tests (apps/dsh-lab); here the Code-Mode runtime presents and collapses calls, and
 * inner sub-calls are dispatched the way the run_code bridge does it (nested, with a `parent`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context, type Fiber } from '@deepseek-ai/cordis';
import LlmRuntime, {
  BlockAssembler,
  LlmAdapter,
  deepFreeze,
  type GenerateOptions,
  type StreamChunk,
  type ContentBlock,
} from '@deepseek-ai/dsh-llm';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime, { type ToolExecutionResult, type ToolPresentationMode } from '@deepseek-ai/dsh-tools';
import LocalFileSystem from '@deepseek-ai/dsh-fs-local';
import * as ObservationPolicy from '@deepseek-ai/dsh-fs-observation-policy';
import * as FsTools from '@deepseek-ai/dsh-tool-fs';
import * as StrReplaceEditor from '@deepseek-ai/dsh-tool-str-replace-editor';
import WebServer from '@deepseek-ai/dsh-host-webserver';
import type { StatsPayload } from '@dsh-tool-normalizer/telemetry-store';
import type { Agent } from '@deepseek-ai/dsh-agent';
import * as plugin from '../../src/index.js';
import type { ToolNormalizerConfig } from '../../src/index.js';

export const PROVIDER = 'scripted';

/** A real LlmAdapter that replays one scripted list of chunks per request. */
export class ScriptedAdapter extends LlmAdapter {
  readonly requests: GenerateOptions[] = [];
  constructor(private readonly script: StreamChunk[][]) {
    super();
  }
  async *stream(options: GenerateOptions): AsyncIterable<StreamChunk> {
    this.requests.push(options);
    const chunks = this.script.shift() ?? [];
    for (const chunk of chunks) yield deepFreeze(structuredClone(chunk));
  }
}

/** The chunks a provider streams for one tool call (start, one delta, end). */
export function toolCallChunks(index: number, id: string, name: string, args: string): StreamChunk[] {
  return [
    { type: 'block-start', index, blockType: 'tool-call' },
    { type: 'tool-call-delta', index, id: id as never, name, argumentsDelta: args },
    { type: 'block-end', index, block: { type: 'tool-call', id: id as never, name, arguments: args } },
  ];
}

/** The token the dashboard page at `base` gets (a same-origin browser fetch from this machine). */
export async function pageToken(base: string): Promise<string> {
  const response = await fetch(`${base}${plugin.TOKEN_PATH}`, { headers: { 'sec-fetch-site': 'same-origin' } });
  if (response.status !== 200) throw new Error(`token route answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

export interface HostOptions {
  mode?: ToolPresentationMode;
  /** Install the plugin (default true) and with which config. */
  plugin?: boolean | Partial<ToolNormalizerConfig>;
  /**
   * Provide a `tokenMeter` whose `measure()` reports this many tokens (a stand-in: the real meter folds a real
   * session log, which the composition tier has no agent loop to write).
   */
  meteredTokens?: number;
  /** Mount the real web server (127.0.0.1, OS port) before the plugin, as the web profile does. */
  web?: boolean;
  /** The web server's bind address (default 127.0.0.1; `0.0.0.0` is the exposed bind). */
  webHost?: '127.0.0.1' | '0.0.0.0';
  /** Boot as DSH boots profile `<name>`: the root context's `baseUrl` is `…/profiles/<name>/`. */
  profile?: string;
}

export interface Host {
  ctx: Context;
  /** The workspace directory (the session cwd). */
  dir: string;
  agent: Agent;
  /** Writes a file into the workspace and returns its absolute path. */
  file(name: string, content: string): string;
  /** Runs one call through the real pipeline, as the agent loop would (top-level: no parent). */
  execute(
    name: string,
    args: unknown,
    options?: { callId?: string; rootCallId?: string; parent?: symbol; signal?: AbortSignal },
  ): Promise<ToolExecutionResult>;
  /** Streams one scripted model response through `llm/stream` and returns the chunks and the assembled blocks. */
  stream(
    chunks: StreamChunk[],
    presented?: GenerateOptions['tools'],
  ): Promise<{ chunks: StreamChunk[]; blocks: ContentBlock[]; incoming: StreamChunk[] }>;
  /** Every `tools/result` the host emitted, in order. */
  results: { callId: string; name: string; parent: boolean; result: ToolExecutionResult }[];
  /** The plugin's fiber (undefined when installed without the plugin). */
  pluginFiber: Fiber | undefined;
  /** The telemetry directory the plugin writes to. */
  logDir: string;
  /** GET the plugin's stats route (needs `web: true`). */
  stats(query?: string): Promise<StatsPayload & { pluginErrors: number }>;
  /** Disposes the plugin (when installed) and removes the temporary folders. */
  dispose(): Promise<void>;
}

export async function bootHost(options: HostOptions = {}): Promise<Host> {
  const dir = mkdtempSync(join(tmpdir(), 'tn-compose-'));
  const logDir = mkdtempSync(join(tmpdir(), 'tn-logs-'));
  const ctx = new Context();
  if (options.profile !== undefined)
    (ctx as unknown as { baseUrl: string }).baseUrl = `file:///dsh-home/profiles/${options.profile}/`;
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime, options.mode === undefined ? {} : { mode: options.mode });
  await ctx.plugin(LlmRuntime);
  await ctx.plugin(LocalFileSystem, {});
  await ctx.plugin(ObservationPolicy);
  await ctx.plugin(FsTools, {});
  await ctx.plugin(StrReplaceEditor, {});
  const agent = {
    id: 'session-compose',
    options: { model: 'scripted-model' },
    session: { header: { cwd: dir } },
  } as unknown as Agent;
  // The agent registry's lookup by session id (what the plugin uses to find the agent of a model request).
  ctx.provide('agents', { get: (id: string) => (id === agent.id ? agent : undefined) });
  if (options.meteredTokens !== undefined) {
    const totalTokens = options.meteredTokens;
    ctx.provide('tokenMeter', {
      measure: (session: unknown) => ({ totalTokens: session === agent.session ? totalTokens : 0 }),
    });
  }
  const results: Host['results'] = [];
  ctx.on('tools/result', (exec, result) => {
    results.push({ callId: String(exec.callId), name: exec.name, parent: exec.parent !== undefined, result });
  });
  if (options.web) await ctx.plugin(WebServer, { host: options.webHost ?? '127.0.0.1', port: 0 });
  let pluginFiber: Fiber | undefined;
  if (options.plugin !== false) {
    const config = typeof options.plugin === 'object' ? options.plugin : {};
    pluginFiber = await ctx.plugin(plugin, { logDir, ...config });
  }
  const signal = new AbortController().signal;
  let sequence = 0;
  return {
    ctx,
    dir,
    agent,
    results,
    pluginFiber,
    logDir,
    file(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    execute(name, args, extra = {}) {
      const callId = extra.callId ?? `call_${++sequence}`;
      return ctx.tools.execute({
        callId: callId as never,
        name,
        arguments: args,
        agent,
        signal: extra.signal ?? signal,
        ...(extra.parent === undefined ? {} : { parent: extra.parent as never }),
        ...(extra.rootCallId === undefined ? {} : { rootCallId: extra.rootCallId as never }),
      });
    },
    async stats(query = '') {
      const base = `http://127.0.0.1:${ctx.webServer.port}`;
      const headers: Record<string, string> = {};
      if (options.webHost === '0.0.0.0') headers[plugin.TOKEN_HEADER] = await pageToken(base);
      const response = await fetch(`${base}${plugin.STATS_PATH}${query}`, { headers });
      if (response.status !== 200) throw new Error(`stats route answered ${response.status}`);
      return (await response.json()) as StatsPayload & { pluginErrors: number };
    },
    async stream(chunks, presented = ctx.tools.schemas()) {
      const adapter = new ScriptedAdapter([chunks]);
      const dispose = ctx.llm.registerAdapter([PROVIDER], adapter);
      try {
        const request = deepFreeze({
          provider: PROVIDER,
          model: 'scripted-model',
          messages: [],
          tools: presented,
          sessionId: agent.id,
        } as GenerateOptions);
        const out: StreamChunk[] = [];
        const assembler = new BlockAssembler();
        for await (const chunk of ctx.llm.stream(request)) {
          out.push(chunk);
          assembler.push(chunk);
        }
        return { chunks: out, blocks: assembler.blocks(), incoming: chunks };
      } finally {
        dispose();
      }
    },
    async dispose() {
      await pluginFiber?.dispose();
      rmSync(dir, { recursive: true, force: true });
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}
