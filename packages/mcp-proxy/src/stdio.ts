/**
 * `mcp-proxy -- <server command …>`: the proxy between an MCP client on this process's stdin/stdout and a stdio MCP
 * server it starts as a child (`ServerProcess`, with this process's whole environment: the client that started the
 * proxy already chose it). Frames go side to side through one `CallRelay`, in order: a frame the relay does not
 * change is written on as the bytes that came (no re-serialization), a healed call as its new JSON. A frame longer
 * than the read limit is passed on unread (a huge `tools/list` answer streams through in parts, in bounded memory,
 * and is not learned). The relay's own `tools/list` requests go to the server's stdin and their answers stay with
 * it. When the server exits or cannot start, every request still waiting is answered with a JSON-RPC error naming
 * the cause, and the proxy exits; when the client closes stdin, the server is stopped and the proxy exits.
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_FRAME_BYTES, DEFAULT_READ_LIMIT, type Frame, LineTransport } from './frames.js';
import { CallRelay, type ClientStep, SERVER_GONE_CODE, type RelayOptions } from './relay.js';
import { ServerProcess } from './server.js';

export interface StdioProxyOptions extends RelayOptions {
  command: string;
  args?: string[];
  /** Working directory of the server (default: this process's). */
  cwd?: string;
  /** Where the client's frames come from and go to (default: process.stdin / process.stdout). */
  input?: Readable;
  output?: Writable;
  /** One line per problem (default: to stderr, which MCP clients show as the server's log). */
  log?: (line: string) => void;
  maxFrameBytes?: number;
  /** The longest frame read and looked at (default 4 MiB); a longer one passes unread, in either direction. */
  readLimit?: number;
  /** Aborting it stops the server and ends the proxy (the command wires SIGINT and SIGTERM to it). */
  signal?: AbortSignal;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A problem with what the server wrote, without quoting it: the SDK's parse errors quote the frame (a server that
 * prints its own logs to stdout, with whatever they hold), and this line goes to the client's log file.
 */
/** Runs the proxy until either side closes; resolves with the exit code (0 when the client closed, 1 otherwise). */
export async function runStdioProxy(options: StdioProxyOptions): Promise<number> {
  const log = options.log ?? ((line: string) => process.stderr.write(`dsh-tool-normalizer mcp-proxy: ${line}\n`));
  const relay = new CallRelay(options);
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const readLimit = options.readLimit ?? DEFAULT_READ_LIMIT;
  const client = new LineTransport(
    options.input ?? process.stdin,
    options.output ?? process.stdout,
    maxFrameBytes,
    readLimit,
  );

  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });
  let serverGone: string | undefined;
  let stopping = false;

  const toClient = (frame: JSONRPCMessage | Buffer): void => {
    try {
      client.sendFrame(frame);
    } catch (error) {
      log(`could not write to the client: ${describe(error)}`);
    }
  };

  let streamed = 0;
  const server = new ServerProcess(
    {
      command: options.command,
      args: options.args ?? [],
      env: process.env,
      readLimit,
      maxFrameBytes,
      holdWhole: () => relay.waitingForOwn,
      ...(options.cwd ? { cwd: options.cwd } : {}),
    },
    {
      message: (message, raw) => {
        if (!relay.fromServer(message)) toClient(raw);
      },
      unread: (peek, raw) => {
        if (!relay.fromServerUnread(peek, raw.length)) toClient(raw);
      },
      // A frame too long to hold goes on as it comes; the server is paused while the client's side is full.
      streamStart: (head) => {
        streamed = head.length;
        flow(client.frames.open(head));
      },
      streamPart: (part) => {
        streamed += part.length;
        flow(client.frames.part(part));
      },
      streamEnd: (peek) => {
        relay.fromServerUnread(peek, streamed);
        flow(client.frames.close());
      },
      problem: (text) => log(`server: ${text}`),
    },
  );
  const flow = (flushed: boolean): void => {
    if (flushed) return;
    server.pause(true);
    void client.frames.whenDrained().then(() => server.pause(false));
  };

  const stop = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server.close().catch(() => {});
    await client.close().catch(() => {});
    finish(code);
  };

  const goneAnswer = (message: JSONRPCMessage): void => {
    if ('method' in message && 'id' in message && message.id !== undefined) {
      const text = `MCP server unavailable: ${serverGone} (the ${message.method} request was not sent)`;
      toClient({ jsonrpc: '2.0', id: message.id, error: { code: SERVER_GONE_CODE, message: text } });
    }
  };

  const toServer = (frame: JSONRPCMessage | Buffer): void => {
    try {
      server.send(frame);
    } catch (error) {
      log(`could not write to the server: ${describe(error)}`);
      serverGone ??= `could not write to it (${describe(error)})`;
      for (const answer of relay.serverGone(serverGone)) toClient(answer);
    }
  };
  const sendOwn = async (request: JSONRPCMessage): Promise<void> => {
    if (serverGone !== undefined) throw new Error(serverGone);
    server.send(request);
  };
  const deliver = (frame: Frame & { kind: 'message' }, step: ClientStep): void => {
    if (serverGone !== undefined) goneAnswer(frame.message);
    else if ('answer' in step) toClient(step.answer);
    else toServer(step.forward === frame.message ? frame.raw : step.forward);
  };

  client.onerror = (error) => log(`client frame: ${describe(error)}`);
  client.onclose = () => void stop(0);
  // One client frame after the other, so the server sees them in the client's order. A frame the relay decides at
  // once (every frame but a tools/call it must heal or list for) goes straight on when nothing waits before it.
  let queue: Promise<void> = Promise.resolve();
  let waiting = 0;
  const handle = (frame: Frame): Promise<void> | undefined => {
    if (frame.kind === 'unread') {
      if (serverGone !== undefined) return;
      relay.fromClientUnread(frame.peek);
      toServer(frame.raw);
      return;
    }
    if (serverGone !== undefined) {
      goneAnswer(frame.message);
      return;
    }
    const now = relay.decideNow(frame.message);
    if (now) {
      deliver(frame, now);
      return;
    }
    return relay.fromClient(frame.message, { send: sendOwn }).then((step) => deliver(frame, step));
  };
  client.onframe = (frame) => {
    if (waiting === 0) {
      const pending = handle(frame);
      if (!pending) return;
      waiting++;
      queue = pending.catch((error) => log(`relay: ${describe(error)}`)).finally(() => waiting--);
      return;
    }
    waiting++;
    queue = queue
      .then(() => handle(frame))
      .catch((error) => log(`relay: ${describe(error)}`))
      .finally(() => waiting--);
  };

  server.onclose = () => {
    if (stopping) return;
    serverGone ??= `the server process "${options.command}" exited`;
    log(serverGone);
    for (const answer of relay.serverGone(serverGone)) toClient(answer);
    // Give the answers a moment to reach the client, then close: the client sees the connection end after them.
    setTimeout(() => void stop(1), 50);
  };

  options.signal?.addEventListener('abort', () => void stop(0), { once: true });
  try {
    await server.start();
  } catch (error) {
    log(`could not start the MCP server "${options.command}": ${describe(error)}`);
    return 1;
  }
  await client.start();
  return finished;
}
