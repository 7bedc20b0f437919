/**
 * Reads one DSH session log line by line (the JSONL text inside `session.jsonl.zstd`) and keeps only what the
 * analysis needs, so a session of any length costs memory in proportion to its failed calls, not its size:
 * the tools presented to the model (`request/header`), each call as the model streamed it (`tool-call-chunks`) and
 * as it ran (`tool/call`), results (`tool/result`), Code-Mode sub-calls (`tool/code-dispatch`, `tool/ptc-dispatch`
 * from 0.1.7), the system prompt (`request/header` on rc.8, a `system/message` node from format 3) and the usage of
 * every model request (`assistant/message`), from which the cost of a failure is read. Log formats 0 to 4 are read;
 * the header's format version says which release wrote the log (see `dsh-releases.ts`).
 *
 * DSH has written `tool/result` in two shapes, and real logs hold both: the current one wraps the result in a
 * tool message (`data.message.content[]` holds a `tool-result` block with `isError`, `data.error` the host's
 * `{ name, code }`); the other is flat (`data.callId`, `data.content`, `data.isError`, and `data.error` as
 * `{ name, code }`, `{ message, info: { name, code } }` or `{ message }`). Both are read; each result is counted
 * once. A call or result event in neither shape makes the log skipped, never silently left out.
 */
import {
  callIdentity,
  classifyResult,
  type Environment,
  failureFingerprint,
  type ToolCall,
  type ToolResultLike,
  type ToolSchema,
} from '@dsh-tool-normalizer/core-rules';
import { previewText } from '@dsh-tool-normalizer/telemetry-store/query';
import {
  codeFromMessage,
  type FailedSubCall,
  type Replay,
  replayFailure,
  resultOf,
  successRewrite,
} from './counterfactual.js';
import { ERROR_TEXT_PREFIX, hostDecisionOf, SUB_CALL_EVENTS } from '@dsh-tool-normalizer/dsh-profile';
import { isMockUsage, releaseOfFormat } from './dsh-releases.js';
import { schemasFromSdk } from './sdk-schemas.js';
import type { FailureCost, FailureRecord, PluginEvidence, ReplayBasis, SessionAnalysis } from './types.js';

/** A receipt from the plugin's event log, reduced to what joins it to a session. */
export interface Receipt {
  /** The call id, or {@link ANONYMOUS_RECEIPTS} when the log does not carry a usable one (that list is sorted by time). */
  callId: string;
  /** The tool name as the model sent it. */
  tool: string;
  at: number;
  outcome: string;
}

/**
 * Key of receipts without a usable call id (a log that redacted it). They are joined to a call of the same tool
 * whose result the session log records within {@link ANONYMOUS_JOIN_MS} of the receipt.
 */
export const ANONYMOUS_RECEIPTS = '';
const ANONYMOUS_JOIN_MS = 500;

/** Why a log is not analysed; the caller lists it under "skipped". */
export class SkipSession extends Error {}

const PREVIEW_CHARS = 160;
const HINT_MARK = '\nHint: ';
/** Characters per token of DSH's own estimate (its token meter uses about 4). */
const CHARS_PER_TOKEN = 4;

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);

/** JSON text with object keys sorted, or undefined when the text is not JSON. */
function canonicalJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
      isRecord(value)
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, value[key]]),
          )
        : value,
    );
  } catch {
    return undefined;
  }
}

/** Whether two argument texts carry the same JSON value (DSH may re-serialize what the model streamed). */
function sameJson(a: string, b: string): boolean {
  if (a === b) return true;
  const left = canonicalJson(a);
  return left !== undefined && left === canonicalJson(b);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (isRecord(part) && typeof part.text === 'string') text += part.text;
  return text;
}

function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** One `tool/result` event, whichever shape it was written in. */
interface ToolResultEvent {
  callId: string;
  content: unknown;
  isError: boolean;
  /** The host's error code and error class name, when recorded. */
  code: string | undefined;
  errorName: string | undefined;
}

/**
 * Reads a `tool/result` event's data in either shape DSH writes (see the file header), or undefined when it is in
 * neither. The wrapped shape is preferred when an event carries both.
 */
export function readToolResult(data: Json): ToolResultEvent | undefined {
  const error = isRecord(data.error) ? data.error : {};
  const info = isRecord(error.info) ? error.info : {};
  const code = str(error.code) ?? str(info.code);
  const errorName = str(error.name) ?? str(info.name);
  if (isRecord(data.message)) {
    const message = data.message;
    const source = isRecord(message.source) ? message.source : {};
    const blocks = Array.isArray(message.content) ? message.content : [];
    const block = blocks.find((part) => isRecord(part) && part.type === 'tool-result') as Json | undefined;
    const callId = str(source.callId) ?? str(block?.toolCallId);
    if (callId && block) return { callId, content: block.content, isError: block.isError === true, code, errorName };
  }
  const callId = str(data.callId);
  if (callId && (Array.isArray(data.content) || typeof data.content === 'string')) {
    return { callId, content: data.content, isError: data.isError === true, code, errorName };
  }
  return undefined;
}

interface PendingCall {
  name: string;
  argumentsText: string;
  /** What the model streamed, when it differs from what ran. */
  raw: { name: string; argumentsText: string } | undefined;
  model: string | undefined;
}

/** Per-request usage as DSH records it (`assistant/message` `usage`). */
interface Usage {
  uncachedInput: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Characters the log replaced by a placeholder (normalized fixtures): an estimate cannot include them. */
const PLACEHOLDER = /^\{\{[\w-]+\}\}$/;
/** Times before 2001 are zeroed or projected fixture times, not real ones. */
const REAL_TIME_FROM = 978_307_200_000;
const MAX_CHANGED_SUCCESSES = 200;

function emptyCost(): FailureCost {
  return { source: 'none', uncachedInput: 0, cacheRead: 0, cacheWrite: 0, estimated: 0, lowerBound: false };
}

/** `total` split into `parts` integer shares that add up to it. */
function shares(total: number, parts: number): number[] {
  const share = Math.floor(total / parts);
  return Array.from({ length: parts }, (_, index) => share + (index < total - share * parts ? 1 : 0));
}

export class SessionParser {
  private lineNumber = 0;
  private analysis: SessionAnalysis;
  private release = releaseOfFormat(undefined);
  private env: Environment | undefined;
  private tools: ToolSchema[] | undefined;
  private systemPrompt = '';
  private readonly rawCalls = new Map<string, { name: string; argumentsText: string }>();
  private readonly pending = new Map<string, PendingCall>();
  private readonly failedSubCalls = new Map<string, FailedSubCall[]>();
  private readonly awaitingCost: FailureRecord[] = [];
  private readonly callIds = new Set<string>();
  private readonly healedCallIds = new Set<string>();
  private evidence = { repairedCalls: 0, hintedErrors: 0, healSubCalls: 0 };
  private model: string | undefined;
  private lastContextTokens: number | undefined;
  private charsSinceUsage = 0;
  private totalChars = 0;
  /** Characters of the system prompt and tool schemas, and whether the log replaced either by a placeholder. */
  private requestChars = 0;
  private requestPlaceholder = false;
  private firstTime: number | undefined;
  private lastTime: number | undefined;
  /** Each result's call id, tool names (streamed and ran) and time: joins receipts that lack a call id. */
  private readonly resultTimes: { callId: string; tools: string[]; time: number }[] = [];

  /**
   * `limits.maxPendingCalls`: calls (and streamed calls) awaiting their result that may be held at once; past it the
   * log is skipped with `limits.overBound` (a log of calls that never get a result would otherwise hold them all).
   */
  constructor(
    file: string,
    private readonly limits: { maxPendingCalls: number; overBound: string } = {
      maxPendingCalls: Number.POSITIVE_INFINITY,
      overBound: '',
    },
  ) {
    this.analysis = {
      file,
      sessionId: '',
      cwd: undefined,
      format: undefined,
      release: this.release.label,
      mode: 'unknown',
      toolsRecorded: false,
      models: [],
      toolCalls: 0,
      toolResults: 0,
      successesByTool: Object.create(null) as Record<string, number>,
      errors: 0,
      subCalls: 0,
      subCallErrors: 0,
      failures: [],
      changedSuccesses: [],
      changedSuccessCount: 0,
      changedSuccessUndeclared: 0,
      byDay: Object.create(null) as Record<string, { calls: number; errors: number }>,
      plugin: undefined,
    };
  }

  /** Feeds one line of the log. Throws {@link SkipSession} for a foreign or corrupt log. */
  push(line: string): void {
    this.lineNumber += 1;
    if (line.trim() === '') return;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      throw new SkipSession(
        this.lineNumber === 1
          ? 'not JSON lines (first line is not JSON)'
          : `line ${this.lineNumber} is not JSON (corrupt or torn)`,
      );
    }
    if (!isRecord(event)) throw new SkipSession(`line ${this.lineNumber} is not a JSON object`);
    if (this.lineNumber === 1) {
      if (event.type !== 'session') throw new SkipSession('not a DSH session log (first line is not a session header)');
      this.analysis.sessionId = str(event.id) ?? '';
      const cwd = str(event.cwd);
      this.analysis.cwd = cwd?.startsWith('/') ? cwd : undefined;
      const format = typeof event.version === 'number' ? event.version : undefined;
      this.release = releaseOfFormat(format);
      this.analysis.format = format;
      this.analysis.release = this.release.label;
      return;
    }
    const time = typeof event.time === 'number' ? event.time : undefined;
    if (time !== undefined) {
      this.firstTime ??= time;
      this.lastTime = time;
    }
    const data = isRecord(event.data) ? event.data : {};
    switch (event.type) {
      case 'request/header':
        this.onHeader(isRecord(data.header) ? data.header : {});
        break;
      case 'request/header-delta':
        if (Array.isArray(data.tools)) this.onHeader({ tools: data.tools });
        break;
      case 'system/message': {
        // Format 3 and later: the rendered prompt is a surface node, not a header field.
        const message = isRecord(data.message) ? data.message : data;
        this.systemPrompt = textOf(message.content) || (str(message.text) ?? '');
        this.requestChars = this.systemPrompt.length;
        this.requestPlaceholder = PLACEHOLDER.test(this.systemPrompt.trim());
        if (this.tools) this.buildEnv();
        break;
      }
      case 'tool-call-chunks': {
        // One call's deltas may span several events: append until its tool/call arrives.
        const id = str(data.id);
        const name = str(data.name);
        if (!id || !name || !Array.isArray(data.args)) break;
        const text = data.args.filter((part) => typeof part === 'string').join('');
        const earlier = this.rawCalls.get(id);
        this.rawCalls.set(id, { name, argumentsText: (earlier?.argumentsText ?? '') + text });
        if (this.rawCalls.size > this.limits.maxPendingCalls)
          throw new SkipSession(`${this.limits.overBound} (line ${this.lineNumber})`);
        break;
      }
      case 'assistant/message':
        this.onAssistantMessage(data);
        break;
      case 'user/message':
        this.onUserMessage(data);
        break;
      case 'tool/call':
        this.onCall(data);
        break;
      case 'tool/result':
        // `surfaceOp: { op: 'replace', … }` rewrites an earlier result's content (DSH allows nothing else to change):
        // not a new result. Logs written before the marker existed carry none.
        if (event.surfaceOp === undefined || event.surfaceOp === 'append') this.onResult(data);
        break;
      default:
        if (typeof event.type === 'string' && SUB_CALL_EVENTS.has(event.type)) this.onSubCall(data);
    }
  }

  private addChars(chars: number): void {
    this.charsSinceUsage += chars;
    this.totalChars += chars;
  }

  private onHeader(header: Json): void {
    const config = isRecord(header.config) ? header.config : {};
    const model = str(config.model);
    if (model) this.noteModel(model);
    if (typeof header.system === 'string') {
      this.systemPrompt = header.system;
      this.requestPlaceholder = PLACEHOLDER.test(header.system.trim());
    }
    const tools = header.tools;
    if (typeof tools === 'string' && PLACEHOLDER.test(tools.trim())) this.requestPlaceholder = true;
    if (!Array.isArray(tools)) {
      if (tools !== undefined) {
        this.env = undefined;
        this.tools = undefined;
      }
      this.requestChars = this.systemPrompt.length;
      return;
    }
    const presented: ToolSchema[] = [];
    for (const tool of tools) {
      if (isRecord(tool) && typeof tool.name === 'string')
        presented.push({ name: tool.name, parameters: tool.parameters ?? { type: 'object' } });
    }
    this.tools = presented;
    this.requestChars = this.systemPrompt.length + argumentsText(tools).length;
    this.buildEnv();
  }

  private buildEnv(): void {
    const presented = this.tools ?? [];
    const names = new Set(presented.map((tool) => tool.name));
    // Code Mode is `code` on rc.8 and `ptc` from 0.1.7: either way the model sees `run_code`, with an SDK in the prompt.
    const hasRunCode = names.has('run_code');
    const mode = hasRunCode ? (names.size === 1 ? 'code' : 'both') : 'native';
    const inner =
      hasRunCode && this.systemPrompt ? schemasFromSdk(this.systemPrompt).filter((tool) => !names.has(tool.name)) : [];
    this.analysis.mode = mode;
    this.analysis.toolsRecorded = true;
    this.env = { tools: [...presented, ...inner], mode, ...(this.analysis.cwd ? { cwd: this.analysis.cwd } : {}) };
  }

  /** The known schemas of the release that wrote the log, as an environment (when the log recorded no tools). */
  private releaseEnv(): Environment | undefined {
    if (!this.release.schemas) return undefined;
    return {
      tools: this.release.schemas,
      mode: 'both',
      ...(this.analysis.cwd ? { cwd: this.analysis.cwd } : {}),
    };
  }

  private noteModel(model: string): void {
    this.model = model;
    if (!this.analysis.models.includes(model)) this.analysis.models.push(model);
  }

  private onUserMessage(data: Json): void {
    this.addChars(textOf(data.content).length);
    const source = isRecord(data.source) ? data.source : undefined;
    // A person's new message (source `user`; older logs carry no source): the next request answers it, not the
    // failures before it. Injected context and producer-owned sources (`plugin:<id>`, format 4) are not a new turn.
    if (source !== undefined && source.kind !== 'user') return;
    for (const failure of this.awaitingCost) failure.cost.source = 'new-user-turn';
    this.awaitingCost.length = 0;
  }

  private onAssistantMessage(data: Json): void {
    // Two shapes: `data.message` (content, `source.model`), or older flat `data.content` with `data.provenance`.
    const message = isRecord(data.message) ? data.message : data;
    const source = isRecord(message.source) ? message.source : {};
    const provenance = isRecord(data.provenance)
      ? data.provenance
      : isRecord(message.provenance)
        ? message.provenance
        : {};
    const model = str(source.model) ?? str(provenance.model);
    if (model) this.noteModel(model);
    const usage = isRecord(data.usage) ? data.usage : undefined;
    const split: Usage | undefined = usage
      ? {
          uncachedInput: num(usage.inputTokens),
          cacheRead: num(usage.cacheReadTokens),
          cacheWrite: num(usage.cacheWriteTokens),
        }
      : undefined;
    const measured = split ? split.uncachedInput + split.cacheRead + split.cacheWrite : 0;
    const mock = usage !== undefined && measured > 0 && isMockUsage(model ?? this.model, usage);
    if (this.awaitingCost.length > 0) this.chargeFailures(split, measured, mock);
    if (measured > 0 && !mock) {
      this.lastContextTokens = measured;
      this.charsSinceUsage = 0;
    }
    let chars = 0;
    if (Array.isArray(message.content)) {
      for (const block of message.content) {
        if (!isRecord(block)) continue;
        chars += (str(block.text)?.length ?? 0) + (str(block.arguments)?.length ?? 0);
      }
    }
    this.addChars(chars);
  }

  /** Shares this request's context among the failures it answered, by billing kind. */
  private chargeFailures(split: Usage | undefined, measured: number, mock: boolean): void {
    const failures = this.awaitingCost;
    if (split && measured > 0) {
      const parts = failures.length;
      const uncached = shares(split.uncachedInput, parts);
      const read = shares(split.cacheRead, parts);
      const write = shares(split.cacheWrite, parts);
      failures.forEach((failure, index) => {
        Object.assign(failure.cost, {
          source: mock ? 'mock' : 'measured',
          uncachedInput: uncached[index] ?? 0,
          cacheRead: read[index] ?? 0,
          cacheWrite: write[index] ?? 0,
        });
      });
    } else {
      const base = this.lastContextTokens;
      const chars = base === undefined ? this.totalChars + this.requestChars : this.charsSinceUsage;
      const tokens = (base ?? 0) + Math.ceil(chars / CHARS_PER_TOKEN);
      const lowerBound = base === undefined && this.requestPlaceholder;
      shares(tokens, failures.length).forEach((share, index) => {
        Object.assign(failures[index]?.cost ?? {}, { source: 'estimated', estimated: share, lowerBound });
      });
    }
    failures.length = 0;
  }

  private onCall(data: Json): void {
    const callId = str(data.callId);
    const name = str(data.name);
    if (!callId || !name) throw new SkipSession(`line ${this.lineNumber}: a tool/call without a call id or tool name`);
    this.analysis.toolCalls += 1;
    this.countDay('calls');
    this.callIds.add(callId);
    const text = argumentsText(data.arguments);
    const streamed = this.rawCalls.get(callId);
    this.rawCalls.delete(callId);
    const raw = streamed && (streamed.name !== name || !sameJson(streamed.argumentsText, text)) ? streamed : undefined;
    if (raw) this.evidence.repairedCalls += 1;
    this.pending.set(callId, { name, argumentsText: text, raw, model: this.model });
    if (this.pending.size > this.limits.maxPendingCalls)
      throw new SkipSession(`${this.limits.overBound} (line ${this.lineNumber})`);
  }

  private countDay(field: 'calls' | 'errors'): void {
    if (this.lastTime === undefined || this.lastTime < REAL_TIME_FROM) return;
    const day = new Date(this.lastTime).toISOString().slice(0, 10);
    const counts = this.analysis.byDay[day] ?? { calls: 0, errors: 0 };
    counts[field] += 1;
    this.analysis.byDay[day] = counts;
  }

  private onSubCall(data: Json): void {
    this.analysis.subCalls += 1;
    const subCallId = str(data.subCallId) ?? '';
    if (subCallId.includes(':heal:')) this.evidence.healSubCalls += 1;
    if (data.isError !== true) return;
    this.analysis.subCallErrors += 1;
    const parent = str(data.parentCallId) ?? str(data.rootCallId);
    const name = str(data.name);
    if (!parent || !name) return;
    // Some logs record a sub-call's result as `resultSummary` text instead of `content` parts.
    const text = textOf(data.content) || (str(data.resultSummary) ?? '');
    const message = text.startsWith(ERROR_TEXT_PREFIX) ? text.slice(ERROR_TEXT_PREFIX.length) : text;
    const code = isRecord(data.error) ? str(data.error.code) : undefined;
    const list = this.failedSubCalls.get(parent) ?? [];
    if (list.length < 64) list.push({ name, arguments: data.arguments, message, code });
    this.failedSubCalls.set(parent, list);
  }

  private onResult(data: Json): void {
    const read = readToolResult(data);
    if (!read)
      throw new SkipSession(
        `line ${this.lineNumber}: a tool/result in neither shape DSH writes (no call id or content)`,
      );
    const { callId } = read;
    this.analysis.toolResults += 1;
    const text = textOf(read.content);
    this.addChars(text.length);
    const call = this.pending.get(callId);
    this.pending.delete(callId);
    if (this.lastTime !== undefined && call)
      this.resultTimes.push({
        callId,
        tools: call.raw ? [call.raw.name, call.name] : [call.name],
        time: this.lastTime,
      });
    const subCalls = this.failedSubCalls.get(callId) ?? [];
    this.failedSubCalls.delete(callId);
    if (!read.isError) {
      if (call?.raw) this.healedCallIds.add(callId);
      else if (call) this.checkSuccess(callId, call);
      const tool = call?.name ?? 'unknown';
      this.analysis.successesByTool[tool] = (this.analysis.successesByTool[tool] ?? 0) + 1;
      return;
    }
    this.analysis.errors += 1;
    this.countDay('errors');
    const hintAt = text.indexOf(HINT_MARK);
    if (hintAt >= 0) this.evidence.hintedErrors += 1;
    const shown = hintAt >= 0 ? text.slice(0, hintAt) : text;
    const original = shown.startsWith(ERROR_TEXT_PREFIX) ? shown.slice(ERROR_TEXT_PREFIX.length) : shown;
    // The plugin's hint replaces the host's result, which drops the error code: read it back from the text.
    const code = read.code ?? (hintAt >= 0 ? codeFromMessage(original) : undefined);
    const name = call?.raw?.name ?? call?.name ?? 'unknown';
    const args = call?.raw?.argumentsText ?? call?.argumentsText ?? '';
    const result = resultOf(original, code, read.errorName);
    const classification = classifyResult({ name, arguments: args }, result);
    const { category } = classification;
    const prediction = call
      ? this.predict({ name, arguments: args }, result, code, original, category, subCalls)
      : {
          replay: { outcome: 'unknown' as const, ruleId: undefined, innerTool: undefined },
          basis: 'none' as const,
          basisNote: 'no tool/call event for this result in the log',
        };
    const failure: FailureRecord = {
      file: this.analysis.file,
      line: this.lineNumber,
      sessionId: this.analysis.sessionId,
      callId,
      tool: name,
      code,
      category,
      model: call?.model ?? this.model,
      outcome: prediction.replay.outcome,
      ruleId: prediction.replay.ruleId,
      innerTool: prediction.replay.innerTool,
      basis: prediction.basis,
      basisNote: prediction.basisNote,
      unrelatedRewrite: prediction.replay.unrelatedRewrite,
      cost: emptyCost(),
      at: this.lastTime !== undefined && this.lastTime >= REAL_TIME_FROM ? this.lastTime : undefined,
      // The plugin's own "identical failure" (same tool, same canonical arguments, same code); a cancelled call,
      // which the plugin never counts, is still grouped by its call.
      identity:
        failureFingerprint({ name, arguments: args }, result, classification) ??
        `${callIdentity({ name, arguments: args }) ?? name}\u0000${category}`,
      argumentsPreview: previewText(args, PREVIEW_CHARS),
      errorPreview: previewText(original, PREVIEW_CHARS),
    };
    this.analysis.failures.push(failure);
    this.awaitingCost.push(failure);
  }

  /**
   * The prediction for one failed call and what it rests on: the tools the log recorded; else, for an error that
   * is a host decision (policy, sandbox, hook, abort, PTY, subagent, limits), the error class; else the known
   * schemas of the release that wrote the log. An unknown tool stays unknown without the session's own tool list.
   */
  private predict(
    call: ToolCall,
    result: ToolResultLike,
    code: string | undefined,
    message: string,
    category: string,
    subCalls: readonly FailedSubCall[],
  ): { replay: Replay; basis: ReplayBasis; basisNote: string } {
    if (this.env)
      return {
        replay: replayFailure(call, result, this.env, subCalls),
        basis: 'recorded-tools',
        basisNote: 'the tools this session presented (recorded in the log)',
      };
    const decision = hostDecisionOf(code, message);
    const stand = this.releaseEnv();
    if (decision)
      return {
        replay: replayFailure(call, result, stand ?? { tools: [], mode: 'both' }, subCalls),
        basis: 'error-class',
        basisNote: `error class: ${decision.label} (a host decision no call repair changes; the log records no tool list)`,
      };
    const none = { outcome: 'unknown' as const, ruleId: undefined, innerTool: undefined };
    if (category === 'unknown-tool' || category === 'code-mode-direct-call' || category === 'inner-unknown-binding')
      return {
        replay: none,
        basis: 'none',
        basisNote: 'unknown tool: the log records no tool list, and which tools a session presents varies',
      };
    if (stand && this.release.schemasLabel)
      return {
        replay: replayFailure(call, result, stand, subCalls),
        basis: 'release-schemas',
        basisNote: `${this.release.schemasLabel}; the log records no tool list`,
      };
    return {
      replay: none,
      basis: 'none',
      basisNote: `the log records no tool list and no tool schemas are known for ${this.release.label}`,
    };
  }

  /** A call that succeeded: would the rules rewrite it? (A rewrite of a call that works is a risk, reported.) */
  private checkSuccess(callId: string, call: PendingCall): void {
    // Only against the tools the session recorded: a stand-in release schema that would demand a field this
    // successful call lacked is contradicted by the success itself.
    const env = this.env;
    if (!env) return;
    const rewrite = successRewrite({ name: call.name, arguments: call.argumentsText }, env);
    if (!rewrite) return;
    this.analysis.changedSuccessCount += 1;
    if (rewrite.undeclared.length > 0) this.analysis.changedSuccessUndeclared += 1;
    if (this.analysis.changedSuccesses.length >= MAX_CHANGED_SUCCESSES) return;
    this.analysis.changedSuccesses.push({
      file: this.analysis.file,
      line: this.lineNumber,
      sessionId: this.analysis.sessionId,
      callId,
      tool: call.name,
      ruleId: rewrite.ruleId,
      basis: 'recorded-tools',
      argumentsPreview: previewText(call.argumentsText, PREVIEW_CHARS),
      change: previewText(rewrite.changes.join('; '), PREVIEW_CHARS),
      undeclared: rewrite.undeclared,
    });
  }

  /** The analysis of everything pushed so far; `receipts` are the plugin's event-log receipts by call id. */
  finish(receipts?: ReadonlyMap<string, readonly Receipt[]>): SessionAnalysis {
    if (this.lineNumber === 0) throw new SkipSession('empty file');
    const receiptCounts = { healedSuccess: 0, healedFailed: 0 };
    const count = (receipt: Receipt, callId: string) => {
      if (receipt.outcome === 'healed-success') {
        receiptCounts.healedSuccess += 1;
        this.healedCallIds.add(callId);
      } else if (receipt.outcome === 'healed-failed') receiptCounts.healedFailed += 1;
    };
    if (receipts && receipts.size > 0) {
      // A receipt is written when the call's result arrives: within the session's own time span.
      const from = (this.firstTime ?? -Infinity) - ANONYMOUS_JOIN_MS;
      const to = (this.lastTime ?? Infinity) + 5_000;
      const joined = new Set<string>();
      for (const callId of this.callIds) {
        for (const receipt of receipts.get(callId) ?? []) {
          if (receipt.at < from || receipt.at > to) continue;
          joined.add(callId);
          count(receipt, callId);
        }
      }
      const anonymous = receipts.get(ANONYMOUS_RECEIPTS) ?? [];
      if (anonymous.length > 0) {
        // Every (result, receipt) pair of the same tool within the window, closest first; each side used once.
        const pairs: { callId: string; receipt: Receipt; distance: number }[] = [];
        for (const result of this.resultTimes) {
          if (joined.has(result.callId)) continue;
          for (
            let index = firstAtOrAfter(anonymous, result.time - ANONYMOUS_JOIN_MS);
            index < anonymous.length;
            index++
          ) {
            const receipt = anonymous[index] as Receipt;
            if (receipt.at > result.time + ANONYMOUS_JOIN_MS) break;
            if (result.tools.includes(receipt.tool))
              pairs.push({ callId: result.callId, receipt, distance: Math.abs(receipt.at - result.time) });
          }
        }
        pairs.sort((a, b) => a.distance - b.distance);
        const usedReceipts = new Set<Receipt>();
        const usedCalls = new Set<string>();
        for (const pair of pairs) {
          if (usedReceipts.has(pair.receipt) || usedCalls.has(pair.callId)) continue;
          usedReceipts.add(pair.receipt);
          usedCalls.add(pair.callId);
          count(pair.receipt, pair.callId);
        }
      }
    }
    const { repairedCalls, hintedErrors, healSubCalls } = this.evidence;
    const active =
      repairedCalls + hintedErrors + healSubCalls + receiptCounts.healedSuccess + receiptCounts.healedFailed > 0;
    const plugin: PluginEvidence | undefined = active
      ? { repairedCalls, hintedErrors, healSubCalls, receipts: receiptCounts, healedCallIds: [...this.healedCallIds] }
      : undefined;
    return { ...this.analysis, plugin };
  }
}

/** Index of the first receipt at or after `at` in a list sorted by time. */
function firstAtOrAfter(sorted: readonly Receipt[], at: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as Receipt).at < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Parses a whole log text (tests, small inputs). Throws {@link SkipSession} for a foreign or corrupt log. */
export function analyzeSessionText(
  file: string,
  text: string,
  receipts?: ReadonlyMap<string, readonly Receipt[]>,
): SessionAnalysis {
  const parser = new SessionParser(file);
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    parser.push(end < 0 ? text.slice(start) : text.slice(start, end));
    if (end < 0) break;
    start = end + 1;
  }
  return parser.finish(receipts);
}
