/**
 * MCP heals in DSH's `/metrics`: the real MCP healing proxy (the published `dsh-tool-normalizer mcp-proxy` command)
 * between the MCP SDK's real `Client` and the real `server-everything`, writing into the same telemetry folder the
 * plugin uses, and the plugin's real `/metrics` route on the real DSH host web server. The proxy's calls are served
 * under their own series (`tool_normalizer_store_harness_calls_total{harness="mcp"}`) and never counted as this
 * process's own calls. The MCP packages are the mcp-proxy package's own (resolved from its folder).
 *
 * With Debian's Prometheus (/usr/bin/prometheus, or PROMETHEUS_PATH) it also scrapes that endpoint every second
 * from before the first MCP call: `increase()` over the run equals the calls the proxy made, outcome by outcome
 * (the series is served at 0 before its first call). Skipped with the reason without Prometheus.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTCOMES } from '@dsh-tool-normalizer/telemetry-store';
import { METRIC_NAMES, METRICS_PATH } from '../src/metrics-prometheus.js';
import { bootHost, type Host } from './support/composition.js';
import { parseExposition, sumOf, type Sample } from './support/exposition.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = path.join(root, 'packages/dsh-tool-normalizer/dist/cli.js');
const fromProxy = createRequire(path.join(root, 'packages/mcp-proxy/package.json'));
const EVERYTHING = path.join(
  path.dirname(fromProxy.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const PROMETHEUS = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
const hasPrometheus = fs.existsSync(PROMETHEUS);
if (!hasPrometheus)
  console.warn(
    `[metrics-mcp] the real-Prometheus increase() test is skipped: no Prometheus at ${PROMETHEUS} (apt-get install prometheus, or set PROMETHEUS_PATH)`,
  );

interface McpClient {
  connect(transport: unknown): Promise<void>;
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<{ content: { text?: string }[] }>;
  close(): Promise<void>;
}

async function sdk() {
  const load = async (id: string) => import(pathToFileURL(fromProxy.resolve(id)).href);
  const { Client } = (await load('@modelcontextprotocol/sdk/client/index.js')) as {
    Client: new (info: { name: string; version: string }) => McpClient;
  };
  const { StdioClientTransport } = (await load('@modelcontextprotocol/sdk/client/stdio.js')) as {
    StdioClientTransport: new (options: {
      command: string;
      args: string[];
      stderr: 'ignore';
    }) => { pid: number | null };
  };
  return { Client, StdioClientTransport };
}

let host: Host | undefined;
let prometheus: ChildProcess | undefined;
let promDir: string | undefined;
afterEach(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('close', resolve));
    prometheus.kill('SIGTERM');
    const force = setTimeout(() => prometheus!.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(force);
  }
  prometheus = undefined;
  if (promDir) fs.rmSync(promDir, { recursive: true, force: true });
  promDir = undefined;
  await host?.dispose();
  host = undefined;
});

/**
 * The published `mcp-proxy --store <the plugin's folder>` between the SDK's client and server-everything: one
 * healed call (`a: "2"`), one untouched, one that fails and cannot be healed; resolves when the proxy has exited
 * (it flushes its store as it exits).
 */
async function proxyCalls(logDir: string): Promise<void> {
  const { Client, StdioClientTransport } = await sdk();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp-proxy', '--store', logDir, '--', process.execPath, EVERYTHING, 'stdio'],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'metrics-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  const healed = await client.callTool({ name: 'get-sum', arguments: { a: '2', b: 40 } });
  expect(healed.content[0]?.text).toBe('The sum of 2 and 40 is 42.');
  await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
  await client.callTool({ name: 'get-sum', arguments: { a: 'one', b: 2 } });
  const pid = transport.pid;
  await client.close();
  await expect.poll(() => alive(pid), { timeout: 15_000 }).toBe(false);
}

/** The outcomes `proxyCalls` ends in. */
const PROXY_OUTCOMES = { 'healed-success': 1, passthrough: 1, 'passthrough-failed': 1, 'healed-failed': 0 };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function samples(h: Host): Promise<Sample[]> {
  const response = await fetch(`http://127.0.0.1:${h.ctx.webServer.port}${METRICS_PATH}`);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return parseExposition(text);
}

function alive(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('MCP proxy receipts in DSH /metrics', () => {
  it('serves the proxy calls the shared store counted under harness="mcp", apart from this process\'s calls', async () => {
    host = await bootHost({ web: true });
    const before = await samples(host);
    // Served at 0 before the first MCP call (every outcome), so Prometheus' increase() sees that call.
    const seeded = before.filter((sample) => sample.name === METRIC_NAMES.harnessCalls);
    expect(seeded.map((sample) => `${sample.labels.harness} ${sample.labels.outcome} ${sample.value}`).sort()).toEqual(
      OUTCOMES.map((outcome) => `mcp ${outcome} 0`).sort(),
    );

    await proxyCalls(host.logDir);

    const after = await samples(host);
    const mcp = (outcome: string) => sumOf(after, METRIC_NAMES.harnessCalls, { harness: 'mcp', outcome });
    for (const [outcome, calls] of Object.entries(PROXY_OUTCOMES)) expect(mcp(outcome), outcome).toBe(calls);
    // Not this process's calls: its own counters did not move.
    expect(sumOf(after, METRIC_NAMES.calls)).toBe(sumOf(before, METRIC_NAMES.calls));
    expect(sumOf(after, METRIC_NAMES.heals)).toBe(sumOf(before, METRIC_NAMES.heals));

    // The stats feed the dashboard reads carries the same calls, each event labelled with its harness.
    const stats = await host.stats('?profile=all');
    const recent = stats.recent.filter((event) => event.tool === 'get-sum');
    expect(recent.length).toBeGreaterThanOrEqual(2);
    expect(recent.every((event) => event.harness === 'mcp')).toBe(true);
  }, 60_000);

  it.skipIf(!hasPrometheus)(
    "a real Prometheus scraping from before the first MCP call: increase() equals the proxy's calls, by outcome",
    async () => {
      host = await bootHost({ web: true });
      const target = `127.0.0.1:${host.ctx.webServer.port}`;
      promDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-prometheus-mcp-'));
      const port = await freePort();
      const promUrl = `http://127.0.0.1:${port}`;
      const config = [
        'global:',
        '  scrape_interval: 1s',
        '  scrape_timeout: 1s',
        'scrape_configs:',
        '  - job_name: dsh-tool-normalizer',
        `    metrics_path: ${METRICS_PATH}`,
        '    static_configs:',
        `      - targets: ['${target}']`,
        '',
      ].join('\n');
      fs.writeFileSync(path.join(promDir, 'prometheus.yml'), config);
      let log = '';
      prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${path.join(promDir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${path.join(promDir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--log.level=warn',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      prometheus.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
      prometheus.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
      type Row = { metric: Record<string, string>; value: [number, string] };
      const query = async (promql: string, at?: number): Promise<Row[]> => {
        const time = at === undefined ? '' : `&time=${at.toFixed(3)}`;
        const response = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(promql)}${time}`);
        const body = (await response.json()) as { status: string; error?: string; data?: { result: Row[] } };
        if (body.status !== 'success') throw new Error(`PromQL ${promql}: ${body.error}`);
        return body.data!.result;
      };
      const series = `${METRIC_NAMES.harnessCalls}{harness="mcp"}`;
      const settle = async (what: string, probe: () => Promise<boolean>) => {
        await expect
          .poll(() => probe().catch(() => false), { timeout: 30_000, interval: 250, message: `${what}\n${log}` })
          .toBe(true);
      };
      // Prometheus has scraped the endpoint before the first MCP call, as a fleet's would have.
      await settle('a first scrape', async () => (await query('count(up == 1)'))[0]?.value[1] === '1');

      await proxyCalls(host.logDir);
      const done = Date.now() / 1000;
      // A scrape after the proxy's calls were committed, then increase() evaluated at that scrape (nothing to
      // extrapolate at either end: the first samples are 0 and the newest is the evaluation time).
      await settle('a scrape that saw every MCP call', async () => {
        const rows = await query(`sum(${series}) and on() (timestamp(up) > ${done.toFixed(3)})`);
        return rows[0]?.value[1] === '3';
      });
      const at = Number((await query('timestamp(up)'))[0]!.value[1]);
      const increase = await query(`sum by (outcome) (increase(${series}[10m]))`, at);
      const byOutcome = Object.fromEntries(increase.map((row) => [row.metric.outcome, Number(row.value[1])]));
      console.log('[metrics-mcp] increase() by outcome', byOutcome);
      for (const [outcome, calls] of Object.entries(PROXY_OUTCOMES))
        expect(byOutcome[outcome] ?? 0, outcome).toBeCloseTo(calls, 6);
    },
    90_000,
  );
});
