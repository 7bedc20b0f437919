/**
 * `mcp-proxy -- <server command …>`: the proxy between an MCP client on this process's stdin/stdout and a stdio MCP
 * server it starts as a child (the SDK's `StdioClientTransport`, with this process's whole environment: the client
 * that started the proxy already chose it). Messages go transport to transport through one `CallRelay`; the
 * relay's own `tools/list` requests go to the server's stdin and their answers stay with it. When the
 * server exits or cannot start, every request still waiting is answered with a JSON-RPC error naming the cause, and
 * the proxy exits; when the client closes stdin, the server is stopped and the proxy exits.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_FRAME_BYTES, LineTransport } from './frames.js';
import { CallRelay, SERVER_GONE_CODE, type RelayOptions } from './relay.js';

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
function describeServerError(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'SyntaxError') return 'a line on its stdout is not JSON (ignored; servers must log to stderr)';
  if (name === 'ZodError') return 'a frame on its stdout is JSON but not a JSON-RPC message (ignored)';
  return describe(error);
}

/** Runs the proxy until either side closes; resolves with the exit code (0 when the client closed, 1 otherwise). */
export async function runStdioProxy(options: StdioProxyOptions): Promise<number> {
  const log = options.log ?? ((line: string) => process.stderr.write(`dsh-tool-normalizer mcp-proxy: ${line}\n`));
  const relay = new CallRelay(options);
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const client = new LineTransport(options.input ?? process.stdin, options.output ?? process.stdout, maxFrameBytes);
  const server = new StdioClientTransport({
    command: options.command,
    args: options.args ?? [],
    env: Object.fromEntries(
      Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    stderr: 'inherit',
    maxBufferSize: maxFrameBytes,
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });

  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });
  let serverGone: string | undefined;
  let stopping = false;

  const toClient = (message: JSONRPCMessage): void => {
    client.send(message).catch((error) => log(`could not write to the client: ${describe(error)}`));
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

  client.onerror = (error) => log(`client frame: ${describe(error)}`);
  client.onclose = () => void stop(0);
  const handleClient = async (message: JSONRPCMessage): Promise<void> => {
    if (serverGone !== undefined) return goneAnswer(message);
    const step = await relay.fromClient(message, { send: sendOwn });
    if (serverGone !== undefined) return goneAnswer(message);
    if ('answer' in step) return toClient(step.answer);
    server.send(step.forward).catch((error) => {
      log(`could not write to the server: ${describe(error)}`);
      serverGone ??= `could not write to it (${describe(error)})`;
      for (const answer of relay.serverGone(serverGone)) toClient(answer);
    });
  };
  const sendOwn = async (request: JSONRPCMessage): Promise<void> => {
    if (serverGone !== undefined) throw new Error(serverGone);
    await server.send(request);
  };
  // One client message after the other, so the server sees them in the client's order.
  let queue = Promise.resolve();
  client.onmessage = (message) => {
    queue = queue.then(() => handleClient(message)).catch((error) => log(`relay: ${describe(error)}`));
  };

  server.onerror = (error) => log(`server: ${describeServerError(error)}`);
  server.onmessage = (message) => {
    if (!relay.fromServer(message)) toClient(message);
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
