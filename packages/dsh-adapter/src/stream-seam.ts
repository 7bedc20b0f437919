/**
 * Seam 1, the `llm/stream` waterfall: every finished tool-call block is checked against the host's own rules
 * before the call has an identity, so the history, the audit log and the UI show the call that really ran. This
 * is the only place a Code-Mode direct call can be bridged into run_code (the host rejects it before any
 * `tools/*` listener runs). Incoming chunks are frozen: a repair yields a NEW chunk object; everything else is
 * yielded as the very same object.
 */
import { normalizeCall, resolveToolAlias } from '@dsh-tool-normalizer/core-rules';
import type { Environment } from '@dsh-tool-normalizer/core-rules';
import type { GenerateOptions, StreamChunk, ToolCallBlock } from './host.js';
import type { PluginState } from './plugin-state.js';

type BlockEnd = Extract<StreamChunk, { type: 'block-end' }>;

function isToolCallEnd(chunk: StreamChunk): chunk is BlockEnd & { block: ToolCallBlock } {
  return chunk.type === 'block-end' && chunk.block.type === 'tool-call';
}

/** The `llm/stream` listener. A request that shows the model no tools (e.g. a session title) passes untouched. */
export function createStreamListener(state: PluginState) {
  return function onLlmStream(
    options: GenerateOptions,
    next: () => AsyncIterable<StreamChunk>,
  ): AsyncIterable<StreamChunk> {
    const presented = options.tools;
    if (presented === undefined || presented.length === 0) return next();
    return repairToolCalls(state, options, presented, next());
  };
}

async function* repairToolCalls(
  state: PluginState,
  options: GenerateOptions,
  presented: NonNullable<GenerateOptions['tools']>,
  upstream: AsyncIterable<StreamChunk>,
): AsyncGenerator<StreamChunk> {
  let environment: Environment | undefined;
  for await (const chunk of upstream) {
    if (!isToolCallEnd(chunk)) {
      yield chunk;
      continue;
    }
    let replacement: StreamChunk | undefined;
    try {
      environment ??= state.environment.forRequest(options, presented);
      replacement = repairBlock(state, chunk, environment);
    } catch (error) {
      state.errors.report('llm/stream', error);
    }
    yield replacement ?? chunk;
  }
}

/** Returns the repaired chunk, or undefined to keep the original object. */
function repairBlock(
  state: PluginState,
  chunk: BlockEnd & { block: ToolCallBlock },
  environment: Environment,
): StreamChunk | undefined {
  const block = chunk.block;
  let result = normalizeCall({ name: block.name, arguments: block.arguments }, environment, state.toggles);
  if (!result.changed) {
    // A name registered nowhere with exactly one fitting target is renamed before the call exists: the host
    // cannot answer an unknown name with a success, so a later recovery could not help.
    const alias = resolveToolAlias(result.call, environment, state.toggles);
    if (alias) {
      // The renamed call goes through the rules again (in Code Mode it is then bridged into run_code).
      const renamed = normalizeCall(alias.call, environment, state.toggles);
      result = renamed.changed
        ? { ...renamed, receipts: [alias.receipt, ...renamed.receipts] }
        : { call: alias.call, changed: true, receipts: [alias.receipt] };
    }
  }
  if (!result.changed) {
    const note = result.diagnostic
      ? { modelTool: block.name, tool: block.name, receipts: [], diagnostic: result.diagnostic }
      : undefined;
    state.setStreamNote(String(block.id), note);
    return undefined;
  }
  const repaired: ToolCallBlock = {
    ...block,
    name: result.call.name,
    arguments: JSON.stringify(result.call.arguments),
  };
  state.setStreamNote(String(block.id), {
    modelTool: block.name,
    tool: repaired.name,
    receipts: result.receipts,
    before: block.arguments,
    after: repaired.arguments,
    ...(result.diagnostic ? { diagnostic: result.diagnostic } : {}),
  });
  return { ...chunk, block: repaired };
}
