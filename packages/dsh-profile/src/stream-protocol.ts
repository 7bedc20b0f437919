/**
 * DSH's `llm/stream` protocol, as far as the plugin's stream seam acts on it: the chunk and block types, the finish
 * kinds, the degenerate-completion failure the host retries, the Code-Mode transport tool and the presentation
 * modes a request's tool list implies. Read in the rc.8 packages (`@deepseek-ai/dsh-llm` 0.1.0-rc.8
 * `lib/index.js` `BlockAssembler`; `@deepseek-ai/dsh-llm-deepseek` 0.1.0-rc.8 `lib/index.js` `translate` and
 * `mapFinishReason`; `@deepseek-ai/dsh-agent-loop` 0.1.0-rc.8 `lib/index.js`, the step that runs tool calls);
 * prose and line numbers in docs/host-facts.md ("The llm/stream protocol"). The seam also relies on two assembler
 * rules stated there: a `block-end` sets its block whatever deltas streamed before, and a `block-end` for an index
 * never opened adds that block.
 */

/** The tool Code Mode presents (the only one in `code`, beside native tools in `both`); its name on every release. */
export const CODE_MODE_TOOL = 'run_code';

/** How a request presents tools, read from the tools it shows the model (`options.tools`). */
export type PresentationMode = 'native' | 'code' | 'both';

/** The presentation mode a request's tool list implies: only run_code is Code Mode, run_code beside others `both`. */
export function presentationModeOf(presented: readonly { name: string }[]): PresentationMode {
  if (!presented.some((tool) => tool.name === CODE_MODE_TOOL)) return 'native';
  return presented.length === 1 ? 'code' : 'both';
}

/** Chunk `type`s and content-block `type`s of the stream (`StreamChunk`, `ContentBlock`). */
export const STREAM_CHUNK = {
  blockStart: 'block-start',
  blockEnd: 'block-end',
  textDelta: 'text-delta',
  usage: 'usage',
  finish: 'finish',
} as const;

export const CONTENT_BLOCK = {
  text: 'text',
  reasoning: 'reasoning',
  toolCall: 'tool-call',
} as const;

/**
 * Finish kinds (`FinishReason.kind`). The deepseek adapter maps the wire's `stop` to `stop`, `tool_calls` to
 * `tool-calls`, `length` to `max-tokens`, anything else to `error`. The agent loop runs every tool-call block of a
 * message whatever the finish kind says, except `max-tokens`, whose tool calls the assembler drops; `error` and
 * `aborted` go to `agent/request-error` (retry or fail) and append no message.
 */
export const FINISH_KIND = {
  stop: 'stop',
  toolCalls: 'tool-calls',
  maxTokens: 'max-tokens',
  error: 'error',
  aborted: 'aborted',
} as const;

/**
 * The failure the deepseek adapter finishes with when a completion has no content block at all and a `stop` (or
 * no) finish: retried by the host's request-error policy like any retryable provider failure.
 */
export const EMPTY_RESPONSE = {
  code: 'EMPTY_RESPONSE',
  message: 'model returned a completed response with no content',
} as const;
