/**
 * The OTLP push, end to end through OpenTelemetry's real metrics SDK and OTLP/HTTP exporter into a receiver on
 * 127.0.0.1 that decodes what arrives against the OTLP JSON shape (ExportMetricsServiceRequest, checked with a
 * typebox schema of the fields used here): the configured headers are sent, the resource says who pushed, names,
 * point attributes and values equal the process counters, sums are cumulative and monotonic, a plugin dispose
 * pushes a final collection, and a collector that refuses does not break anything (a warning is logged).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLUGIN_VERSION, processFleetCounters } from '../src/metrics.js';
import { OTLP_METRIC_NAMES, startOtlpPush } from '../src/metrics-otlp.js';
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
      'service.instance.id': processFleetCounters().instanceId,
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
          JSON.stringify({
            tool: labels.tool,
            category: labels.category,
            outcome: labels.outcome,
            model: labels.model,
          }),
          pointValue(point),
        ];
      }),
    );
    expect(pushed).toEqual(expected);
    expect(
      pushed.get(
        JSON.stringify({
          tool: 'edit',
          category: 'fs-not-observed',
          outcome: 'healed-success',
          model: 'scripted-model',
        }),
      ),
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
  });

  it('pushes every interval, and values only go up', async () => {
    const counters = processFleetCounters();
    const push = startOtlpPush({
      endpoint,
      headers: {},
      intervalMs: 1000,
      counters,
      identity: { host: 'h', dshVersion: 'x', pluginVersion: PLUGIN_VERSION, nodeVersion: '0' },
      hasDroppedEvents: () => false,
      onError: () => {},
    });
    try {
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

  it('reports a refused push and keeps going', async () => {
    status = 503;
    const warnings: string[] = [];
    const counters = processFleetCounters();
    const push = startOtlpPush({
      endpoint,
      headers: {},
      intervalMs: 1000,
      counters,
      identity: { host: 'h', dshVersion: 'x', pluginVersion: PLUGIN_VERSION, nodeVersion: '0' },
      hasDroppedEvents: () => false,
      onError: (message) => warnings.push(message),
    });
    await push.flush().catch(() => {});
    await push.stop();
    expect(received.length).toBeGreaterThanOrEqual(1);
    expect(warnings.some((message) => message.startsWith('OTLP metrics push failed'))).toBe(true);
  });
});
