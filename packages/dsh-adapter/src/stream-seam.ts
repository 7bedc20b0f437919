/**
 * Seam 1, the `llm/stream` waterfall: every finished tool-call block is checked against the host's own rules
 * before the call has an identity, so the history, the audit log and the UI show the call that really ran. This
 * is the only place a Code-Mode direct call can be bridged into run_code (the host rejects it before any
 * `tools/*` listener runs). Two DeepSeek-over-vLLM/SGLang shapes are settled here too (docs/host-facts.md, "The
 * llm/stream protocol"):
 * - a whole DSML tool-call block left in the text with no tool call: the text block's end is held until the
 *   finish, and when the block is complete and every call it names passes the host's checks (core-rules
 *   `dsmlTextCalls`), the text loses exactly the block and the calls are added as tool-call blocks;
 * - a `tool-calls` finish with no tool call and no text: answered as the host answers a completion with no
 *   content (its EMPTY_RESPONSE failure, which its request-error policy retries) instead of an empty turn.
 * Chunk types, finish kinds and the failure come from the host profile (`@dsh-tool-normalizer/dsh-profile`).
 * Incoming chunks are frozen: a repair yields a NEW chunk object; everything else is yielded as the very same object.
 */
import { randomUUID } from 'node:crypto';
import { DSML, dsmlTextCalls, repairCall } from '@dsh-tool-normalizer/core-rules';
import type { Environment } from '@dsh-tool-normalizer/core-rules';
import { CONTENT_BLOCK, EMPTY_RESPONSE, FINISH_KIND, STREAM_CHUNK } from '@dsh-tool-normalizer/dsh-profile';
import type { GenerateOptions, StreamChunk, ToolCallBlock } from './host.js';
import type { PluginState } from './plugin-state.js';

type BlockEnd = Extract<StreamChunk, { type: 'block-end' }>;
type Finish = Extract<StreamChunk, { type: 'finish' }>;
type TextBlockEnd = BlockEnd & { block: { type: 'text'; text: string } };
type Presented = NonNullable<GenerateOptions['tools']>;

function isToolCallEnd(chunk: StreamChunk): chunk is BlockEnd & { block: ToolCallBlock } {
  return chunk.type === STREAM_CHUNK.blockEnd && chunk.block.type === CONTENT_BLOCK.toolCall;
}

function isTextEnd(chunk: StreamChunk): chunk is TextBlockEnd {
  return chunk.type === STREAM_CHUNK.blockEnd && chunk.block.type === CONTENT_BLOCK.text;
}

/** The `llm/stream` listener. A request that shows the model no tools (e.g. a session title) passes untouched. */
export function createStreamListener(state: PluginState) {
  return function onLlmStream(
    options: GenerateOptions,
    next: () => AsyncIterable<StreamChunk>,
  ): AsyncIterable<StreamChunk> {
    const presented = options.tools;
    if (presented === undefined || presented.length === 0) return next();
    return repairStream(state, options, presented, next());
  };
}

/** What the seam has seen of one response so far. */
interface Seen {
  maxIndex: number;
  toolCalls: number;
  /** Any text block with more than whitespace. */
  text: boolean;
}

async function* repairStream(
  state: PluginState,
  options: GenerateOptions,
  presented: Presented,
  upstream: AsyncIterable<StreamChunk>,
): AsyncGenerator<StreamChunk> {
  let environment: Environment | undefined;
  const env = () => {
    environment ??= state.environment.forRequest(options, presented);
    return environment;
  };
  const seen: Seen = { maxIndex: -1, toolCalls: 0, text: false };
  // A text block's end that holds DSML markup, and the chunks after it, until the finish decides.
  let held: StreamChunk[] | undefined;
  for await (const chunk of upstream) {
    if ('index' in chunk && typeof chunk.index === 'number') seen.maxIndex = Math.max(seen.maxIndex, chunk.index);
    if (chunk.type === STREAM_CHUNK.finish) {
      yield* settle(state, env, seen, held ?? [], chunk);
      held = undefined;
      continue;
    }
    const out = isToolCallEnd(chunk) ? repairToolCallEnd(state, chunk, env, seen) : chunk;
    if (isTextEnd(chunk)) {
      if (chunk.block.text.trim() !== '') seen.text = true;
      if (held === undefined && mayHoldCalls(chunk.block.text)) {
        held = [chunk];
        continue;
      }
    }
    if (held) held.push(out);
    else yield out;
  }
  // A stream that ends without a finish: the host reads it as `stop`.
  if (held) yield* settle(state, env, seen, held, undefined);
}

/** Cheap pre-check: only text with DSML markup is held back. */
function mayHoldCalls(text: string): boolean {
  return text.includes(DSML);
}

/** The held chunks and the finish, with the text's DSML calls made real, or the empty tool-calls finish settled. */
function* settle(
  state: PluginState,
  env: () => Environment,
  seen: Seen,
  held: StreamChunk[],
  finish: Finish | undefined,
): Generator<StreamChunk> {
  let replaced: StreamChunk[] | undefined;
  const kind = finish?.reason.kind ?? FINISH_KIND.stop;
  const first = held[0];
  if (
    first &&
    isTextEnd(first) &&
    seen.toolCalls === 0 &&
    (kind === FINISH_KIND.stop || kind === FINISH_KIND.toolCalls)
  ) {
    try {
      replaced = callsFromText(state, env(), first, seen);
    } catch (error) {
      state.errors.report('llm/stream', error);
    }
  }
  if (replaced) {
    yield* replaced;
    yield* held.slice(1);
    if (finish) yield kind === FINISH_KIND.toolCalls ? finish : { ...finish, reason: { kind: FINISH_KIND.toolCalls } };
    return;
  }
  yield* held;
  if (!finish) return;
  if (kind === FINISH_KIND.toolCalls && seen.toolCalls === 0 && !seen.text) {
    // `finish_reason: "tool_calls"` with an empty list and nothing to show: the host's own empty-response failure.
    yield { ...finish, reason: { kind: FINISH_KIND.error, failure: { ...EMPTY_RESPONSE } } };
    return;
  }
  yield finish;
}

/** The text block's end without the DSML block, then one tool-call block per call; undefined to keep the text. */
function callsFromText(
  state: PluginState,
  environment: Environment,
  chunk: TextBlockEnd,
  seen: Seen,
): StreamChunk[] | undefined {
  const found = dsmlTextCalls(chunk.block.text, environment, state.toggles);
  if (!found.ok) return undefined;
  const chunks: StreamChunk[] = [{ ...chunk, block: { ...chunk.block, text: found.text } }];
  for (const call of found.calls) {
    seen.maxIndex += 1;
    seen.toolCalls += 1;
    const id = `call_dsml_${randomUUID().replaceAll('-', '')}`;
    const block = {
      type: CONTENT_BLOCK.toolCall,
      id,
      name: call.call.name,
      arguments: JSON.stringify(call.call.arguments),
    } as ToolCallBlock;
    state.setStreamNote(id, {
      modelTool: call.modelName,
      tool: call.call.name,
      receipts: call.receipts,
      before: call.markup,
      after: block.arguments,
    });
    chunks.push({ type: STREAM_CHUNK.blockEnd, index: seen.maxIndex, block } as BlockEnd);
  }
  return chunks;
}

/** The chunk with its call repaired, or the very same chunk. */
function repairToolCallEnd(
  state: PluginState,
  chunk: BlockEnd & { block: ToolCallBlock },
  env: () => Environment,
  seen: Seen,
): StreamChunk {
  seen.toolCalls += 1;
  try {
    return repairBlock(state, chunk, env()) ?? chunk;
  } catch (error) {
    state.errors.report('llm/stream', error);
    return chunk;
  }
}

/** Returns the repaired chunk, or undefined to keep the original object. */
function repairBlock(
  state: PluginState,
  chunk: BlockEnd & { block: ToolCallBlock },
  environment: Environment,
): StreamChunk | undefined {
  const block = chunk.block;
  // A name registered nowhere with exactly one fitting target is renamed before the call exists (repairCall): the
  // host cannot answer an unknown name with a success, so a later recovery could not help.
  const result = repairCall({ name: block.name, arguments: block.arguments }, environment, state.toggles);
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
