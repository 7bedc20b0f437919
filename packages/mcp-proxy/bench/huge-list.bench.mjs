/**
 * A server whose `tools/list` is one huge line (issue 29 measured 66 MB: 67.7 s through the proxy, 2.9 s direct,
 * the next call 126 s at 1.09 GB). A raw client lists the tools of a real SDK server (`tests/fixtures/echo-server.mjs`)
 * directly and through the proxy, then makes one call; the proxy's peak memory
 * is read from /proc. Run after a build: node bench/huge-list.bench.mjs [MB]. Figures are printed, never asserted.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '../dist/bin.js');
const ECHO = path.join(here, '../tests/fixtures/echo-server.mjs');
const megabytes = Number(process.argv[2] ?? 66);

const tools = [];
let size = 0;
for (let index = 0; size < megabytes * 1e6; index++) {
  const tool = {
    name: index === 0 ? 'first' : `tool_${index}`,
    description: `Tool ${index}: ${'does one thing well. '.repeat(40)}`,
    parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false },
  };
  size += JSON.stringify(tool).length + 1;
  tools.push(tool);
}
const dir = mkdtempSync(path.join(tmpdir(), 'mcp-proxy-huge-'));
const file = path.join(dir, 'tools.json');
writeFileSync(file, JSON.stringify(tools));

const peakOf = (pid) => Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

/** A raw client (the SDK's own stdio client re-copies its buffer per chunk and closes past 10 MiB): frames out, lines in. */
function rawClient(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
  return {
    child,
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    next: async () => (await lines.next()).value,
  };
}

async function run(viaProxy) {
  const server = [ECHO, file];
  const client = rawClient(process.execPath, viaProxy ? [BIN, '--', process.execPath, ...server] : server);
  client.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  await client.next();
  client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  let start = performance.now();
  client.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const line = await client.next();
  const list = performance.now() - start;
  start = performance.now();
  client.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'first', arguments: { n: 1 } } });
  await client.next();
  const next = performance.now() - start;
  const peak = viaProxy ? `, proxy peak RSS ${peakOf(client.child.pid).toFixed(0)} MB` : '';
  console.log(
    `  ${(viaProxy ? 'through the proxy' : 'direct').padEnd(18)} tools/list ${(list / 1000).toFixed(2)} s (${(line.length / 1e6).toFixed(1)} MB), next call ${next.toFixed(1)} ms${peak}`,
  );
  client.child.stdin.end();
  await new Promise((resolve) => client.child.once('exit', resolve));
}

console.log(`tools/list of one ${(JSON.stringify(tools).length / 1e6).toFixed(1)} MB line, a raw client over stdio`);
await run(false);
await run(true);
