/**
 * The HTTP proxy is not an open forwarder: the real `mcp-proxy --http` command in front of the real
 * server-everything (Streamable HTTP, behind a recording hop) gets the SSRF attempts of issue 29 as raw HTTP
 * requests (`//host` paths, absolute-form, CONNECT, `*`, a backslash path) and forged `Host`/`Origin` headers. A
 * loopback-only canary service must never see a connection, and the server must never see a refused request. A
 * non-loopback `--listen` needs `--allow-remote` and warns; and, where this machine allows network namespaces,
 * a client at another address reaches the proxy through a veth pair and meets the same refusals.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, freePort, type HopRequest, proxyBin, startProcess, startRecordingHop } from './support.js';

type Started = Awaited<ReturnType<typeof startProcess>>;

let upstream: Started;
let hop: Server;
let hopUrl: string;
const reached: HopRequest[] = [];
let canary: Server;
let canaryPort: number;
let canaryConnections = 0;
let proxy: Started;
let proxyUrl: URL;

async function startProxy(extra: string[] = []): Promise<{ process: Started; url: URL }> {
  const started = await startProcess(process.execPath, [await proxyBin(), '--http', hopUrl, ...extra]);
  return { process: started, url: new URL((await started.waitFor(/listening on (\S+) ->/))[1] as string) };
}

beforeAll(async () => {
  canary = createServer((_req, res) => res.end('canary: you reached a loopback-only service'));
  canary.on('connection', () => {
    canaryConnections++;
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryPort = (canary.address() as net.AddressInfo).port;
  const port = await freePort();
  upstream = await startProcess(process.execPath, [EVERYTHING, 'streamableHttp'], { PORT: String(port) });
  await upstream.waitFor(/listening on port/i);
  const recording = await startRecordingHop(`http://127.0.0.1:${port}/mcp`, (request) => reached.push(request));
  hop = recording.server;
  hopUrl = recording.url;
  ({ process: proxy, url: proxyUrl } = await startProxy(['--listen', '127.0.0.1:0']));
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await upstream?.stop();
  hop?.closeAllConnections();
  await new Promise((resolve) => hop?.close(resolve));
  canary?.closeAllConnections();
  await new Promise((resolve) => canary?.close(resolve));
});

interface RawAnswer {
  status: number;
  body: string;
}

/** Sends `text` as it is on a fresh connection to `url`'s host and port; the answer once the connection closes. */
function raw(url: URL, text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0),
        body: answer.slice(answer.indexOf('\r\n\r\n') + 4),
      }),
    );
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw POST of an initialize request with the given request target and headers (`Host` first). */
function post(target: string, headers: Record<string, string>): string {
  const lines = Object.entries({
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'Content-Length': String(Buffer.byteLength(INITIALIZE)),
    Connection: 'close',
    ...headers,
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST ${target} HTTP/1.1\r\n${lines.join('')}\r\n${INITIALIZE}`;
}

function text(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}

describe('the HTTP proxy goes to its upstream origin only', () => {
  it('refuses //host and /\\host paths, absolute-form, CONNECT and * with 400; the canary never sees a connection', async () => {
    const own = proxyUrl.host;
    const other = `127.0.0.1:${canaryPort}`;
    const before = reached.length;
    const attempts = [
      `GET //${other}/admin HTTP/1.1\r\nHost: ${own}\r\nConnection: close\r\n\r\n`,
      `GET /\\${other}/admin HTTP/1.1\r\nHost: ${own}\r\nConnection: close\r\n\r\n`,
      `GET http://${other}/admin HTTP/1.1\r\nHost: ${other}\r\nConnection: close\r\n\r\n`,
      `GET http://${other}/admin HTTP/1.1\r\nHost: ${own}\r\nConnection: close\r\n\r\n`,
      post(`//${other}/mcp`, { Host: own }),
      post(`http://${other}/mcp`, { Host: own }),
      `CONNECT ${other} HTTP/1.1\r\nHost: ${other}\r\n\r\n`,
      `OPTIONS * HTTP/1.1\r\nHost: ${own}\r\nConnection: close\r\n\r\n`,
    ];
    for (const attempt of attempts) {
      const answer = await raw(proxyUrl, attempt);
      expect(answer.status, attempt).toBe(400);
      expect(JSON.parse(answer.body).error.message).toMatch(/^Bad request target: .*forwards paths to http:\/\/127/);
    }
    expect(reached.length).toBe(before);
    // A Host naming the canary does not steer an ordinary path either: it reaches the upstream.
    const steered = await raw(proxyUrl, `GET /admin HTTP/1.1\r\nHost: ${other}\r\nConnection: close\r\n\r\n`);
    expect(steered.body).not.toContain('canary');
    expect(reached.at(-1)?.url).toBe('/admin');
    expect(canaryConnections).toBe(0);
    // The canary counts: asked directly, it answers and counts one connection.
    expect(await (await fetch(`http://${other}/`)).text()).toContain('canary');
    expect(canaryConnections).toBe(1);
    canaryConnections = 0;
  });

  it('refuses a forged Host or Origin with 403 before the server sees anything, like the SDK', async () => {
    const before = reached.length;
    const refused: [Record<string, string>, RegExp][] = [
      [{ Host: `evil.example:${proxyUrl.port}` }, /^Invalid Host: evil\.example/],
      [{ Host: 'evil.example' }, /^Invalid Host: evil\.example/],
      [{ Host: proxyUrl.host, Origin: 'http://evil.example' }, /^Invalid Origin header: http:\/\/evil\.example/],
      [{ Host: proxyUrl.host, Origin: 'null' }, /^Invalid Origin header: null/],
      [{ Host: `localhost:${proxyUrl.port}`, Origin: 'http://127.0.0.1.evil.example' }, /^Invalid Origin/],
    ];
    for (const [headers, message] of refused) {
      const answer = await raw(proxyUrl, post('/mcp', headers));
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(answer.body).error.message).toMatch(message);
    }
    // HTTP/1.0 may leave Host out: refused as the SDK refuses it.
    const noHost = await raw(proxyUrl, 'GET /mcp HTTP/1.0\r\n\r\n');
    expect(noHost.status).toBe(403);
    expect(JSON.parse(noHost.body).error.message).toBe('Missing Host header');
    expect(reached.length).toBe(before);

    // Loopback names and loopback origins pass, and the server gets its own name as Host.
    const local = await raw(
      proxyUrl,
      post('/mcp', { Host: `localhost:${proxyUrl.port}`, Origin: 'http://localhost:5173' }),
    );
    expect(local.status).toBe(200);
    expect(local.body).toContain('"serverInfo"');
    expect(reached.at(-1)?.headers.host).toBe(new URL(hopUrl).host);
    expect(reached.at(-1)?.headers.origin).toBe('http://localhost:5173');

    // The SDK's own client passes (Host 127.0.0.1:PORT, no Origin), and a broken call is healed.
    const client = new Client({ name: 'http-safety', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    expect(text(await client.callTool({ name: 'get-sum', arguments: { a: '2', b: 40 } }))).toBe(
      'The sum of 2 and 40 is 42.',
    );
    await client.close();
  });

  it('--allow-host and --allow-origin admit exactly the names given', async () => {
    const { process: second, url } = await startProxy([
      '--listen',
      '127.0.0.1:0',
      '--allow-host',
      'mcp.internal',
      '--allow-origin',
      'https://app.example.com',
    ]);
    try {
      const allowed = await raw(url, post('/mcp', { Host: 'mcp.internal', Origin: 'https://app.example.com' }));
      expect(allowed.status).toBe(200);
      const otherOrigin = await raw(url, post('/mcp', { Host: 'mcp.internal', Origin: 'https://app.example.org' }));
      expect(otherOrigin.status).toBe(403);
      const otherHost = await raw(url, post('/mcp', { Host: 'mcp.internal.evil.example' }));
      expect(otherHost.status).toBe(403);
    } finally {
      await second.stop();
    }
  });

  it('a non-loopback --listen needs --allow-remote, and then warns at start', async () => {
    const refused = await startProcess(process.execPath, [await proxyBin(), '--http', hopUrl, '--listen', '0.0.0.0:0']);
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toMatch(/0\.0\.0\.0 is not a loopback address: .* add --allow-remote/);
    const { process: open } = await startProxy(['--listen', '0.0.0.0:0', '--allow-remote']);
    try {
      expect(open.output()).toMatch(/warning: listening on 0\.0\.0\.0, which other machines can reach/);
    } finally {
      await open.stop();
    }
  });
});

/** Creates a network namespace joined to this one by a veth pair; undefined (with the reason) when not allowed. */
function createNamespace(): { name: string; hostAddress: string; remove: () => void } | string {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  const tag = `${process.pid % 100000}`;
  const name = `mcpproxy${tag}`;
  const outer = `mpo${tag}`;
  const inner = `mpi${tag}`;
  const subnet = `10.213.${process.pid % 250}`;
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  const remove = () => {
    for (const args of [
      ['netns', 'del', name],
      ['link', 'del', outer],
    ])
      try {
        ip(...args);
      } catch {
        // already gone
      }
  };
  remove(); // a namespace left by a killed run of this same pid
  try {
    ip('netns', 'add', name);
  } catch (error) {
    return `cannot create a network namespace here (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})`;
  }
  try {
    ip('link', 'add', outer, 'type', 'veth', 'peer', 'name', inner);
    ip('link', 'set', inner, 'netns', name);
    ip('addr', 'add', `${subnet}.1/30`, 'dev', outer);
    ip('link', 'set', outer, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${subnet}.2/30`, 'dev', inner);
    ip('netns', 'exec', name, 'ip', 'link', 'set', inner, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    remove();
    return `cannot wire a veth pair here (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})`;
  }
  return { name, hostAddress: `${subnet}.1`, remove };
}

const namespace = createNamespace();
if (typeof namespace === 'string') console.warn(`http-safety: the other-address test is skipped: ${namespace}`);

describe.skipIf(typeof namespace === 'string')('a client at another address (a network namespace)', () => {
  const ns = namespace as Exclude<typeof namespace, string>;
  afterAll(() => ns.remove());

  it('reaches a proxy listening on a non-loopback address, and meets the same refusals', async () => {
    const { process: remote, url } = await startProxy(['--listen', `${ns.hostAddress}:0`, '--allow-remote']);
    try {
      expect(remote.output()).toMatch(/warning: listening on 10\.213\./);
      const client = await startProcess('ip', [
        'netns',
        'exec',
        ns.name,
        process.execPath,
        path.join(import.meta.dirname, 'fixtures/remote-client.mjs'),
        url.href,
        String(canaryPort),
      ]);
      const line = await client.waitFor(/^\{.*\}$/m, 30_000);
      expect(await client.exited).toBe(0);
      expect(JSON.parse(line[0])).toEqual({
        sum: 'The sum of 2 and 40 is 42.',
        pathStatus: 400,
        forgedHostStatus: 403,
      });
      expect(canaryConnections).toBe(0);
    } finally {
      await remote.stop();
    }
  });
});
