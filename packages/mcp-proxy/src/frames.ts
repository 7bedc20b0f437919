/**
 * Newline-delimited JSON-RPC, the MCP stdio framing, read and written the way a proxy needs it. Frames are joined
 * once from their chunks (the SDK's read buffer re-copies and re-scans all it holds on every chunk, which is
 * quadratic in a long line) and kept as the bytes that came, so a message the proxy does not change is written on
 * as those bytes, never re-serialized. A frame is read (`JSON.parse` and a shape check of the JSON-RPC envelope,
 * the SDK's `JSONRPCMessageSchema` without its per-message cost) only up to `readLimit`; a longer one is passed on
 * unread, with what `peekFrame` sees of its envelope in a few bytes at either end, so one huge line costs a copy,
 * not a parse. `LineTransport` is the client side (the proxy's own stdin/stdout): a frame that is not JSON-RPC is
 * answered (JSON-RPC "Parse error" / "Invalid Request", with its id when it has one) instead of being dropped while
 * the client waits for an answer that never comes.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** The largest frame held (default 64 MiB); a longer client line is skipped up to its newline and answered as a parse error. */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;
/** The largest frame read (parsed and looked at); a longer one is passed on unread (default 4 MiB). */
export const DEFAULT_READ_LIMIT = 4 * 1024 * 1024;
/** How many bytes at each end of an unread frame `peekFrame` looks at. */
const PEEK_BYTES = 1024;
const NEWLINE = Buffer.from('\n');

/** A frame as it came: read (`message`), or too long to read (`peek` only). `raw` never holds the newline. */
export type Frame =
  | { kind: 'message'; message: JSONRPCMessage; raw: Buffer }
  | { kind: 'unread'; peek: Peek; raw: Buffer };

/** What the first and last bytes of an unread frame say about its envelope; each field only when certain. */
export interface Peek {
  id?: RequestId;
  method?: string;
  /** `params.name` when the frame starts `{"method":…,"params":{"name":…` (a tools/call as the SDKs write it). */
  name?: string;
  /** The frame is an error answer (`"error"` as a top-level key in its first bytes). */
  error?: boolean;
  /** The frame's last bytes hold `"isError":true` (an SDK server puts it last in a failed tool result). */
  isError?: boolean;
}

const ID = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
/** `"id":X` as the first or second member (after `"jsonrpc":"2.0"`): a top-level key for certain. */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}\s*,`);
/** `,"id":X}` at the very end: the last member of the outermost object, for certain in valid JSON. */
const TAIL_ID = new RegExp(String.raw`,\s*"id"\s*:\s*${ID}\s*\}\s*$`);
/** `"method":"…"` as the first member, or after `"jsonrpc"` and/or `"id"`. */
const HEAD_METHOD =
  /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?(?:"id"\s*:\s*(?:-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*,\s*)?"method"\s*:\s*"([^"\\]{1,200})"\s*,\s*"params"\s*:\s*\{\s*(?:"name"\s*:\s*"((?:[^"\\]|\\.){1,200})")?/;
const HEAD_ERROR = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?(?:"id"\s*:\s*[^,]{1,210},\s*)?"error"\s*:/;

function parseId(text: string): RequestId {
  return text.startsWith('"') ? (JSON.parse(text) as string) : Number(text);
}

/** What a frame's first and last `PEEK_BYTES` say of its envelope (bounded work, whatever the frame's length). */
export function peekFrame(head: Buffer | string, tail: Buffer | string): Peek {
  const start = typeof head === 'string' ? head.slice(0, PEEK_BYTES) : head.subarray(0, PEEK_BYTES).toString('utf8');
  const end =
    typeof tail === 'string'
      ? tail.slice(Math.max(0, tail.length - PEEK_BYTES))
      : tail.subarray(Math.max(0, tail.length - PEEK_BYTES)).toString('utf8');
  const peek: Peek = {};
  const id = HEAD_ID.exec(start) ?? TAIL_ID.exec(end);
  if (id) peek.id = parseId(id[1] as string);
  const method = HEAD_METHOD.exec(start);
  if (method) {
    peek.method = method[1] as string;
    if (method[2] !== undefined) peek.name = JSON.parse(`"${method[2]}"`) as string;
  }
  if (HEAD_ERROR.test(start)) peek.error = true;
  if (/"isError"\s*:\s*true\s*[,}]/.test(end)) peek.isError = true;
  return peek;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const RESULT_KEYS = new Set(['jsonrpc', 'id', 'result']);
const ERROR_KEYS = new Set(['jsonrpc', 'id', 'error']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isInteger(value);
}

/**
 * The value as a JSON-RPC 2.0 message when its envelope has the shape `JSONRPCMessageSchema` accepts (a request,
 * notification, result or error, no other top-level keys), else undefined. The message's content is the peer's to
 * check.
 */
export function asMessage(value: unknown): JSONRPCMessage | undefined {
  if (!isObject(value) || value.jsonrpc !== '2.0') return undefined;
  let allowed: ReadonlySet<string>;
  if ('method' in value) {
    if (typeof value.method !== 'string') return undefined;
    if ('id' in value && !isId(value.id)) return undefined;
    if ('params' in value && !isObject(value.params)) return undefined;
    allowed = REQUEST_KEYS;
  } else if ('result' in value) {
    if (!isId(value.id) || !isObject(value.result)) return undefined;
    allowed = RESULT_KEYS;
  } else if ('error' in value) {
    if ('id' in value && !isId(value.id)) return undefined;
    const error = value.error;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') return undefined;
    allowed = ERROR_KEYS;
  } else return undefined;
  for (const key in value) if (!allowed.has(key)) return undefined;
  return value as JSONRPCMessage;
}

/** Where `LineReader` hands its frames. */
export interface LineSink {
  /** One whole line (without its newline), at most the reader's hold limit. */
  frame(raw: Buffer): void;
  /** A line longer than the hold limit was skipped (the reader's `oversize` is `skip`). */
  skipped?(limit: number): void;
  /** A line longer than the hold limit is passed on as it comes (`oversize` is `stream`): its first bytes… */
  streamStart?(head: Buffer): void;
  /** …each later part of it… */
  streamPart?(part: Buffer): void;
  /** …and its end, with its last bytes (at least `PEEK_BYTES` when it has them). */
  streamEnd?(tail: Buffer): void;
}

/**
 * Splits a byte stream into lines. A line is held until its newline up to `holdLimit()` bytes; past it, the line
 * is skipped to its newline, or handed on in parts as it comes (then only its last bytes are kept for `peekFrame`).
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private held = 0;
  private state: 'hold' | 'skip' | 'stream' = 'hold';
  private tail: Buffer = Buffer.alloc(0);
  private readonly holdLimit: () => number;
  private readonly oversize: 'skip' | 'stream';
  private readonly sink: LineSink;

  constructor(holdLimit: () => number, oversize: 'skip' | 'stream', sink: LineSink) {
    this.holdLimit = holdLimit;
    this.oversize = oversize;
    this.sink = sink;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      if (this.state === 'hold' && this.held === 0 && newline > start) {
        // The common case, a whole line inside one chunk: no copy at all.
        const line = chunk.subarray(start, newline);
        if (line.length <= this.holdLimit()) {
          this.sink.frame(line);
          start = newline + 1;
          continue;
        }
      }
      this.take(chunk.subarray(start, newline));
      this.end();
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  /** Drops a partial line (the stream ended). */
  reset(): void {
    this.chunks = [];
    this.held = 0;
    this.state = 'hold';
    this.tail = Buffer.alloc(0);
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.state === 'skip') return;
    if (this.state === 'stream') {
      this.keepTail(part);
      this.sink.streamPart?.(part);
      return;
    }
    if (this.held + part.length <= this.holdLimit()) {
      this.chunks.push(part);
      this.held += part.length;
      return;
    }
    if (this.oversize === 'skip') {
      this.state = 'skip';
      this.chunks = [];
      this.held = 0;
      return;
    }
    this.state = 'stream';
    const head = Buffer.concat([...this.chunks, part]);
    this.chunks = [];
    this.held = 0;
    this.tail = Buffer.alloc(0);
    this.keepTail(head);
    this.sink.streamStart?.(head);
  }

  private keepTail(part: Buffer): void {
    this.tail =
      part.length >= PEEK_BYTES
        ? Buffer.from(part.subarray(part.length - PEEK_BYTES))
        : Buffer.concat([this.tail.subarray(Math.max(0, this.tail.length + part.length - PEEK_BYTES)), part]);
  }

  private end(): void {
    const state = this.state;
    this.state = 'hold';
    if (state === 'skip') {
      this.sink.skipped?.(this.holdLimit());
      return;
    }
    if (state === 'stream') {
      const tail = this.tail;
      this.tail = Buffer.alloc(0);
      this.sink.streamEnd?.(tail);
      return;
    }
    if (this.held === 0) return;
    const frame = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.held);
    this.chunks = [];
    this.held = 0;
    this.sink.frame(frame);
  }
}

/** A frame's bytes without a trailing `\r` (MCP allows CRLF). */
function trimCr(raw: Buffer): Buffer {
  return raw.length > 0 && raw[raw.length - 1] === 13 ? raw.subarray(0, raw.length - 1) : raw;
}

function isBlank(raw: Buffer): boolean {
  for (const byte of raw) if (byte !== 32 && byte !== 9 && byte !== 13) return false;
  return true;
}

/**
 * Reads one frame: the message, `'unread'` when it is longer than `readLimit`, `'blank'`, or the reason it is
 * not JSON-RPC (never quoting it: a frame may hold a secret) with the id it had, if any.
 */
export function readFrame(
  raw: Buffer,
  readLimit: number,
): JSONRPCMessage | 'unread' | 'blank' | { code: number; message: string; id: RequestId | null; response: boolean } {
  if (raw.length > readLimit) return 'unread';
  const bytes = trimCr(raw);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    if (isBlank(bytes)) return 'blank';
    return {
      code: -32700,
      message: `Parse error: a frame of ${raw.length} bytes is not valid JSON`,
      id: null,
      response: false,
    };
  }
  const message = asMessage(value);
  if (message) return message;
  const id = isObject(value) && isId(value.id) ? value.id : null;
  // A response-shaped frame (no method) cannot be answered: JSON-RPC answers requests only.
  const response = isObject(value) && !('method' in value) && !('error' in value) && id !== null;
  return { code: -32600, message: 'Invalid Request: the frame is JSON but not a JSON-RPC 2.0 message', id, response };
}

/**
 * Writes frames to one stream in order. A frame passed on in parts (`open`, `part`, `close`) holds the stream: whole
 * frames written meanwhile wait behind it, so frames never interleave. `write` returns false when the stream asks
 * the writer to wait (`whenDrained`).
 */
export class FrameWriter {
  private streaming = false;
  private waiting: Buffer[] = [];
  private readonly output: Writable;

  constructor(output: Writable) {
    this.output = output;
  }

  /** One whole frame: a message (serialized) or the bytes it came as. */
  frame(frame: JSONRPCMessage | Buffer): boolean {
    const bytes = Buffer.isBuffer(frame) ? frame : Buffer.from(JSON.stringify(frame));
    if (this.streaming) {
      this.waiting.push(bytes, NEWLINE);
      return true;
    }
    return this.put(bytes);
  }

  open(head: Buffer): boolean {
    this.streaming = true;
    return this.output.write(head);
  }

  part(part: Buffer): boolean {
    return this.output.write(part);
  }

  close(): boolean {
    this.streaming = false;
    let flushed = this.output.write(NEWLINE);
    for (const bytes of this.waiting.splice(0)) flushed = this.output.write(bytes);
    return flushed;
  }

  whenDrained(): Promise<void> {
    return new Promise((resolve) => this.output.once('drain', resolve));
  }

  private put(bytes: Buffer): boolean {
    // One write per frame: small frames are copied with their newline, large ones written in two.
    if (bytes.length < 65536) return this.output.write(Buffer.concat([bytes, NEWLINE], bytes.length + 1));
    this.output.write(bytes);
    return this.output.write(NEWLINE);
  }
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Each message read (when `onframe` is not set). */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Each frame with its bytes, read or unread (the proxy's path); takes the place of `onmessage`. */
  onframe?: (frame: Frame) => void;
  private closed = false;
  private readonly input: Readable;
  private readonly writer: FrameWriter;
  private readonly output: Writable;
  private readonly reader: LineReader;
  private readonly readLimit: number;

  /**
   * `maxFrameBytes`: the longest frame held (longer ones are skipped and answered as a parse error). `readLimit`:
   * the longest frame read; a longer one goes to `onframe` unread (with `onmessage` only, every frame is read).
   */
  constructor(
    input: Readable,
    output: Writable,
    maxFrameBytes = DEFAULT_MAX_FRAME_BYTES,
    readLimit = Number.POSITIVE_INFINITY,
  ) {
    this.input = input;
    this.output = output;
    this.writer = new FrameWriter(output);
    this.readLimit = readLimit;
    this.reader = new LineReader(() => maxFrameBytes, 'skip', {
      frame: (raw) => this.onFrame(raw),
      skipped: (limit) => this.reject(null, -32700, `Parse error: a frame longer than ${limit} bytes was skipped`),
    });
  }

  private readonly onData = (chunk: Buffer): void => this.reader.push(chunk);

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private onFrame(raw: Buffer): void {
    const read = readFrame(raw, this.onframe ? this.readLimit : Number.POSITIVE_INFINITY);
    if (read === 'blank') return;
    // Frames are views of the stream's chunks, which a readable stream never reuses.
    if (read === 'unread') {
      this.onframe?.({ kind: 'unread', peek: peekFrame(raw, raw), raw });
      return;
    }
    if ('jsonrpc' in read) {
      if (this.onframe) this.onframe({ kind: 'message', message: read, raw });
      else this.onmessage?.(read);
      return;
    }
    if (read.response) {
      this.onerror?.(new Error(`dropped a response frame that is not JSON-RPC (id ${String(read.id)})`));
      return;
    }
    this.reject(read.id, read.code, read.message);
  }

  /** Answers a frame that could not be read, and reports it. */
  private reject(id: RequestId | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    if (!this.closed) this.writer.frame({ jsonrpc: '2.0', id, error: { code, message } } as JSONRPCMessage);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onStreamError);
    this.output.on('error', this.onStreamError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.sendFrame(message);
  }

  /** Writes a message, or a frame's own bytes; false when the output asks to wait (see `writer`). */
  sendFrame(frame: JSONRPCMessage | Buffer): boolean {
    if (this.closed) throw new Error('the client connection is closed');
    return this.writer.frame(frame);
  }

  /** The writer of the client's output, for a frame passed on in parts. */
  get frames(): FrameWriter {
    return this.writer;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onStreamError);
    this.input.pause();
    this.reader.reset();
    this.onclose?.();
  }
}
