/**
 * The OTLP push, end to end through OpenTelemetry's real metrics SDK and OTLP/HTTP exporter into a receiver on
 * 127.0.0.1 that decodes what arrives against the OTLP JSON shape (ExportMetricsServiceRequest, checked with a
 * typebox schema of the fields used here): the configured headers are sent, the resource says who pushed, names,
 * point attributes and values equal the process counters, sums are cumulative and monotonic, a plugin dispose
 * pushes a final collection, start times are when counting began, build_info is pushed, and a collector that
 * refuses or is dead breaks nothing: one warning per failure episode, counted failures, and in a real child
 * process a stop against a collector that refuses or never answers resolves with no socket of the push left open.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer as createNetServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HARNESSES, OUTCOMES, createTelemetryStore } from '@dsh-tool-normalizer/telemetry-store';
import { FleetCounters, PLUGIN_VERSION, processFleetCounters, type ProcessIdentity } from '../src/metrics.js';
import { OTLP_METRIC_NAMES, startOtlpPush } from '../src/metrics-otlp.js';
import { METRIC_NAMES, createMetricsRegistry } from '../src/metrics-prometheus.js';
import { parseExposition, sumOf } from './support/exposition.js';
import { bootHost, type Host } from './support/composition.js';

const AnyValue = Type.Object({
  stringValue: Type.Optional(Type.String()),
  intValue: Type.Optional(Type.Union([Type.String(), Type.Number()])),
});
const KeyValue = Type.Object({ key: Type.String(), value: AnyValue });
const NumberDataPoint = Type.Object({
  attributes: Type.Optional(Type.Array(KeyValue)),
  startTimeUnixNano: Type.Union([Type.String(), Type.Number()]),
  timeUnixNano: Type.Union([Type.String(), Type.Number()]),
  asDouble: Type.Optional(Type.Number()),
  asInt: Type.Optional(Type.Union([Type.String(), Type.Number()])),
});
const Metric = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  unit: Type.Optional(Type.String()),
  sum: Type.Optional(
    Type.Object({
      dataPoints: Type.Array(NumberDataPoint),
      aggregationTemporality: Type.Number(),
      isMonotonic: Type.Boolean(),
    }),
  ),
});
/** The OTLP/JSON `ExportMetricsServiceRequest` (opentelemetry-proto, metrics/v1), the fields this test reads. */
const ExportMetricsServiceRequest = Type.Object({
  resourceMetrics: Type.Array(
    Type.Object({
      resource: Type.Object({ attributes: Type.Array(KeyValue) }),
      scopeMetrics: Type.Array(
        Type.Object({
          scope: Type.Object({ name: Type.String(), version: Type.Optional(Type.String()) }),
          metrics: Type.Array(Metric),
        }),
      ),
    }),
  ),
});
type ExportRequest = Static<typeof ExportMetricsServiceRequest>;
/** AGGREGATION_TEMPORALITY_CUMULATIVE in opentelemetry-proto. */
const CUMULATIVE = 2;
const IDENTITY: ProcessIdentity = {
  host: 'h',
  profile: 'headless',
  instance: 'h/headless',
  dshVersion: 'x',
  pluginVersion: PLUGIN_VERSION,
  nodeVersion: '0',
};

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: ExportRequest;
}

let receiver: Server;
let received: Received[];
let status: number;
let endpoint: string;
let host: Host | undefined;

beforeEach(async () => {
  received = [];
  status = 200;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      if (!Value.Check(ExportMetricsServiceRequest, body))
        throw new Error(
          `not an OTLP metrics request: ${JSON.stringify([...Value.Errors(ExportMetricsServiceRequest, body)].slice(0, 3))}`,
        );
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/metrics`;
});

afterEach(async () => {
  await host?.dispose();
  host = undefined;
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** Runs a command to its exit (killed after `boundMs`, a generous bound on a condition, not a speed check). */
function run(
  command: string,
  args: string[],
  boundMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), boundMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function attributes(list: readonly Static<typeof KeyValue>[] | undefined): Record<string, string> {
  return Object.fromEntries(
    (list ?? []).map((entry) => [entry.key, entry.value.stringValue ?? String(entry.value.intValue)]),
  );
}

function metric(request: ExportRequest, name: string) {
  return request.resourceMetrics
    .flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics))
    .find((entry) => entry.name === name);
}

function pointValue(point: Static<typeof NumberDataPoint>): number {
  return point.asDouble ?? Number(point.asInt);
}

/** The pushed harness-call points as `harness outcome value` lines, sorted. */
function harnessPoints(request: ExportRequest): string[] {
  const pushed = metric(request, OTLP_METRIC_NAMES.harnessCalls);
  return (pushed?.sum?.dataPoints ?? [])
    .map((point) => {
      const labels = attributes(point.attributes);
      return `${labels.harness} ${labels.outcome} ${pointValue(point)}`;
    })
    .sort();
}

describe('OTLP/HTTP push', () => {
  it('pushes the process counters with resource attributes and the configured headers; a dispose pushes a final collection', async () => {
    host = await bootHost({
      plugin: {
        otlpEndpoint: endpoint,
        otlpHeaders: { authorization: 'Bearer otlp-test-token', 'x-team': 'tools' },
        otlpIntervalMs: 600_000,
      },
      meteredTokens: 900,
    });
    const unread = host.file('unread.txt', 'beta\n');
    await host.execute('edit', { file_path: unread, old_string: 'beta', new_string: 'B' });
    await host.execute('read', { file_path: `${host.dir}/nothing-here` });
    await host.execute('read', { file_path: `${host.dir}/nothing-here` });
    expect(received).toHaveLength(0); // the interval is long: nothing pushed yet
    await host.pluginFiber?.dispose();
    expect(received.length).toBeGreaterThanOrEqual(1);
    const last = received.at(-1)!;
    expect(last.path).toBe('/v1/metrics');
    expect(last.headers['content-type']).toMatch(/^application\/json/);
    expect(last.headers.authorization).toBe('Bearer otlp-test-token');
    expect(last.headers['x-team']).toBe('tools');

    const resource = attributes(last.body.resourceMetrics[0]!.resource.attributes);
    expect(resource).toMatchObject({
      'service.name': 'dsh-tool-normalizer',
      'service.version': PLUGIN_VERSION,
      'service.instance.id': `${resource['host.name']}/${resource['dsh.profile']}`,
      'process.runtime.version': process.versions.node,
      'dsh.profile': 'default', // the composition boots no profile folder
    });
    expect(resource['host.name']).toBeTruthy();
    expect(resource['dsh.version']).toBeTruthy();

    const counters = processFleetCounters();
    const calls = metric(last.body, OTLP_METRIC_NAMES.calls);
    expect(calls?.sum).toMatchObject({ aggregationTemporality: CUMULATIVE, isMonotonic: true });
    expect(calls?.unit).toBe('{call}');
    const expected = new Map([...counters.calls.rows()].map((row) => [JSON.stringify(row.labels), row.value]));
    const pushed = new Map(
      calls!.sum!.dataPoints.map((point) => {
        const labels = attributes(point.attributes);
        return [
          JSON.stringify({ tool: labels.tool, category: labels.category, outcome: labels.outcome }),
          pointValue(point),
        ];
      }),
    );
    expect(pushed).toEqual(expected);
    expect(
      pushed.get(JSON.stringify({ tool: 'edit', category: 'fs-not-observed', outcome: 'healed-success' })),
    ).toBeGreaterThanOrEqual(1);

    const heals = metric(last.body, OTLP_METRIC_NAMES.heals)!;
    const observeThenRetry = heals.sum!.dataPoints.find(
      (point) => attributes(point.attributes).rule === 'recover.observe-then-retry',
    );
    expect(observeThenRetry && pointValue(observeThenRetry)).toBe(
      [...counters.heals.rows()].find((row) => row.labels.rule === 'recover.observe-then-retry')?.value,
    );
    const saved = metric(last.body, OTLP_METRIC_NAMES.savedTokens)!;
    expect(saved.unit).toBe('{token}');
    expect(saved.sum!.dataPoints.reduce((sum, point) => sum + pointValue(point), 0)).toBe(
      [...counters.savedTokens.rows()].reduce((sum, row) => sum + row.value, 0),
    );
    const repeats = metric(last.body, OTLP_METRIC_NAMES.repeats)!;
    expect(
      repeats.sum!.dataPoints.some((point) => attributes(point.attributes).tool === 'read' && pointValue(point) >= 1),
    ).toBe(true);
    expect(pointValue(metric(last.body, OTLP_METRIC_NAMES.pluginErrors)!.sum!.dataPoints[0]!)).toBe(
      counters.pluginErrors.value,
    );
    const byModel = metric(last.body, OTLP_METRIC_NAMES.modelCalls)!;
    const total = (points: Static<typeof NumberDataPoint>[]) =>
      points.reduce((sum, point) => sum + pointValue(point), 0);
    expect(total(byModel.sum!.dataPoints)).toBe(total(calls!.sum!.dataPoints)); // the same calls, by model
    // Every cumulative point starts when the process started counting, not at its first collection.
    const startNanos = BigInt(counters.startedAt) * 1_000_000n;
    for (const point of calls!.sum!.dataPoints) expect(BigInt(point.startTimeUnixNano)).toBe(startNanos);
    // build_info over OTLP too, with the Prometheus info metric's labels.
    const info = last.body.resourceMetrics[0]!.scopeMetrics.flatMap((scope) => scope.metrics).find(
      (entry) => entry.name === OTLP_METRIC_NAMES.info,
    ) as unknown as {
      gauge: { dataPoints: Static<typeof NumberDataPoint>[] };
    };
    const infoLabels = attributes(info.gauge.dataPoints[0]!.attributes);
    expect(infoLabels).toMatchObject({ version: PLUGIN_VERSION, instance_name: resource['service.instance.id'] });
    expect(pointValue(info.gauge.dataPoints[0]!)).toBe(1);
    // The plugin pushes its store's harness calls too (none in this fresh folder): every known harness from 0.
    expect(harnessPoints(last.body)).toEqual(
      Object.values(HARNESSES)
        .flatMap((harness) => OUTCOMES.map((outcome) => `${harness} ${outcome} 0`))
        .sort(),
    );
  });

  it("pushes the shared store's harness calls (a real `mcp` store) from 0, as the /metrics endpoint serves them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tn-otlp-harness-'));
    const dshStore = createTelemetryStore({ dir, warn: () => {} });
    const mcpStore = createTelemetryStore({ dir, warn: () => {}, harness: HARNESSES.mcp });
    const source = {
      counters: new FleetCounters(),
      identity: IDENTITY,
      hasDroppedEvents: () => false,
      harnessCalls: () => dshStore.harnessCalls(), // what the plugin reads: its own store, same folder
    };
    const push = startOtlpPush({ ...source, endpoint, headers: {}, intervalMs: 600_000, onError: () => {} });
    try {
      await push.flush();
      const zeros = OUTCOMES.map((outcome) => `mcp ${outcome} 0`).sort();
      expect(harnessPoints(received.at(-1)!.body)).toEqual(zeros);
      const healed = metric(received.at(-1)!.body, OTLP_METRIC_NAMES.harnessCalls)!;
      expect(healed.unit).toBe('{call}');
      expect(healed.sum).toMatchObject({ aggregationTemporality: CUMULATIVE, isMonotonic: true });

      mcpStore.record({ tool: 'get-sum', category: 'invalid-args', outcome: 'healed-success', ruleIds: [] });
      mcpStore.record({ tool: 'get-sum', category: 'ok', outcome: 'passthrough', ruleIds: [] });
      mcpStore.record({ tool: 'get-sum', category: 'ok', outcome: 'passthrough', ruleIds: [] });
      await mcpStore.flush();
      await push.flush();
      const counted = ['mcp healed-failed 0', 'mcp healed-success 1', 'mcp passthrough 2', 'mcp passthrough-failed 0'];
      expect(harnessPoints(received.at(-1)!.body)).toEqual(counted);
      // The same series, names and labels on /metrics (a collector's Prometheus exporter maps the dotted name).
      const scraped = parseExposition(await createMetricsRegistry(source).metrics());
      const served = scraped
        .filter((sample) => sample.name === METRIC_NAMES.harnessCalls)
        .map((sample) => `${sample.labels.harness} ${sample.labels.outcome} ${sample.value}`)
        .sort();
      expect(served).toEqual(counted);
      expect(sumOf(scraped, METRIC_NAMES.calls)).toBe(0); // not this process's own calls
      expect(`${OTLP_METRIC_NAMES.harnessCalls.replace('.', '_')}_total`).toBe(METRIC_NAMES.harnessCalls);
    } finally {
      await push.stop();
      await mcpStore.close();
      await dshStore.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pushes every interval, and values only go up', async () => {
    const counters = processFleetCounters();
    const push = startOtlpPush({
      endpoint,
      headers: {},
      intervalMs: 1000,
      counters,
      identity: IDENTITY,
      hasDroppedEvents: () => false,
      onError: () => {},
    });
    try {
      counters.registerTools(['otlp_probe']);
      counters.count({ tool: 'otlp_probe', category: 'ok', outcome: 'passthrough', ruleIds: [] });
      await push.flush();
      counters.count({ tool: 'otlp_probe', category: 'ok', outcome: 'passthrough', ruleIds: [] });
      await push.flush();
    } finally {
      await push.stop();
    }
    const probe = received.map((request) => {
      const point = metric(request.body, OTLP_METRIC_NAMES.calls)!.sum!.dataPoints.find(
        (entry) => attributes(entry.attributes).tool === 'otlp_probe',
      );
      return point === undefined ? 0 : pointValue(point);
    });
    expect(probe.slice(0, 2)).toEqual([1, 2]);
    for (let i = 1; i < probe.length; i += 1) expect(probe[i]!).toBeGreaterThanOrEqual(probe[i - 1]!);
  });

  it('reports a refused push once per episode, counts every failure, and recovers', async () => {
    status = 503;
    const warnings: string[] = [];
    const recovered: string[] = [];
    const counters = new FleetCounters();
    const push = startOtlpPush({
      endpoint,
      headers: {},
      intervalMs: 1000,
      counters,
      identity: IDENTITY,
      hasDroppedEvents: () => false,
      onError: (message) => warnings.push(message),
      onRecover: (message) => recovered.push(message),
    });
    try {
      await push.flush().catch(() => {});
      await push.flush().catch(() => {});
      expect(counters.otlp).toMatchObject({ failing: true, episodes: 1 });
      expect(counters.otlp.failures).toBeGreaterThanOrEqual(2);
      expect(counters.otlp.lastError).toBeTruthy();
      expect(warnings).toHaveLength(1); // one line per episode, not per push
      expect(warnings[0]).toMatch(/^OTLP metrics push to http:\/\/127\.0\.0\.1:\d+\/v1\/metrics failed: /);
      status = 200;
      await push.flush();
      expect(counters.otlp.failing).toBe(false);
      expect(recovered).toHaveLength(1);
      status = 503;
      await push.flush().catch(() => {});
      expect(counters.otlp.episodes).toBe(2);
      expect(warnings).toHaveLength(2);
    } finally {
      status = 200;
      await push.stop();
    }
  });

  for (const collector of ['refuses the connection', 'accepts the connection and never answers'] as const) {
    it(`a collector that ${collector}: stop() resolves with nothing of the push left open, and the process exits by itself`, async () => {
      // A real child process: the plugin's push stopped as a DSH exit stops it. The silent collector is a TCP
      // server here that reads the request and never answers (what added 2.3 s to a headless run's stop before the
      // deadline counted from the stop and destroyed the sockets).
      const connections: Socket[] = [];
      const silent = createNetServer((socket) => {
        connections.push(socket);
        socket.on('error', () => {});
        socket.resume();
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const port = collector === 'refuses the connection' ? 9 : (silent.address() as AddressInfo).port;
      const script = `
        import { startOtlpPush } from ${JSON.stringify(new URL('../dist/metrics-otlp.js', import.meta.url).pathname)};
        import { FleetCounters } from ${JSON.stringify(new URL('../dist/metrics.js', import.meta.url).pathname)};
        const counters = new FleetCounters();
        counters.count({ tool: 'read', category: 'ok', outcome: 'passthrough', ruleIds: [] });
        const push = startOtlpPush({ endpoint: 'http://127.0.0.1:${port}/v1/metrics', headers: {}, intervalMs: 60000,
          counters, identity: ${JSON.stringify(IDENTITY)}, hasDroppedEvents: () => false, onError: () => {} });
        const started = Date.now();
        let stopMs = -1;
        let open = [];
        // Pipes are synchronous on Linux: this line is written when the event loop has emptied, at the exit itself.
        process.on('exit', () => process.stdout.write(JSON.stringify({ stopMs, exitMs: Date.now() - started, open,
          pushes: counters.otlp.pushes, failures: counters.otlp.failures })));
        await push.stop();
        stopMs = Date.now() - started;
        open = process.getActiveResourcesInfo().filter((name) => /TCP|Socket/i.test(name));
      `;
      try {
        // The built module (the test command builds first), as the published bundle runs it. The bound is a
        // generous wait for the exit, not a speed check: a socket left open would keep the child past it.
        const child = await run(process.execPath, ['--input-type=module', '-e', script], 60_000);
        expect(child.code, child.stderr).toBe(0);
        const result = JSON.parse(child.stdout) as {
          stopMs: number;
          exitMs: number;
          open: string[];
          pushes: number;
          failures: number;
        };
        console.log(
          `[otlp] collector that ${collector}: stop() took ${result.stopMs} ms, the process exited ${result.exitMs} ms after stop began`,
        );
        expect(result.stopMs).toBeGreaterThanOrEqual(0);
        // nothing of the push is open once stop() resolved: no socket to the collector holds the exit
        expect(result.open).toEqual([]);
        // the final push was made, and failed (it was never answered)
        expect(result.pushes).toBe(1);
        expect(result.failures).toBe(1);
        if (collector !== 'refuses the connection') expect(connections.length).toBeGreaterThan(0);
      } finally {
        for (const socket of connections) socket.destroy();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    }, 90_000);
  }
});
