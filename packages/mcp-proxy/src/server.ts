/**
 * The server side of the stdio proxy: the MCP server as a child process (started as the SDK's
 * `StdioClientTransport` starts it: `cross-spawn`, no shell, stderr inherited, stopped by closing its stdin, then
 * SIGTERM, then SIGKILL), with its stdout read as frames (`LineReader`). A frame up to the read limit is read and
 * handed on with its bytes; a longer one is passed on in parts as it arrives (bounded memory, no parse), and only
 * what `peekFrame` sees of its two ends is reported. A line that is not JSON-RPC (a server that logs to stdout) is
 * reported without quoting it and not passed on, as the SDK's transport drops it.
 */
import type { ChildProcess } from 'node:child_process';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import spawn from 'cross-spawn';
import { FrameWriter, LineReader, type Peek, peekFrame, readFrame } from './frames.js';

export interface ServerProcessOptions {
  command: string;
  args: readonly string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  /** The longest frame read (longer ones are passed on unread). */
  readLimit: number;
  /** The longest frame held whole while `holdWhole()` is true (the relay waits for an answer of its own). */
  maxFrameBytes: number;
  holdWhole: () => boolean;
}

/** What the server's stdout carries, frame by frame. */
export interface ServerSink {
  /** A frame read: the message and its bytes. */
  message(message: JSONRPCMessage, raw: Buffer): void;
  /** A frame held whole but not read (longer than the read limit, while `holdWhole()`). */
  unread(peek: Peek, raw: Buffer): void;
  /** A frame passed on in parts: its head, each later part, and at the end what its two ends say. */
  streamStart(head: Buffer): void;
  streamPart(part: Buffer): void;
  streamEnd(peek: Peek): void;
  /** A problem with the server's output (never quoting it). */
  problem(text: string): void;
}

/** How long `close` waits for the server after closing its stdin, and again after SIGTERM (as the SDK does). */
const EXIT_WAIT_MS = 2_000;

export class ServerProcess {
  onclose?: () => void;
  private child: ChildProcess | undefined;
  private writer: FrameWriter | undefined;
  private readonly options: ServerProcessOptions;
  private readonly sink: ServerSink;

  constructor(options: ServerProcessOptions, sink: ServerSink) {
    this.options = options;
    this.sink = sink;
  }

  /** Starts the server; rejects when it cannot be spawned. */
  start(): Promise<void> {
    const { options, sink } = this;
    let head: Buffer | undefined;
    const reader = new LineReader(() => (options.holdWhole() ? options.maxFrameBytes : options.readLimit), 'stream', {
      frame: (raw) => {
        const read = readFrame(raw, options.readLimit);
        if (read === 'blank') return;
        if (read === 'unread') return sink.unread(peekFrame(raw, raw), raw);
        if ('jsonrpc' in read) return sink.message(read, raw);
        sink.problem(
          read.code === -32700
            ? 'a line on its stdout is not JSON (ignored; servers must log to stderr)'
            : 'a frame on its stdout is JSON but not a JSON-RPC message (ignored)',
        );
      },
      streamStart: (part) => {
        head = part;
        sink.streamStart(part);
      },
      streamPart: (part) => sink.streamPart(part),
      streamEnd: (tail) => {
        const peek = peekFrame(head ?? tail, tail);
        head = undefined;
        sink.streamEnd(peek);
      },
    });
    return new Promise((resolve, reject) => {
      const child = spawn(options.command, [...options.args], {
        env: options.env,
        stdio: ['pipe', 'pipe', 'inherit'],
        shell: false,
        windowsHide: process.platform === 'win32',
        ...(options.cwd ? { cwd: options.cwd } : {}),
      });
      this.child = child;
      child.once('error', (error) => {
        if (this.child === child && child.pid === undefined) reject(error);
        else sink.problem(error.message);
      });
      child.once('spawn', () => {
        this.writer = new FrameWriter(child.stdin as NonNullable<typeof child.stdin>);
        resolve();
      });
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => sink.problem(`its stdin: ${error.message}`));
      child.stdout?.on('data', (chunk: Buffer) => reader.push(chunk));
      child.stdout?.on('error', (error) => sink.problem(`its stdout: ${error.message}`));
    });
  }

  /** Writes a message, or a frame's own bytes, to the server's stdin; false when it asks to wait. */
  send(frame: JSONRPCMessage | Buffer): boolean {
    if (!this.writer || !this.child) throw new Error('the server is not running');
    return this.writer.frame(frame);
  }

  /** Waits until the server's stdin takes more. */
  drained(): Promise<void> {
    return this.writer ? this.writer.whenDrained() : Promise.resolve();
  }

  /** Pauses or resumes reading the server's stdout (back-pressure from the client's side). */
  pause(paused: boolean): void {
    if (paused) this.child?.stdout?.pause();
    else this.child?.stdout?.resume();
  }

  /** Stops the server: closes its stdin, then SIGTERM, then SIGKILL, each after a wait. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const wait = () =>
      Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, EXIT_WAIT_MS).unref())]);
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    await wait();
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
      if (signal === 'SIGTERM') await wait();
    }
  }
}
