/**
 * `dsh-tool-normalizer mcp-proxy …` (also this package's own `dsh-mcp-proxy` bin): parses the options, opens the
 * store when asked, runs the stdio or the HTTP proxy, and closes the store (flushing its receipts) on the way out.
 */
import type { TelemetryStore } from '@dsh-tool-normalizer/telemetry-store';
import { isLoopback } from './guard.js';
import { startHttpProxy } from './http.js';
import { runStdioProxy } from './stdio.js';
import { openStore } from './store.js';

export const USAGE = `usage: dsh-tool-normalizer mcp-proxy [--store DIR] [--answer-errors] -- <server command> [args…]
       dsh-tool-normalizer mcp-proxy [--store DIR] [--answer-errors] --http URL [--listen HOST:PORT]
                                     [--allow-host NAME]… [--allow-origin ORIGIN]… [--allow-remote]

A healing proxy between an MCP client and an MCP server. tools/call arguments are checked against the inputSchema
the server listed; a call that fails it is repaired only when exactly one repair passes it; every other message
passes through untouched.

  -- <command…>      start this stdio MCP server and proxy this process's stdin/stdout to it
  --http URL         proxy a Streamable HTTP MCP server at URL (the proxy serves the same path)
  --listen HOST:PORT where the HTTP proxy listens (default 127.0.0.1:0, printed on stderr)
  --allow-host NAME  also accept this Host name (the proxy accepts localhost, 127.0.0.1, [::1] and its listen
                     address; any other Host is refused with 403, as the MCP SDK's DNS-rebinding check does)
  --allow-origin O   also accept this Origin, e.g. https://app.example.com (loopback origins and requests
                     without Origin are accepted; any other is refused with 403)
  --allow-remote     needed for a --listen address that is not loopback (other machines can then reach the
                     proxy, and through it the server's tools; a warning is printed at start)
  --store DIR        record one receipt per tools/call in the telemetry store in DIR (e.g. ~/.dsh; Node >= 22.13)
  --answer-errors    answer a call that fails the schema and cannot be healed with an isError result and one
                     hint, instead of forwarding it unchanged
  -h, --help         this text
`;

interface CliOptions {
  store?: string;
  answerErrors: boolean;
  http?: string;
  listen?: { host: string; port: number };
  allowHosts: string[];
  allowOrigins: string[];
  allowRemote: boolean;
  command?: string[];
}

const HTTP_FLAGS = new Set(['--listen', '--allow-host', '--allow-origin', '--allow-remote']);
const VALUE_FLAGS = new Set(['--store', '--http', '--listen', '--allow-host', '--allow-origin']);

/** `scheme://host[:port]` of an http(s) origin exactly as given (a trailing slash dropped), or undefined. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin === value.replace(/\/$/, '').toLowerCase() ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function parseListen(value: string): { host: string; port: number } | undefined {
  const match = /^(.*):(\d{1,5})$/.exec(value);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port > 65535) return undefined;
  const host = (match[1] as string).replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  return { host, port };
}

export function parseArgs(argv: readonly string[]): CliOptions | string {
  const options: CliOptions = { answerErrors: false, allowHosts: [], allowOrigins: [], allowRemote: false };
  const seen: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--') {
      options.command = argv.slice(index + 1);
      break;
    }
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    seen.push(flag as string);
    if (flag === '--answer-errors') options.answerErrors = true;
    else if (flag === '--allow-remote') options.allowRemote = true;
    else if (VALUE_FLAGS.has(flag as string)) {
      const value = inline ?? argv[++index];
      if (!value || (inline === undefined && value.startsWith('--'))) return `${flag} needs a value`;
      if (flag === '--store') options.store = value;
      else if (flag === '--http') options.http = value;
      else if (flag === '--allow-host') {
        if (!/^(\[[0-9a-f:.]+\]|[^\s/@:[\]]+|[0-9a-f:.]+)$/i.test(value))
          return `--allow-host needs a host name without port, got ${value}`;
        options.allowHosts.push(value);
      } else if (flag === '--allow-origin') {
        const origin = originOf(value);
        if (!origin) return `--allow-origin needs an origin like https://app.example.com, got ${value}`;
        options.allowOrigins.push(origin);
      } else {
        const listen = parseListen(value);
        if (!listen) return `--listen needs HOST:PORT, got ${value}`;
        options.listen = listen;
      }
    } else return `unknown option ${arg}`;
  }
  if (options.command !== undefined && options.command.length === 0) return 'no server command after --';
  if (options.command && options.http) return 'give either --http URL or -- <server command>, not both';
  if (!options.command && !options.http) return 'give the server: -- <server command…> or --http URL';
  const httpOnly = seen.find((flag) => HTTP_FLAGS.has(flag));
  if (httpOnly && !options.http) return `${httpOnly} is for the HTTP mode (--http URL)`;
  if (options.listen && !isLoopback(options.listen.host) && !options.allowRemote)
    return `--listen ${options.listen.host} is not a loopback address: other machines could reach the proxy and, through it, the server's tools; add --allow-remote to mean it`;
  if (options.http) {
    try {
      const url = new URL(options.http);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return `--http needs an http(s) URL, got ${options.http}`;
    } catch {
      return `--http needs a URL, got ${options.http}`;
    }
  }
  return options;
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export async function run(argv: string[]): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  const options = parseArgs(argv);
  if (typeof options === 'string') {
    process.stderr.write(`dsh-tool-normalizer mcp-proxy: ${options}\n\n${USAGE}`);
    return 2;
  }
  const log = (line: string) => process.stderr.write(`dsh-tool-normalizer mcp-proxy: ${line}\n`);
  let store: TelemetryStore | undefined;
  if (options.store) {
    try {
      store = await openStore(options.store, log);
    } catch (error) {
      log(error instanceof Error ? error.message : String(error));
      return 2;
    }
  }
  const relayOptions = { answerErrors: options.answerErrors, ...(store ? { recorder: store } : {}) };
  try {
    if (options.command) {
      const [command, ...args] = options.command as [string, ...string[]];
      const stopped = new AbortController();
      const onSignal = () => stopped.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        return await runStdioProxy({ ...relayOptions, command, args, log, signal: stopped.signal });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    }
    let proxy: Awaited<ReturnType<typeof startHttpProxy>>;
    try {
      proxy = await startHttpProxy({
        ...relayOptions,
        upstream: options.http as string,
        ...(options.listen ?? {}),
        allowRemote: options.allowRemote,
        allowHosts: options.allowHosts,
        allowOrigins: options.allowOrigins,
        log,
      });
    } catch (error) {
      log(`cannot listen: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    const target = new URL(options.http as string);
    // Origin and path only: a query string or user info may hold a token.
    log(`listening on ${proxy.url.href} -> ${target.origin}${target.pathname}${target.search ? '?…' : ''}`);
    await waitForSignal();
    await proxy.close();
    return 0;
  } finally {
    await store?.close();
  }
}
