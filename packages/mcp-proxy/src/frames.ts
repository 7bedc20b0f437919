/**
 * The client side of the stdio proxy: newline-delimited JSON-RPC on the proxy's own stdin/stdout, as the MCP stdio
 * transport defines it, with the SDK's message schema. It exists instead of the SDK's `StdioServerTransport` for two
 * reasons that matter to a proxy: a frame that is not JSON-RPC is answered (JSON-RPC "Parse error" / "Invalid
 * Request", with the frame's id when it has one) instead of being dropped while the client waits for an answer that
 * never comes, and frames are joined once from their chunks (the SDK's buffer re-copies everything it holds on every
 * chunk and closes the connection past 10 MiB).
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** The largest frame read (default 64 MiB); a longer line is skipped up to its newline and answered as a parse error. */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

function requestIdOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private held = 0;
  private skipping = false;
  private closed = false;
  private readonly input: Readable;
  private readonly output: Writable;
  private readonly maxFrameBytes: number;

  constructor(input: Readable, output: Writable, maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {
    this.input = input;
    this.output = output;
    this.maxFrameBytes = maxFrameBytes;
  }

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, newline));
      this.endFrame();
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  };

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.held + part.length > this.maxFrameBytes) {
      this.skipping = true;
      this.chunks = [];
      this.held = 0;
      return;
    }
    this.chunks.push(part);
    this.held += part.length;
  }

  private endFrame(): void {
    if (this.skipping) {
      this.skipping = false;
      this.reject(null, -32700, `Parse error: a frame longer than ${this.maxFrameBytes} bytes was skipped`);
      return;
    }
    const frame = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.held);
    this.chunks = [];
    this.held = 0;
    const text = frame.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Never the parser's message: it quotes the frame, which may hold a secret.
      this.reject(null, -32700, `Parse error: a frame of ${frame.length} bytes is not valid JSON`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = requestIdOf(value);
      // A response-shaped frame (no method) cannot be answered: JSON-RPC answers requests only.
      if (id !== null && typeof value === 'object' && value !== null && !('method' in value) && !('error' in value)) {
        this.onerror?.(new Error(`dropped a response frame that is not JSON-RPC (id ${String(id)})`));
        return;
      }
      this.reject(id, -32600, 'Invalid Request: the frame is JSON but not a JSON-RPC 2.0 message');
      return;
    }
    this.onmessage?.(value as JSONRPCMessage);
  }

  /** Answers a frame that could not be read, and reports it. */
  private reject(id: RequestId | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    this.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`).catch(() => {});
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onStreamError);
    this.output.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  private write(text: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the client connection is closed'));
    return new Promise((resolve, reject) => {
      const flushed = this.output.write(text, (error) => (error ? reject(error) : undefined));
      if (flushed) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onStreamError);
    this.input.pause();
    this.chunks = [];
    this.onclose?.();
  }
}
