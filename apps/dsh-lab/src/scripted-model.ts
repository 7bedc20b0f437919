/**
 * A scripted stand-in for the DeepSeek API: an OpenAI-compatible `POST /chat/completions` SSE server on
 * 127.0.0.1 (ephemeral port) that DSH's deepseek provider reaches through `DEEPSEEK_BASE_URL`. It plays a
 * script of steps (tool calls whose arguments are raw strings, so malformed JSON can be scripted; text
 * replies), reacts like a model would when a step says what to retry after an error, records every request,
 * and answers session-title requests (no `tools`) without consuming a step. It is bounded: once the script
 * is played it only answers with a closing text, and it stops answering tool calls after `maxRequests`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One tool call the model makes. `arguments` as a string is sent verbatim (may be invalid JSON). */
export interface ScriptedToolCall {
  id: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** One model turn: either tool calls or a final text. */
export type ScriptStep = ToolCallStep | TextStep;

export interface ToolCallStep {
  toolCalls: ScriptedToolCall[];
  /**
   * What the model does next when it saw `Error: ...` for any call of this step (a realistic model retries a
   * corrected call). Played only then; skipped when every call succeeded. May itself carry `retryOnError`.
   */
  retryOnError?: ScriptStep;
}

export interface TextStep {
  text: string;
  /**
   * The wire `finish_reason` (default `stop`). A model served by vLLM/SGLang may leave a whole DSML tool call in the
   * text with `stop`, or finish `tool_calls` with no call at all (then `text` may be empty: no content is streamed).
   */
  finishReason?: 'stop' | 'tool_calls';
}

/** A request DSH sent, as recorded. */
export interface RecordedRequest {
  index: number;
  receivedAt: number;
  /** An agent-loop request (it carries `tools`); title requests are not. */
  isAgent: boolean;
  /** The script step this request was answered with (agent requests only; `null` once the script is done). */
  answeredWith: string | null;
  sessionId?: string;
  /** Characters of the request body, and the ~4 chars/token estimate DSH's own token meter uses. */
  bodyChars: number;
  estimatedTokens: number;
  body: ChatRequestBody;
}

export interface ChatRequestBody {
  model?: string;
  messages?: ChatMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  [key: string]: unknown;
}

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

export interface ScriptedModel {
  /** `http://127.0.0.1:<port>`: the value for DEEPSEEK_BASE_URL. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Steps actually played, in order (retries included). */
  played: ScriptStep[];
  close(): Promise<void>;
}

export interface ScriptedModelOptions {
  /** Hard cap on agent requests answered with script steps (default 200). */
  maxRequests?: number;
  /** Text of the session-title reply. */
  title?: string;
  /**
   * Awaited before the first agent request is answered (the request has arrived, so the agent exists). A test uses
   * it to make something happen between an agent's creation and its first tool call, e.g. a metrics scrape.
   */
  beforeFirstReply?: () => Promise<void>;
}

const CLOSING_TEXT = 'The scripted session is complete.';

/** Starts the server and resolves once it listens. */
export async function startScriptedModel(
  script: readonly ScriptStep[],
  options: ScriptedModelOptions = {},
): Promise<ScriptedModel> {
  const queue: ScriptStep[] = [...script];
  const requests: RecordedRequest[] = [];
  const played: ScriptStep[] = [];
  const maxRequests = options.maxRequests ?? 200;
  let lastToolStep: ToolCallStep | undefined;
  let agentRequests = 0;

  const nextStep = (body: ChatRequestBody): ScriptStep | undefined => {
    if (lastToolStep?.retryOnError && sawError(body, lastToolStep)) queue.unshift(lastToolStep.retryOnError);
    lastToolStep = undefined;
    if (agentRequests > maxRequests) return undefined;
    const step = queue.shift();
    if (step && 'toolCalls' in step) lastToolStep = step;
    if (step) played.push(step);
    return step;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted model: no route ${req.method} ${req.url}` } }));
        return;
      }
      let body: ChatRequestBody;
      try {
        body = JSON.parse(raw) as ChatRequestBody;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'scripted model: request body is not JSON' } }));
        return;
      }
      const isAgent = Array.isArray(body.tools) && body.tools.length > 0;
      const estimatedTokens = Math.ceil(raw.length / 4);
      const record: RecordedRequest = {
        index: requests.length,
        receivedAt: Date.now(),
        isAgent,
        answeredWith: null,
        bodyChars: raw.length,
        estimatedTokens,
        body,
      };
      const sessionId = req.headers['x-deepseek-harness-session-id'];
      if (typeof sessionId === 'string') record.sessionId = sessionId;
      requests.push(record);
      if (!isAgent) return streamText(res, options.title ?? 'Scripted session', estimatedTokens);
      agentRequests++;
      const answer = () => {
        const step = nextStep(body);
        if (!step) return streamText(res, CLOSING_TEXT, estimatedTokens);
        if ('text' in step) {
          record.answeredWith = 'text';
          return streamText(res, step.text, estimatedTokens, step.finishReason);
        }
        record.answeredWith = step.toolCalls.map((c) => c.id).join(',');
        return streamToolCalls(res, step.toolCalls, estimatedTokens);
      };
      if (agentRequests === 1 && options.beforeFirstReply) {
        options.beforeFirstReply().then(answer, answer);
        return;
      }
      answer();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    played,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether the request carries an `Error: ...` tool message for one of the step's calls. */
function sawError(body: ChatRequestBody, step: ToolCallStep): boolean {
  const ids = new Set(step.toolCalls.map((c) => c.id));
  return (body.messages ?? []).some(
    (m) =>
      m.role === 'tool' && m.tool_call_id !== undefined && ids.has(m.tool_call_id) && isErrorText(toolMessageText(m)),
  );
}

/** The text of a tool message (string content or text parts). */
export function toolMessageText(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content)) {
    return message.content
      .map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : ''))
      .join('');
  }
  return '';
}

/** DSH renders every failed tool result as `Error: <message>`. */
export function isErrorText(text: string): boolean {
  return text.startsWith('Error: ');
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: 'scripted',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'scripted',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function usageChunk(promptTokens: number) {
  const completion = 20;
  return {
    id: 'scripted',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'scripted',
    choices: [],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completion,
      total_tokens: promptTokens + completion,
      prompt_cache_hit_tokens: 0,
      prompt_cache_miss_tokens: promptTokens,
    },
  };
}

function writeSse(res: http.ServerResponse, payloads: unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const payload of payloads) res.write(`data: ${JSON.stringify(payload)}\n\n`);
  res.write('data: [DONE]\n\n');
  res.end();
}

function streamText(res: http.ServerResponse, text: string, promptTokens: number, finishReason = 'stop'): void {
  // Two content fragments when there is text, like a real stream (a DSML block then arrives across deltas).
  const mid = Math.floor(text.length / 2);
  const content = text === '' ? [] : [chunk({ content: text.slice(0, mid) }), chunk({ content: text.slice(mid) })];
  writeSse(res, [
    chunk({ role: 'assistant', content: '' }),
    ...content,
    chunk({}, finishReason),
    usageChunk(promptTokens),
  ]);
}

function streamToolCalls(res: http.ServerResponse, calls: readonly ScriptedToolCall[], promptTokens: number): void {
  const payloads: unknown[] = [chunk({ role: 'assistant', content: null })];
  calls.forEach((call, index) => {
    const args = rawArguments(call);
    payloads.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    // Two fragments, like a real stream, so DSH's delta assembly is exercised.
    const mid = Math.floor(args.length / 2);
    payloads.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, mid) } }] }));
    payloads.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(mid) } }] }));
  });
  payloads.push(chunk({}, 'tool_calls'), usageChunk(promptTokens));
  writeSse(res, payloads);
}

/** The exact argument string the model streams for a call. */
export function rawArguments(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}
