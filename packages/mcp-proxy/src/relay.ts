/**
 * The transport-neutral heart of the proxy: one `CallRelay` per MCP session sees every JSON-RPC message in both
 * directions. It learns each tool's `inputSchema` from the server's `tools/list` answers, rewrites only the
 * `tools/call` requests the healer repairs (or answers them itself with `--answer-errors`), and records one receipt
 * per `tools/call` when its answer comes back. Every other message, known or unknown, is handed back as the same
 * object. It also remembers which client requests are still unanswered, so a transport whose server died can answer
 * each of them with a clear error instead of leaving the client waiting.
 */
import { classifyResult, type ToolSchema } from '@dsh-tool-normalizer/core-rules';
import type { TelemetryEventInput } from '@dsh-tool-normalizer/telemetry-store';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { createHealer, type Healer, invalidArgumentsHint } from './heal.js';

/** Where receipts go (a telemetry store, or anything with its `record`). */
export interface Recorder {
  record(event: TelemetryEventInput): void;
}

export interface RelayOptions {
  /** Answer a call that fails the schema and cannot be healed with an `isError` result and one hint (default: forward it). */
  answerErrors?: boolean;
  recorder?: Recorder;
}

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

  constructor(options: RelayOptions = {}) {
    this.options = options;
  }

  /**
   * A message from the client: the same object to forward, a healed copy, or an answer for the client. Only a
   * `tools/call` waits for anything (the repair kit is asynchronous); callers keep the client's order by handling
   * one message after the other. With `mayAnswer` false (a message inside an HTTP batch, whose one answer cannot be
   * split), an unhealable call is forwarded even with `answerErrors`.
   */
  async fromClient(message: JSONRPCMessage, mayAnswer = true): Promise<ClientStep> {
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = isRecord(message.params) ? message.params.requestId : undefined;
      if (typeof id === 'string' || typeof id === 'number') this.pending.delete(idKey(id));
      return { forward: message };
    }
    if (!isRequest(message)) return { forward: message };
    if (message.method === 'tools/list') {
      const cursor = isRecord(message.params) ? message.params.cursor : undefined;
      this.remember(message.id, { method: cursor === undefined ? 'tools/list' : 'tools/list+' });
      return { forward: message };
    }
    if (message.method !== 'tools/call' || !isRecord(message.params)) {
      this.remember(message.id, { method: message.method });
      return { forward: message };
    }
    return this.callFromClient(message, message.params, mayAnswer);
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

  /** A message from the server, observed (it is always forwarded as it is). */
  fromServer(message: JSONRPCMessage): void {
    if ('method' in message) {
      if (message.method === 'notifications/tools/list_changed') this.forgetTools();
      return;
    }
    if (!('id' in message) || message.id === undefined || message.id === null) return;
    const key = idKey(message.id);
    const pending = this.pending.get(key);
    if (!pending) return;
    this.pending.delete(key);
    const raw = message as unknown as Record<string, unknown>;
    if (pending.method.startsWith('tools/list')) this.learnTools(raw.result, pending.method === 'tools/list');
    else if (pending.call) this.record(pending.call, true, errorText(raw));
  }

  /** Answers for every request (or those of `only`) the server will now never answer: it exited, or its connection failed. */
  serverGone(why: string, only?: readonly RequestId[]): JSONRPCMessage[] {
    const answers: JSONRPCMessage[] = [];
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
