/**
 * What the proxy costs. (1) The healing decision alone, per call (in process). (2) Round trips of the SDK's real
 * Client to the real server-everything over stdio, direct and through the proxy, for small valid calls, healed
 * calls and a 10 MB argument. Run after a build: node bench/proxy.bench.mjs [rounds]. Figures are printed, never
 * asserted.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHealer } from '../dist/index.js';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const EVERYTHING = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const BIN = path.join(here, '../dist/bin.js');
const rounds = Number(process.argv[2] ?? 300);

function quantiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) };
}
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const row = (label, samples) => {
  const q = quantiles(samples);
  console.log(
    `${label.padEnd(48)} p50 ${fmt(q.p50).padStart(10)}  p99 ${fmt(q.p99).padStart(10)}  max ${fmt(q.max).padStart(10)}`,
  );
};

// (1) The decision alone.
const healer = createHealer([
  {
    name: 'get-sum',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
  {
    name: 'read_text_file',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, head: { type: 'number' } },
      required: ['path'],
      additionalProperties: false,
    },
  },
]);
const decisions = [
  ['valid (get-sum)', 'get-sum', { a: 1, b: 2 }],
  ['stringly number (get-sum)', 'get-sum', { a: '1', b: 2 }],
  ['alias + stringly (read_text_file)', 'read_text_file', { file_path: '/a', head: '3' }],
  ['fenced JSON (get-sum)', 'get-sum', '```json\n{"a":1,"b":2}\n```'],
  ['unhealable (get-sum {"a":"two"})', 'get-sum', { a: 'two', b: 2 }],
  ['valid, 1 MB string', 'read_text_file', { path: 'p'.repeat(1_000_000) }],
];
console.log(`createHealer().heal, in process (${rounds * 10} runs each)`);
for (const [label, name, args] of decisions) {
  for (let i = 0; i < 200; i++) await healer.heal(name, args);
  const samples = [];
  for (let i = 0; i < rounds * 10; i++) {
    const start = performance.now();
    await healer.heal(name, args);
    samples.push(performance.now() - start);
  }
  row(`  ${label}`, samples);
}

// (2) Round trips through real processes.
async function connect(viaProxy) {
  const server = [EVERYTHING, 'stdio'];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: viaProxy ? [BIN, '--', process.execPath, ...server] : server,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  await client.listTools();
  return client;
}

async function timeCalls(client, params, count) {
  const samples = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await client.callTool(params, undefined, { timeout: 120_000 });
    samples.push(performance.now() - start);
  }
  return samples;
}

console.log(`\nround trips, SDK Client -> server-everything over stdio (${rounds} calls each)`);
const direct = await connect(false);
const proxied = await connect(true);
const valid = { name: 'get-sum', arguments: { a: 1, b: 2 } };
const broken = { name: 'get-sum', arguments: { a: '1', b: 2 } };
row('  direct, valid call', await timeCalls(direct, valid, rounds));
row('  through the proxy, valid call', await timeCalls(proxied, valid, rounds));
row('  through the proxy, healed call', await timeCalls(proxied, broken, rounds));
const huge = { name: 'echo', arguments: { message: 'm'.repeat(10_000_000) } };
row('  direct, 10 MB echo', await timeCalls(direct, huge, 3));
row('  through the proxy, 10 MB echo', await timeCalls(proxied, huge, 3));
await direct.close();
await proxied.close();
