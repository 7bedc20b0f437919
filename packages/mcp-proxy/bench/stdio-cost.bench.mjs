/**
 * What a valid call costs through the stdio proxy, against a process that only pipes stdio (`bench/pipe.mjs`): the
 * SDK's real Client calls a real SDK server (`tests/fixtures/echo-server.mjs`, answers at once) three ways,
 * interleaved call by call so the shared machine's load falls on all three alike: direct, through the pipe, and
 * through the proxy. The figure that matters is the proxy's extra time over the pipe (paired, per round). Run after
 * a build: node bench/stdio-cost.bench.mjs [rounds] [--cpu-prof]. Figures are printed, never asserted.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '../dist/bin.js');
const PIPE = path.join(here, 'pipe.mjs');
const ECHO = path.join(here, '../tests/fixtures/echo-server.mjs');
const rounds = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 2000);
const profile = process.argv.includes('--cpu-prof');

const dir = mkdtempSync(path.join(tmpdir(), 'mcp-proxy-bench-'));
const tools = path.join(dir, 'tools.json');
writeFileSync(
  tools,
  JSON.stringify([
    {
      name: 'read_text_file',
      description: 'Read a file',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' }, head: { type: 'number' }, tail: { type: 'number' } },
        required: ['path'],
        additionalProperties: false,
      },
    },
  ]),
);
const server = [process.execPath, ECHO, tools];

async function connect(prefix) {
  const [command, ...args] = [...prefix, ...server];
  const transport = new StdioClientTransport({ command, args, stderr: 'inherit', cwd: dir });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  await client.listTools();
  client.pid = transport.pid;
  return client;
}

/** CPU time (user + system) the process has used so far, in µs (Linux /proc; clock ticks are 10 ms). */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

// BASELINE_BIN=another build of the proxy (e.g. an earlier commit's, bundled) adds it as a fourth way, for a
// before/after under the same load.
const baseline = process.env.BASELINE_BIN;
const ways = {
  direct: await connect([]),
  pipe: await connect([process.execPath, PIPE, '--']),
  proxy: await connect([process.execPath, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []), BIN, '--']),
  ...(baseline ? { baseline: await connect([process.execPath, baseline, '--']) } : {}),
};
const valid = { name: 'read_text_file', arguments: { path: '/srv/app/src/index.ts', head: 20 } };
const samples = { direct: [], pipe: [], proxy: [], baseline: [], extra: [], baselineExtra: [] };
const cpuBefore = {};
for (let round = -200; round < rounds; round++) {
  if (round === 0) for (const [name, client] of Object.entries(ways)) cpuBefore[name] = cpuOf(client.pid);
  const took = {};
  for (const [name, client] of Object.entries(ways)) {
    const start = performance.now();
    await client.callTool(valid);
    took[name] = (performance.now() - start) * 1000;
  }
  if (round < 0) continue; // warm-up
  for (const name of Object.keys(ways)) samples[name].push(took[name]);
  samples.extra.push(took.proxy - took.pipe);
  if (baseline) samples.baselineExtra.push(took.baseline - took.pipe);
}
const at = (list, q) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(q * list.length))];
const us = (value) => `${value.toFixed(1)} µs`.padStart(10);
console.log(`valid tools/call round trips, SDK Client -> echo server over stdio (${rounds} rounds, interleaved)`);
for (const [label, list] of [
  ['direct', samples.direct],
  ['through bench/pipe.mjs (only pipes stdio)', samples.pipe],
  ['through the proxy', samples.proxy],
  ['proxy minus pipe, paired per round', samples.extra],
  ...(baseline
    ? [
        ['through BASELINE_BIN', samples.baseline],
        ['BASELINE_BIN minus pipe, paired per round', samples.baselineExtra],
      ]
    : []),
])
  console.log(`  ${label.padEnd(44)} p25 ${us(at(list, 0.25))}  p50 ${us(at(list, 0.5))}  p90 ${us(at(list, 0.9))}`);
console.log('CPU time of the process between client and server, per call (all its threads, /proc)');
for (const [name, client] of Object.entries(ways))
  if (name !== 'direct') console.log(`  ${name.padEnd(44)} ${us((cpuOf(client.pid) - cpuBefore[name]) / rounds)}`);
for (const client of Object.values(ways)) await client.close();
if (profile) console.log(`CPU profile of the proxy in ${dir}`);
