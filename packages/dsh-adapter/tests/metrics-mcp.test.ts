/**
 * MCP heals in DSH's `/metrics`: the real MCP healing proxy (the published `dsh-tool-normalizer mcp-proxy` command)
 * between the MCP SDK's real `Client` and the real `server-everything`, writing into the same telemetry folder the
 * plugin uses, and the plugin's real `/metrics` route on the real DSH host web server. The proxy's calls are served
 * under their own series (`tool_normalizer_store_harness_calls_total{harness="mcp"}`) and never counted as this
 * process's own calls. The MCP packages are the mcp-proxy package's own (resolved from its folder).
 */
import { createRequire } from 'node:module';
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
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

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

    const { Client, StdioClientTransport } = await sdk();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp-proxy', '--store', host.logDir, '--', process.execPath, EVERYTHING, 'stdio'],
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
    // The proxy flushes its store as it exits.
    await expect.poll(() => alive(pid), { timeout: 15_000 }).toBe(false);

    const after = await samples(host);
    const mcp = (outcome: string) => sumOf(after, METRIC_NAMES.harnessCalls, { harness: 'mcp', outcome });
    expect(mcp('healed-success')).toBe(1);
    expect(mcp('passthrough')).toBe(1);
    expect(mcp('passthrough-failed')).toBe(1);
    expect(mcp('healed-failed')).toBe(0);
    // Not this process's calls: its own counters did not move.
    expect(sumOf(after, METRIC_NAMES.calls)).toBe(sumOf(before, METRIC_NAMES.calls));
    expect(sumOf(after, METRIC_NAMES.heals)).toBe(sumOf(before, METRIC_NAMES.heals));

    // The stats feed the dashboard reads carries the same calls, each event labelled with its harness.
    const stats = await host.stats('?profile=all');
    const recent = stats.recent.filter((event) => event.tool === 'get-sum');
    expect(recent.length).toBeGreaterThanOrEqual(2);
    expect(recent.every((event) => event.harness === 'mcp')).toBe(true);
  }, 60_000);
});
