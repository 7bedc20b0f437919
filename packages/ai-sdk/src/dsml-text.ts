/**
 * DeepSeek served by vLLM or SGLang sometimes leaves a whole DSML tool-call block in the model's text
 * (`finish_reason: "stop"`, no tool calls; sgl-project/sglang #35736), so the agent's turn ends without the call it
 * made. The AI SDK shows a harness the model's output before any tool runs only inside a language-model middleware
 * (`wrapLanguageModel({ model, middleware })`: `wrapGenerate` / `wrapStream`), so that is where core-rules'
 * `kit.repairText` runs: when a response has no tool call and its text holds one complete block whose every call
 * passes every check against the call's tools (`params.tools`), the text loses exactly the block, the calls become
 * tool-call parts and the finish reason becomes `tool-calls`. Anything else comes back as the model sent it.
 */
import { generateId, type LanguageModelMiddleware } from 'ai';
import {
  createRepairKit,
  DSML,
  dshHostChecks,
  type KitTextCall,
  MAX_INPUT_CHARS,
} from '@dsh-tool-normalizer/core-rules';
import type { HealingOptions, RepairReport } from './types.js';

type WrapGenerate = NonNullable<LanguageModelMiddleware['wrapGenerate']>;
type WrapStream = NonNullable<LanguageModelMiddleware['wrapStream']>;
type CallOptions = Parameters<WrapGenerate>[0]['params'];
type GenerateResult = Awaited<ReturnType<WrapGenerate>>;
type Content = GenerateResult['content'][number];
type FinishReason = GenerateResult['finishReason'];
type StreamResult = Awaited<ReturnType<WrapStream>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
type TextDelta = Extract<StreamPart, { type: 'text-delta' }>;

/** Options of `dsmlTextMiddleware`: the kit's (`toggles`, `cwd`, `hostChecks`) and `onReport`. Programs are not healed here. */
export type DsmlTextOptions = Omit<HealingOptions, 'programs'>;

/**
 * What a held text must start before: an opening tag, a closing tag, or the bare marker (any DSML outside the
 * block makes core-rules refuse it, so every DSML character has to be in the text the kit judges).
 */
const STARTS = [`<${DSML}`, `</${DSML}`, DSML];

/** Finishes a leaked block comes with: `stop`, or `tool-calls` with no call (vllm-project/vllm #48931). A cut (`length`) never. */
const ACTS_ON = new Set<string>(['stop', 'tool-calls']);

type Healed = { text: string; calls: { toolCallId: string; toolName: string; input: string }[] };

/** The refusal reported for a DSML block under `toolChoice: 'none'`. */
export const NONE_REASON =
  "toolChoice is 'none': the caller asked for no tool call, so the DSML block stays text and nothing runs";

/** What `repairText` makes of `text` for this call's tools, or undefined (leave the response as it is). */
async function heal(text: string, params: CallOptions, options: DsmlTextOptions): Promise<Healed | undefined> {
  const choice = params.toolChoice;
  if (choice?.type === 'none') {
    // The caller asked for no tool call (the very case of sglang #35736): the block stays text, and says why.
    report(options, { tool: '', reason: NONE_REASON });
    return undefined;
  }
  const tools = (params.tools ?? []).flatMap((tool) =>
    tool.type === 'function' && (choice?.type !== 'tool' || choice.toolName === tool.name)
      ? [
          {
            name: tool.name,
            parameters: tool.inputSchema,
            ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
          },
        ]
      : [],
  );
  if (tools.length === 0) return undefined;
  const kit = createRepairKit(tools, {
    ...(options.toggles ? { toggles: options.toggles } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    hostChecks: options.hostChecks ?? dshHostChecks,
  });
  const answer = await kit.repairText(text);
  if (!answer.ok) {
    report(options, { tool: '', reason: answer.reason });
    return undefined;
  }
  const calls = answer.calls.map((call) => ({
    toolCallId: `dsml-${generateId()}`,
    toolName: call.name,
    input: JSON.stringify(call.args),
  }));
  answer.calls.forEach((call, index) => {
    report(options, { tool: call.name, callId: calls[index]?.toolCallId ?? '', call });
  });
  return { text: answer.text, calls };
}

function report(
  options: DsmlTextOptions,
  what: { tool: string; callId?: string; call?: KitTextCall; reason?: string },
): void {
  if (!options.onReport) return;
  const receipts = what.call?.receipts ?? [];
  const value: RepairReport = {
    seam: 'text',
    callId: what.callId ?? '',
    tool: what.tool,
    requestedTool: what.tool,
    category: 'invalid-args',
    repaired: what.call !== undefined,
    ruleIds: receipts.map((receipt) => receipt.ruleId),
    receipts,
    changes: receipts.map((receipt) => receipt.why),
    before: receipts[0]?.before ?? '',
    ...(what.call ? { after: what.call.args } : {}),
    ...(what.reason !== undefined ? { reason: what.reason } : {}),
  };
  try {
    options.onReport(value);
  } catch {
    // A failing report callback must not change the response.
  }
}

/** `tool-calls`, keeping the provider's raw reason (`stop`) as it sent it. */
function finishWithCalls(reason: FinishReason): FinishReason {
  return { unified: 'tool-calls', raw: reason.raw };
}

async function healGenerated(result: GenerateResult, params: CallOptions, options: DsmlTextOptions) {
  if (!ACTS_ON.has(result.finishReason.unified)) return result;
  if (result.content.some((part) => part.type === 'tool-call' || part.type === 'tool-approval-request')) return result;
  const marked = result.content.flatMap((part, index) =>
    part.type === 'text' && part.text.includes(DSML) ? [index] : [],
  );
  if (marked.length !== 1) return result; // None, or DSML in two text parts: not one block.
  const index = marked[0] as number;
  const part = result.content[index] as Extract<Content, { type: 'text' }>;
  const healed = await heal(part.text, params, options);
  if (!healed) return result;
  const calls: Content[] = healed.calls.map((call) => ({ type: 'tool-call', ...call }));
  const kept: Content[] = healed.text === '' ? [] : [{ ...part, text: healed.text }];
  const content = [...result.content.slice(0, index), ...kept, ...calls, ...result.content.slice(index + 1)];
  return { ...result, content, finishReason: finishWithCalls(result.finishReason) };
}

/** The longest end of `text` that could begin a DSML tag or marker (shorter than the whole of it). */
function openEnd(text: string): number {
  let longest = 0;
  for (const start of STARTS)
    for (let length = Math.min(start.length - 1, text.length); length > longest; length--)
      if (start.startsWith(text.slice(text.length - length))) longest = length;
  return longest;
}

/**
 * The stream, with parts held back only from a text delta that holds (or may begin) a DSML tag: until the next
 * delta shows it does not, or, once a tag has started, until the finish, where the held parts come out either as
 * sent or healed. A response with a tool call, a text past the engine's bound, or a stream ending without its
 * finish comes out as sent. Every part that is not held passes as the very object the model sent.
 */
function healStream(stream: ReadableStream<StreamPart>, params: CallOptions, options: DsmlTextOptions) {
  /** A tool call was seen, or the text passed the kit's bound: everything passes as sent from here. */
  let passing = false;
  /** Deltas of one text whose joined end may begin a tag. */
  let pending: TextDelta[] = [];
  /** Everything from the delta where a tag began, while a block may be open. */
  let held: StreamPart[] | undefined;
  let heldId = '';
  let heldChars = 0;

  const release = (controller: TransformStreamDefaultController<StreamPart>, parts: StreamPart[]) => {
    for (const part of parts) controller.enqueue(part);
  };

  async function atFinish(finish: Extract<StreamPart, { type: 'finish' }>, parts: StreamPart[]) {
    if (!ACTS_ON.has(finish.finishReason.unified)) return undefined;
    if (parts.some((part) => part.type === 'tool-call' || part.type === 'tool-input-start' || part.type === 'error'))
      return undefined;
    const ofBlock = parts.filter((part): part is TextDelta => part.type === 'text-delta' && part.id === heldId);
    const others = parts.filter((part) => part.type === 'text-delta' && part.id !== heldId);
    if (others.some((part) => (part as TextDelta).delta.includes(DSML))) return undefined;
    const healed = await heal(ofBlock.map((part) => part.delta).join(''), params, options);
    if (!healed) return undefined;
    const first = ofBlock[0] as TextDelta;
    const replaced = new Set<StreamPart>(ofBlock);
    const out: StreamPart[] = [];
    for (const part of parts) {
      if (part === first && healed.text !== '') out.push({ ...first, delta: healed.text });
      else if (!replaced.has(part)) out.push(part);
    }
    for (const call of healed.calls) out.push({ type: 'tool-call', ...call });
    out.push({ ...finish, finishReason: finishWithCalls(finish.finishReason) });
    return out;
  }

  return stream.pipeThrough(
    new TransformStream<StreamPart, StreamPart>({
      // Synchronous for every part but a held finish: a pass-through part costs no promise.
      transform(part, controller) {
        if (held) {
          if (part.type === 'text-delta') heldChars += part.delta.length;
          if (part.type === 'finish') {
            const parts = held;
            held = undefined;
            return atFinish(part, parts).then((healed) => release(controller, healed ?? [...parts, part]));
          }
          held.push(part);
          if (heldChars > MAX_INPUT_CHARS) {
            // Past what the kit reads: the text comes out as sent, and nothing more is held.
            release(controller, held);
            held = undefined;
            passing = true;
          }
          return;
        }
        if (part.type === 'tool-call' || part.type === 'tool-input-start') passing = true;
        if (pending[0] && (passing || part.type !== 'text-delta' || pending[0].id !== part.id)) {
          release(controller, pending);
          pending = [];
        }
        if (passing || part.type !== 'text-delta') {
          controller.enqueue(part);
          return;
        }
        if (pending.length === 0 && !part.delta.includes(DSML) && openEnd(part.delta) === 0) {
          controller.enqueue(part);
          return;
        }
        const text = pending.map((delta) => delta.delta).join('') + part.delta;
        pending.push(part);
        if (text.includes(DSML)) {
          held = pending;
          heldId = part.id;
          heldChars = text.length;
          pending = [];
          return;
        }
        // Keep only the deltas that hold the end that may begin a tag.
        let open = openEnd(text);
        let keep = 0;
        while (open > 0 && keep < pending.length) {
          keep++;
          open -= (pending[pending.length - keep] as TextDelta).delta.length;
        }
        release(controller, pending.slice(0, pending.length - keep));
        pending = pending.slice(pending.length - keep);
      },
      flush(controller) {
        // A stream that ends without its finish: everything as sent.
        release(controller, [...pending, ...(held ?? [])]);
      },
    }),
  );
}

/**
 * Under `toolChoice: 'none'` a stream passes as sent, every part at once; when its text held DSML, one refusal is
 * reported at the finish (the marker may be split across deltas, so the end of the text so far is kept).
 */
function reportUnderNone(stream: ReadableStream<StreamPart>, options: DsmlTextOptions) {
  let tail = '';
  let seen = false;
  return stream.pipeThrough(
    new TransformStream<StreamPart, StreamPart>({
      transform(part, controller) {
        controller.enqueue(part);
        if (part.type === 'text-delta' && !seen) {
          const text = tail + part.delta;
          seen = text.includes(DSML);
          tail = text.slice(-(DSML.length - 1));
        }
        if (part.type === 'finish' && seen) {
          seen = false;
          report(options, { tool: '', reason: NONE_REASON });
        }
      },
    }),
  );
}

/**
 * A language-model middleware that turns a DSML tool-call block left in the model's text into the tool calls it
 * names: `wrapLanguageModel({ model, middleware: dsmlTextMiddleware() })`. Only a response with no tool call, a
 * `stop` (or empty `tool-calls`) finish and one complete block whose every call passes every check is changed.
 */
export function dsmlTextMiddleware(options: DsmlTextOptions = {}): LanguageModelMiddleware {
  return {
    specificationVersion: 'v4',
    wrapGenerate: async ({ doGenerate, params }) => healGenerated(await doGenerate(), params, options),
    wrapStream: async ({ doStream, params }) => {
      const result = await doStream();
      if (!params.tools?.some((tool) => tool.type === 'function')) return result;
      if (params.toolChoice?.type === 'none')
        return options.onReport ? { ...result, stream: reportUnderNone(result.stream, options) } : result;
      return { ...result, stream: healStream(result.stream, params, options) };
    },
  };
}
