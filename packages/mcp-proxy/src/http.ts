/**
 * `mcp-proxy --http URL --listen HOST:PORT`: the proxy in front of a Streamable HTTP MCP server. It is an HTTP
 * reverse proxy at the level of single requests, not a second MCP server: each request the client makes (POST,
 * the GET event stream, DELETE, and any other path such as OAuth metadata) goes to the same path on the upstream
 * origin with the client's headers (session id, protocol version, authorization) and comes back with the
 * server's status, headers and body bytes, streamed. Only a POST body holding a `tools/call` that `CallRelay`
 * heals is rewritten (or answered here, with `--answer-errors`). Each response body, JSON or event stream, is read
 * alongside as it passes, so the relay of the request's session learns `tools/list` schemas and records receipts.
 * To learn the schema of a tool no answer has described yet, the relay posts a `tools/list` of its own with the
 * client request's headers. The proxy goes to the upstream origin only, and serves only clients whose `Host` and
 * `Origin` pass the SDK-style DNS-rebinding check (`guard.ts`). Working per HTTP request keeps what the SDK's transports would lose in a relay: which answer, progress
 * notification or server request belongs to which POST stream, sessions, and resumable streams.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { createParser } from 'eventsource-parser';
import { DEFAULT_READ_LIMIT, peekFrame } from './frames.js';
import { createHostGuard, hostKey, isLoopback, type Refusal, upstreamTarget } from './guard.js';
import { CallRelay, type ClientStep, type RelayOptions, type SendOwn, SERVER_GONE_CODE } from './relay.js';

export interface HttpProxyOptions extends RelayOptions {
  /** The upstream MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. Its path is also the proxy's endpoint path. */
  upstream: string | URL;
  /** Interface to listen on (default 127.0.0.1: the proxy is for the user's own clients). */
  host?: string;
  /** Needed for a `host` that is not loopback (other machines can then reach the proxy); a warning is logged. */
  allowRemote?: boolean;
  /** Hostnames accepted in the client's `Host` besides `localhost`, `127.0.0.1`, `[::1]` and the listen address. */
  allowHosts?: readonly string[];
  /** Origins accepted in the client's `Origin` besides loopback ones (a request without `Origin` passes). */
  allowOrigins?: readonly string[];
  /** Port (default 0: any free port). */
  port?: number;
  log?: (line: string) => void;
  /** Largest request body read (default 64 MiB); a larger one is answered 413. */
  maxBodyBytes?: number;
  /** The longest answer (JSON body or event) read and learned from (default 4 MiB); a longer one passes unread. */
  readLimit?: number;
}

export interface HttpProxy {
  /** The proxy's MCP endpoint (the upstream's path on the proxy's address). */
  readonly url: URL;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Sessions whose relay is kept (schemas and unanswered calls); past it the oldest session's relay is dropped. */
const MAX_SESSIONS = 1000;
/** Headers that belong to one connection, never forwarded; the body length is recomputed and never re-encoded. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'content-encoding',
]);

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMessage(value: unknown): value is JSONRPCMessage {
  return isRecord(value) && value.jsonrpc === '2.0';
}

function requestIds(messages: readonly JSONRPCMessage[]): RequestId[] {
  return messages.flatMap((message) => ('method' in message && 'id' in message ? [message.id as RequestId] : []));
}

function forwardedHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

/** One relay per MCP session (the `mcp-session-id` header; '' before a session exists or for a stateless server). */
class Sessions {
  private readonly relays = new Map<string, CallRelay>();
  private readonly options: RelayOptions;
  constructor(options: RelayOptions) {
    this.options = options;
  }
  get(id: string): CallRelay {
    let relay = this.relays.get(id);
    if (!relay) {
      if (this.relays.size >= MAX_SESSIONS) this.relays.delete(this.relays.keys().next().value as string);
      relay = new CallRelay(this.options);
      this.relays.set(id, relay);
    }
    return relay;
  }
  drop(id: string): void {
    this.relays.delete(id);
  }
}

/** The messages of a JSON-RPC body (one message or a batch), or undefined when it is not JSON-RPC. */
function messagesOf(body: Buffer): { messages: JSONRPCMessage[]; batch: boolean } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (Array.isArray(value)) return value.every(isMessage) ? { messages: value, batch: true } : undefined;
  return isMessage(value) ? { messages: [value], batch: false } : undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** A refused request: its error, and the connection closed (its body is never read). */
function refuse(res: ServerResponse, refusal: Refusal): void {
  sendJson(res, refusal.status, { jsonrpc: '2.0', id: null, error: { code: -32000, message: refusal.message } }, true);
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

export async function startHttpProxy(options: HttpProxyOptions): Promise<HttpProxy> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new TypeError(`--http needs an http(s) URL, got ${upstream.protocol}`);
  const log = options.log ?? ((line: string) => process.stderr.write(`dsh-tool-normalizer mcp-proxy: ${line}\n`));
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const readLimit = options.readLimit ?? DEFAULT_READ_LIMIT;
  const sessions = new Sessions(options);
  const listenHost = options.host ?? '127.0.0.1';
  if (!isLoopback(listenHost) && !options.allowRemote)
    throw new Error(
      `${listenHost} is not a loopback address: other machines could reach the proxy and, through it, the server's tools; pass --allow-remote to mean it`,
    );
  // The listen address itself names the proxy (an IP literal cannot be rebound by a page's DNS).
  const ownName =
    isIP(listenHost.replace(/^\[(.*)\]$/, '$1')) && !WILDCARDS.has(listenHost) ? [hostKey(listenHost)] : [];
  const guard = createHostGuard({
    allowHosts: [...ownName, ...(options.allowHosts ?? [])],
    allowOrigins: options.allowOrigins ?? [],
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = upstreamTarget(req.url, upstream);
    if (!(target instanceof URL)) return refuse(res, target);
    const refusal = guard(req.headers.host, req.headers.origin);
    if (refusal) return refuse(res, refusal);
    const sessionId = typeof req.headers['mcp-session-id'] === 'string' ? req.headers['mcp-session-id'] : '';
    const relay = sessions.get(sessionId);
    const headers = forwardedHeaders(req);
    let body: Buffer | undefined;
    let sent: JSONRPCMessage[] = [];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const read = await readBody(req, limit);
      if (read === 'too-large') {
        sendJson(res, 413, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `request body larger than ${limit} bytes` },
        });
        return;
      }
      body = read;
      const parsed = req.method === 'POST' ? messagesOf(read) : undefined;
      if (parsed) {
        // In a batch, nothing is answered here (one HTTP answer cannot be split): an unhealable call goes on as it came.
        const steps: ClientStep[] = [];
        const send = ownSender(target, headers, relay, readLimit);
        for (const message of parsed.messages)
          steps.push(await relay.fromClient(message, { mayAnswer: !parsed.batch, send }));
        const first = steps[0];
        if (!parsed.batch && first && 'answer' in first) return sendJson(res, 200, first.answer);
        sent = steps.map((step, index) =>
          'forward' in step ? step.forward : (parsed.messages[index] as JSONRPCMessage),
        );
        if (sent.some((message, index) => message !== parsed.messages[index]))
          body = Buffer.from(JSON.stringify(parsed.batch ? sent : sent[0]));
      }
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    let response: Response;
    try {
      response = await fetch(target, {
        method: req.method ?? 'GET',
        headers,
        redirect: 'manual',
        signal: abort.signal,
        ...(body !== undefined && body.length > 0 ? { body } : {}),
      });
    } catch (error) {
      if (abort.signal.aborted) return;
      const why = `cannot reach ${upstream.origin}: ${describe(error)}`;
      log(why);
      const answers = relay.serverGone(why, requestIds(sent));
      sendJson(
        res,
        502,
        answers.length === 1
          ? answers[0]
          : answers.length > 1
            ? answers
            : {
                jsonrpc: '2.0',
                id: null,
                error: { code: SERVER_GONE_CODE, message: `MCP server unavailable: ${why}` },
              },
      );
      return;
    }
    if (req.method === 'DELETE' && response.ok) sessions.drop(sessionId);
    const outHeaders: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) outHeaders[name] = value;
    });
    const setCookies = response.headers.getSetCookie();
    if (setCookies.length > 0) outHeaders['set-cookie'] = setCookies;
    res.writeHead(response.status, response.statusText, outHeaders);
    res.flushHeaders();
    // The relay that saw the request reads its answers (an initialize answer names the new session; later
    // requests carry that id and get the session's own relay).
    await pipeBody(response, res, relay, sent, log, readLimit);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      log(`request failed: ${describe(error)}`);
      if (!res.headersSent)
        sendJson(res, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'proxy error' } });
      else res.destroy();
    });
  });
  // CONNECT host:port (a tunnel to anywhere) is never served; without this listener Node would drop it silently.
  server.on('connect', (_req, socket) => {
    const text = JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: `Bad request target: CONNECT is refused; this proxy forwards paths to ${upstream.origin} only`,
      },
    });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, listenHost, () => resolve());
  });
  if (!isLoopback(listenHost))
    log(
      `warning: listening on ${listenHost}, which other machines can reach: anyone who reaches it can call the MCP server's tools (no TLS, no authentication of its own). Clients must send a Host the proxy accepts (the listen address, or --allow-host NAME).`,
    );
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = new URL(`${upstream.pathname}${upstream.search}`, `http://${host}:${address.port}`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * How the relay of a session asks the server itself (`SendOwn`): one POST of its own with the client request's
 * headers (session id, protocol version, authorization), JSON or an event stream back; each message of the answer
 * goes to `relay.fromServer`, and the stream is closed once the relay's request is answered.
 */
function ownSender(target: URL, clientHeaders: Headers, relay: CallRelay, readLimit: number): SendOwn {
  return async (request, done) => {
    const headers = new Headers(clientHeaders);
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    const abort = new AbortController();
    done.addEventListener('abort', () => abort.abort(), { once: true });
    const response = await fetch(target, {
      method: 'POST',
      headers,
      body: JSON.stringify(request),
      redirect: 'manual',
      signal: abort.signal,
    });
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => {});
      throw new Error(`the server answered HTTP ${response.status}`);
    }
    let answered = false;
    const observe = (text: string): void => {
      if (text.length > readLimit) {
        if (relay.fromServerUnread(peekFrame(text, text), text.length)) answered = true;
        return;
      }
      try {
        const value: unknown = JSON.parse(text);
        for (const message of Array.isArray(value) ? value : [value])
          if (isMessage(message) && relay.fromServer(message)) answered = true;
      } catch {
        // not JSON: nothing of the relay's in it
      }
    };
    // Read in the background: the relay's own time limit decides how long its caller waits, and ends the read.
    void (async () => {
      try {
        if (!(response.headers.get('content-type') ?? '').includes('text/event-stream'))
          return observe(await response.text());
        const parser = createParser({ onEvent: (event) => observe(event.data) });
        const decoder = new TextDecoder();
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        while (!answered) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
        }
      } catch {
        // a broken answer: the relay's time limit ends the wait
      } finally {
        abort.abort();
      }
    })();
  };
}

/**
 * Streams the upstream body to the client unchanged, reading the JSON-RPC messages in it on the way. When the
 * upstream connection breaks mid-stream, the requests of this POST still unanswered get an error event first.
 */
async function pipeBody(
  response: Response,
  res: ServerResponse,
  relay: CallRelay,
  sent: readonly JSONRPCMessage[],
  log: (line: string) => void,
  readLimit: number,
): Promise<void> {
  if (!response.body) {
    res.end();
    return;
  }
  const type = response.headers.get('content-type') ?? '';
  const stream = type.includes('text/event-stream');
  const json = !stream && type.includes('application/json');
  const observe = (text: string): void => {
    // Too long to read: only what its two ends say (its id) reaches the relay, which then learns nothing from it.
    if (text.length > readLimit) return void relay.fromServerUnread(peekFrame(text, text), text.length);
    try {
      const value: unknown = JSON.parse(text);
      for (const message of Array.isArray(value) ? value : [value]) if (isMessage(message)) relay.fromServer(message);
    } catch {
      // Not JSON: the client gets it as it is; nothing to learn from it.
    }
  };
  const parser = stream ? createParser({ onEvent: (event) => observe(event.data) }) : undefined;
  const decoder = new TextDecoder();
  // A JSON body is kept up to the read limit; past it, only its first and last bytes.
  let jsonChunks: Buffer[] = [];
  let jsonBytes = 0;
  let jsonHead: Buffer | undefined;
  let jsonTail = Buffer.alloc(0);
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      if (parser) parser.feed(decoder.decode(value, { stream: true }));
      else if (json) {
        jsonBytes += chunk.length;
        if (jsonBytes <= readLimit) jsonChunks.push(Buffer.from(chunk));
        else {
          jsonHead ??= Buffer.from(Buffer.concat([...jsonChunks, chunk]).subarray(0, 4096));
          jsonChunks = [];
          jsonTail = Buffer.from(Buffer.concat([jsonTail, chunk]).subarray(-4096));
        }
      }
    }
    if (json && jsonBytes <= readLimit) observe(Buffer.concat(jsonChunks).toString('utf8'));
    else if (json) relay.fromServerUnread(peekFrame(jsonHead ?? jsonTail, jsonTail), jsonBytes);
    res.end();
  } catch (error) {
    if (res.destroyed) return;
    const why = `the connection to the server broke: ${describe(error)}`;
    log(why);
    const answers = relay.serverGone(why, requestIds(sent));
    if (stream) for (const answer of answers) res.write(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
    res.end();
  }
}
