/**
 * The transport-neutral heart of the proxy: one `CallRelay` per MCP session sees every JSON-RPC message in both
 * directions. It learns each tool's `inputSchema` from the server's `tools/list` answers, rewrites only the
 * `tools/call` requests the healer repairs (or answers them itself with `--answer-errors`), and records one receipt
 * per `tools/call` when its answer comes back. A call to a tool no answer has described yet (the client cached the
 * list, or read only its first page) makes the relay ask the server itself, once per list: `tools/list` under a
 * request id of its own, following `nextCursor`, within a time limit; past it, or on any error, the call goes on
 * unchanged. The answers to those requests are the relay's own and never reach the client. Every other message, known or unknown, is handed back as the same
 * object. It also remembers which client requests are still unanswered, so a transport whose server died can answer
 * each of them with a clear error instead of leaving the client waiting.
 */
import { randomUUID } from 'node:crypto';
import { classifyResult, type ToolSchema } from '@dsh-tool-normalizer/core-rules';
import type { TelemetryEventInput } from '@dsh-tool-normalizer/telemetry-store';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Peek } from './frames.js';
import { createHealer, type Healer, invalidArgumentsHint } from './heal.js';

/** Where receipts go (a telemetry store, or anything with its `record`). */
export interface Recorder {
  record(event: TelemetryEventInput): void;
}

export interface RelayOptions {
  /** Answer a call that fails the schema and cannot be healed with an `isError` result and one hint (default: forward it). */
  answerErrors?: boolean;
  recorder?: Recorder;
  /** How long the relay waits for the server's whole `tools/list` (every page) it asks for itself (default 5 s). */
  listTimeoutMs?: number;
}

/**
 * Sends one request of the relay's own to the server; its answer must come back through `fromServer`. The stdio
 * proxy writes it to the server's stdin; the HTTP proxy posts it with the session's headers. `done` is aborted once
 * the relay stops waiting (answered, or past its time limit): an HTTP request still open is then closed.
 */
export type SendOwn = (request: JSONRPCRequest, done: AbortSignal) => Promise<void>;

/** How one client message may be handled. */
export interface FromClientOptions {
  /**
   * False for a message inside an HTTP batch (its one answer cannot be split): an unhealable call is forwarded even
   * with `answerErrors`. Default true.
   */
  mayAnswer?: boolean;
  /** How to ask the server for `tools/list` itself; without it, a call to an undescribed tool goes on as it came. */
  send?: SendOwn;
}

export const DEFAULT_LIST_TIMEOUT_MS = 5_000;
/** The prefix of the request ids the relay uses for its own requests (then a random part per relay, then a count). */
export const OWN_ID_PREFIX = 'dsh-tool-normalizer-mcp-proxy:';
/** Most `tools/list` pages the relay reads for itself (a server whose cursors never end is cut off here). */
const MAX_OWN_PAGES = 100;

/** What to do with one client message: send it on to the server, or answer the client directly. */
export type ClientStep = { forward: JSONRPCMessage } | { answer: JSONRPCMessage };

/** The JSON-RPC error code the proxy answers with when the server went away before answering (implementation-defined range). */
export const SERVER_GONE_CODE = -32000;

interface PendingCall {
  tool: string;
  before: unknown;
  healed?: { after: Record<string, unknown>; ruleIds: string[]; changes: string[]; category: string };
}

type Pending = { method: string; call?: PendingCall };

/** The longest error text taken from a failed result for the store (the store redacts and cuts it again). */
const ERROR_CHARS = 2000;
/** Unanswered requests remembered per session; past it the oldest is forgotten (a client that never gets answers). */
const MAX_PENDING = 10_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idKey(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message && message.id !== undefined;
}

/** The text a failed result carries (its first text items, or the JSON-RPC error's message). */
function errorText(message: Record<string, unknown>): string | undefined {
  if (isRecord(message.error)) return String(message.error.message ?? 'JSON-RPC error').slice(0, ERROR_CHARS);
  const result = message.result;
  if (!isRecord(result) || result.isError !== true) return undefined;
  const texts = Array.isArray(result.content)
    ? result.content.filter((item) => isRecord(item) && item.type === 'text' && typeof item.text === 'string')
    : [];
  const text = texts.map((item) => (item as { text: string }).text.slice(0, ERROR_CHARS)).join('\n');
  return text.slice(0, ERROR_CHARS) || 'tool error';
}

export class CallRelay {
  /** The tools the server listed last, by name (the schemas calls are checked against). */
  readonly tools = new Map<string, ToolSchema>();
  /** The healer for `tools`, built again after they change. */
  private healer: Healer | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly options: RelayOptions;
  /** Answers awaited for the relay's own requests, by id key (a late answer finds a no-op and is still swallowed). */
  private readonly own = new Map<string, (answer: Record<string, unknown> | undefined) => void>();
  private ownCount = 0;
  /** Makes the relay's own ids unlike any a client picks (a client would have to guess it). */
  private readonly ownTag = randomUUID().slice(0, 8);
  /** True once the relay asked for the tools itself since the last list change (it asks once per list). */
  private asked = false;
  /** True once a list answer was too long to read: the relay then never asks for the list itself. */
  private listTooLong = false;
  /** True while a client's `tools/list` (first page) is unanswered: its answer will describe the tools. */
  private clientListing = false;

  constructor(options: RelayOptions = {}) {
    this.options = options;
  }

  /**
   * A message from the client: the same object to forward, a healed copy, or an answer for the client. Only a
   * `tools/call` waits for anything (the repair kit is asynchronous, and a call to an undescribed tool may wait for
   * the relay's own `tools/list`, at most `listTimeoutMs`); callers keep the client's order by handling one message
   * after the other.
   */
  async fromClient(message: JSONRPCMessage, options: FromClientOptions = {}): Promise<ClientStep> {
    const now = this.decideNow(message);
    if (now) return now;
    const params = (message as JSONRPCRequest).params as Record<string, unknown>;
    const name = params.name;
    const mayAsk = !this.asked && !this.listTooLong && !this.clientListing;
    if (typeof name === 'string' && !this.tools.has(name) && mayAsk && options.send) {
      this.asked = true;
      await this.askForTools(options.send);
    }
    return this.callFromClient(message as JSONRPCRequest, params, options.mayAnswer ?? true);
  }

  /**
   * The step for a message the relay decides without waiting: every message but a `tools/call` that fails its
   * schema or names a tool not described yet (undefined: `fromClient` decides those). The valid path: a call that
   * passes its tool's schema is forwarded as the same object, remembered for its receipt.
   */
  decideNow(message: JSONRPCMessage): ClientStep | undefined {
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = isRecord(message.params) ? message.params.requestId : undefined;
      if (typeof id === 'string' || typeof id === 'number') {
        if (this.pending.get(idKey(id))?.method === 'tools/list') this.clientListing = false;
        this.pending.delete(idKey(id));
      }
      return { forward: message };
    }
    if (!isRequest(message)) return { forward: message };
    if (message.method === 'tools/list') {
      const cursor = isRecord(message.params) ? message.params.cursor : undefined;
      this.remember(message.id, { method: cursor === undefined ? 'tools/list' : 'tools/list+' });
      if (cursor === undefined) this.clientListing = true;
      return { forward: message };
    }
    if (message.method !== 'tools/call' || !isRecord(message.params)) {
      this.remember(message.id, { method: message.method });
      return { forward: message };
    }
    const { name, arguments: args } = message.params;
    if (typeof name !== 'string' || !this.tools.has(name)) return undefined;
    this.healer ??= createHealer(this.tools.values());
    if (!this.healer.passes(name, args)) return undefined;
    this.remember(message.id, { method: 'tools/call', call: { tool: name, before: args } });
    return { forward: message };
  }

  /**
   * Reads the server's whole tool list with requests of the relay's own (every page, following `nextCursor`) and
   * learns it. Gives up, learning nothing, when an answer is an error or not a list, or when `listTimeoutMs` passes.
   */
  private async askForTools(send: SendOwn): Promise<void> {
    const deadline = Date.now() + (this.options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS);
    const pages: unknown[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_OWN_PAGES; page++) {
      const answer = await this.ask(send, cursor === undefined ? {} : { cursor }, deadline);
      const result = answer?.result;
      if (!isRecord(result) || !Array.isArray(result.tools)) return;
      pages.push(result);
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '' || cursors.has(next)) break;
      cursors.add(next);
      cursor = next;
    }
    for (const [index, result] of pages.entries()) this.learnTools(result, index === 0);
  }

  /** One `tools/list` request of the relay's own; undefined when it could not be sent or `deadline` passed. */
  private ask(
    send: SendOwn,
    params: Record<string, unknown>,
    deadline: number,
  ): Promise<Record<string, unknown> | undefined> {
    const id = `${OWN_ID_PREFIX}${this.ownTag}:${++this.ownCount}`;
    const key = idKey(id);
    const stopped = new AbortController();
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(undefined), Math.max(0, deadline - Date.now()));
      let done = false;
      const finish = (answer: Record<string, unknown> | undefined): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        stopped.abort();
        resolve(answer);
      };
      if (this.own.size >= MAX_PENDING) this.own.delete(this.own.keys().next().value as string);
      this.own.set(key, finish);
      send({ jsonrpc: '2.0', id, method: 'tools/list', params }, stopped.signal).catch(() => finish(undefined));
    });
  }

  private async callFromClient(
    message: JSONRPCRequest,
    params: Record<string, unknown>,
    mayAnswer: boolean,
  ): Promise<ClientStep> {
    const name = params.name;
    this.healer ??= createHealer(this.tools.values());
    const verdict = await this.healer.heal(name, params.arguments);
    const tool = typeof name === 'string' ? name : String(name);
    if (verdict.kind === 'unhealable' && this.options.answerErrors && mayAnswer) {
      const hint = invalidArgumentsHint(tool, verdict.violations);
      this.record({ tool, before: params.arguments }, false, hint);
      return {
        answer: { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: hint }], isError: true } },
      };
    }
    if (verdict.kind !== 'healed') {
      this.remember(message.id, { method: 'tools/call', call: { tool, before: params.arguments } });
      return { forward: message };
    }
    this.remember(message.id, {
      method: 'tools/call',
      call: {
        tool: verdict.name,
        before: params.arguments,
        healed: {
          after: verdict.arguments,
          ruleIds: verdict.receipts.map((receipt) => receipt.ruleId),
          changes: verdict.receipts.map((receipt) => receipt.why),
          category: verdict.receipts[0]?.category ?? 'invalid-args',
        },
      },
    });
    return {
      forward: { ...message, params: { ...params, name: verdict.name, arguments: verdict.arguments } },
    };
  }

  /**
   * A message from the server, observed. Returns true when it answers one of the relay's own requests: that one is
   * the relay's and must not reach the client; every other message is forwarded as it is.
   */
  fromServer(message: JSONRPCMessage): boolean {
    if ('method' in message) {
      if (message.method === 'notifications/tools/list_changed') this.forgetTools();
      return false;
    }
    if (!('id' in message) || message.id === undefined || message.id === null) return false;
    const key = idKey(message.id);
    const raw = message as unknown as Record<string, unknown>;
    const own = this.own.get(key);
    if (own) {
      this.own.delete(key);
      own(raw);
      return true;
    }
    const pending = this.pending.get(key);
    if (!pending) return false;
    this.pending.delete(key);
    if (pending.method === 'tools/list') this.clientListing = false;
    if (pending.method.startsWith('tools/list')) this.learnTools(raw.result, pending.method === 'tools/list');
    else if (pending.call) this.record(pending.call, true, errorText(raw));
    return false;
  }

  /**
   * A client frame too long to read (`peekFrame` saw its ends): forwarded as it came, never healed; a request is
   * remembered so its answer still gets its receipt (without the arguments).
   */
  fromClientUnread(peek: Peek): void {
    if (peek.id === undefined || peek.method === undefined) return;
    const call = peek.method === 'tools/call' ? { call: { tool: peek.name ?? '(unread)', before: undefined } } : {};
    this.remember(peek.id, { method: peek.method, ...call });
  }

  /**
   * A server frame too long to read. Returns true when it answers one of the relay's own requests (it must not
   * reach the client). A `tools/list` answer this long is not learned: the tools are forgotten (calls go on as
   * they came) and the relay stops asking for the list itself.
   */
  fromServerUnread(peek: Peek, bytes: number): boolean {
    if (peek.id === undefined || peek.method !== undefined) return false;
    const key = idKey(peek.id);
    const own = this.own.get(key);
    if (own) {
      this.own.delete(key);
      this.tooLongToLearn();
      own(undefined);
      return true;
    }
    const pending = this.pending.get(key);
    if (!pending) return false;
    this.pending.delete(key);
    if (pending.method === 'tools/list') this.clientListing = false;
    if (pending.method.startsWith('tools/list')) this.tooLongToLearn();
    else if (pending.call)
      this.record(
        pending.call,
        true,
        peek.error || peek.isError ? `an error answer of ${bytes} bytes, not read` : undefined,
      );
    return false;
  }

  /** True while the relay waits for an answer to a request of its own. */
  get waitingForOwn(): boolean {
    return this.own.size > 0;
  }

  private tooLongToLearn(): void {
    this.tools.clear();
    this.healer = undefined;
    this.listTooLong = true;
  }

  /** Answers for every request (or those of `only`) the server will now never answer: it exited, or its connection failed. */
  serverGone(why: string, only?: readonly RequestId[]): JSONRPCMessage[] {
    const answers: JSONRPCMessage[] = [];
    if (!only) {
      for (const finish of this.own.values()) finish(undefined);
      this.own.clear();
    }
    const keys = only ? only.map(idKey) : [...this.pending.keys()];
    for (const key of keys) {
      const pending = this.pending.get(key);
      if (!pending) continue;
      this.pending.delete(key);
      const id: RequestId = key.startsWith('number:') ? Number(key.slice(7)) : key.slice(key.indexOf(':') + 1);
      const message = `MCP server unavailable: ${why} (the ${pending.method} request was not answered)`;
      answers.push({ jsonrpc: '2.0', id, error: { code: SERVER_GONE_CODE, message } });
      if (pending.call) this.record(pending.call, true, message);
    }
    return answers;
  }

  private forgetTools(): void {
    this.tools.clear();
    this.healer = undefined;
    this.asked = false;
  }

  /** Requests sent on and not answered yet. */
  get unanswered(): number {
    return this.pending.size;
  }

  private remember(id: RequestId, pending: Pending): void {
    if (this.pending.size >= MAX_PENDING) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.pending.delete(oldest);
    }
    this.pending.set(idKey(id), pending);
  }

  private learnTools(result: unknown, firstPage: boolean): void {
    if (!isRecord(result) || !Array.isArray(result.tools)) return;
    if (firstPage) this.tools.clear();
    this.healer = undefined;
    for (const tool of result.tools) {
      if (!isRecord(tool) || typeof tool.name !== 'string' || !isRecord(tool.inputSchema)) continue;
      const description = typeof tool.description === 'string' ? tool.description : undefined;
      this.tools.set(tool.name, {
        name: tool.name,
        parameters: tool.inputSchema,
        ...(description === undefined ? {} : { description }),
      });
    }
  }

  /** One receipt: `answered` false means the proxy itself answered (the call never reached the server). */
  private record(call: PendingCall, answered: boolean, error: string | undefined): void {
    const recorder = this.options.recorder;
    if (!recorder) return;
    const failed = error !== undefined;
    const healed = call.healed;
    try {
      const category = healed
        ? healed.category
        : !failed
          ? 'ok'
          : !answered
            ? 'invalid-args'
            : classifyResult({ name: call.tool, arguments: call.before }, { isError: true, error: { message: error } })
                .category;
      recorder.record({
        tool: call.tool,
        category,
        outcome: healed ? (failed ? 'healed-failed' : 'healed-success') : failed ? 'passthrough-failed' : 'passthrough',
        ruleIds: healed ? healed.ruleIds : [],
        ...(healed ? { changes: healed.changes, before: call.before, after: healed.after } : {}),
        ...(!healed && failed ? { before: call.before } : {}),
        ...(failed ? { error } : {}),
        ...(answered ? {} : { changes: ['answered by the proxy: the arguments fail the inputSchema'] }),
        tokensSaved: 0,
      });
    } catch {
      // A store that fails must never change what the client and server see.
    }
  }
}
