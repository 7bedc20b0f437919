/**
 * Shared set-up of the proxy's real-process tests: the proxy command bundled fresh from its sources (so a test never
 * runs a stale dist/), the reference servers' entry files, a tap that records what a server receives, and an SDK
 * `Client` connected through the proxy over stdio.
 */
import { spawn as spawnChild } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const here = import.meta.dirname;

export const EVERYTHING = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
export const FILESYSTEM = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist/index.js',
);
export const TAP = path.join(here, 'fixtures/tap.mjs');
export const CRASHING = path.join(here, 'fixtures/crashing-server.mjs');

let bundled: Promise<string> | undefined;

/** The proxy command (src/bin.ts) bundled into one file the way the meta-package ships it. */
export function proxyBin(): Promise<string> {
  bundled ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-proxy-bin-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = path.join(dir, 'bin.mjs');
    await build({
      entryPoints: [path.join(here, '../src/bin.ts')],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      conditions: ['@dsh-tool-normalizer/source', 'module'],
      banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
      logLevel: 'error',
    });
    return outfile;
  })();
  return bundled;
}

/** A temporary folder removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The frames a tapped server received (one JSON text per line, as the bytes arrived). */
export function tappedFrames(file: string): string[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter((line) => line !== '');
}

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** Every frame the client wrote, as it wrote it (the SDK's stdio transport writes `JSON.stringify(message)`). */
  sent: string[];
  /** Every message the client received from the proxy. */
  received: JSONRPCMessage[];
}

/** An SDK client that starts `proxy [options] -- server…` as its stdio server. */
export async function connectThroughProxy(
  proxyOptions: string[],
  server: string[],
  clientOptions: ConstructorParameters<typeof Client>[1] = {},
  startTimeoutMs = 60_000,
): Promise<Connected> {
  const bin = await proxyBin();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, ...proxyOptions, '--', ...server],
    stderr: 'pipe',
    env: { ...process.env } as Record<string, string>,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const sent: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    sent.push(JSON.stringify(message));
    return send(message);
  };
  const client = new Client({ name: 'mcp-proxy-test', version: '1.0.0' }, clientOptions);
  // A server may take long to start on a loaded machine: initialize may wait up to `startTimeoutMs`.
  await client.connect(transport, { timeout: startTimeoutMs });
  const received: JSONRPCMessage[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    received.push(message);
    deliver?.(message);
  };
  return { client, transport, stderr: () => stderr, sent, received };
}

/** A free TCP port on 127.0.0.1 (asked from the OS, then released). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A child process started by a test, with its output collected; `waitFor` resolves when its output matches. */
export async function startProcess(command: string, args: string[], env: Record<string, string> = {}) {
  const { spawn } = await import('node:child_process');
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = async (pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(output);
      if (match) return match;
      if (child.exitCode !== null || Date.now() > until)
        throw new Error(`process did not print ${pattern} (exit ${child.exitCode}); output:\n${output.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { child, output: () => output, waitFor, exited, stop };
}

/** A request a recording hop received: what the server behind it got from the proxy. */
export interface HopRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * An HTTP hop on 127.0.0.1 in front of `target` (a real server): each request is handed to `onRequest` as it
 * arrived (the bytes the server gets from the proxy), then forwarded, the answer streamed back. Its URL has
 * `target`'s path.
 */
export async function startRecordingHop(
  target: string,
  onRequest: (request: HopRequest) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    onRequest({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
    try {
      const response = await fetch(new URL(req.url ?? '/', target), {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding') out[name] = value;
      });
      res.writeHead(response.status, out);
      res.flushHeaders();
      if (response.body) for await (const chunk of response.body) res.write(chunk);
      res.end();
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}${new URL(target).pathname}` };
}

/** The proxy as a bare child process, for writing raw frames; `next()` reads one answer line. */
export async function rawProxy(server: string[], options: string[] = []) {
  const child = spawnChild(process.execPath, [await proxyBin(), ...options, '--', ...server], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await lines.next();
    if (line.done) throw new Error(`the proxy closed its output; stderr: ${stderr}`);
    return JSON.parse(line.value);
  };
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  return { child, next, exited, stderr: () => stderr };
}
