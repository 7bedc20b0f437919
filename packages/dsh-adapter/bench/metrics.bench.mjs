/**
 * Speed of the fleet metrics: the cost `record` adds per call (FleetCounters.count), and the time the metrics
 * endpoint takes to answer a scrape with 200 tools and 100 categories seen (the label combinations capped at
 * MAX_SERIES), measured over real HTTP on 127.0.0.1 through the real handler, in both formats. Figures are printed,
 * never asserted. Uses the built package: `pnpm --filter @dsh-tool-normalizer/dsh-adapter build`, then
 * `node bench/metrics.bench.mjs`.
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { FleetCounters, MAX_SERIES } from '../dist/metrics.js';
import { createMetricsHandler, createMetricsRegistry } from '../dist/metrics-prometheus.js';
import { createRouteGuard } from '../dist/route-guard.js';

const TOOLS = 200;
const CATEGORIES = 100;
const MODELS = 4;
const RULES = 40;
const OUTCOMES = ['passthrough', 'passthrough-failed', 'healed-success', 'healed-failed'];
const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 200);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
function p95(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.95)];
}

const identity = {
  host: 'bench',
  profile: 'web',
  dshVersion: '0.1.0-rc.8',
  pluginVersion: '0.1.0',
  nodeVersion: process.versions.node,
};

let seed = 12345;
const pick = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor((seed / 2147483648) * n);
};

/**
 * `realistic`: 200 tools and 100 categories, each tool failing in at most 3 categories (errors belong to tools),
 * 2 models. `worst`: every tool, category, outcome and model combined at random, far past every cap.
 */
function inputsFor(scenario) {
  const inputs = [];
  for (let i = 0; i < 50_000; i += 1) {
    const outcome = OUTCOMES[pick(4)];
    const healed = outcome.startsWith('healed');
    const tool = pick(TOOLS);
    const category = scenario === 'worst' ? pick(CATEGORIES) : (tool * 3 + pick(3)) % CATEGORIES;
    inputs.push({
      tool: `tool_${tool}`,
      category: outcome === 'passthrough' ? 'ok' : `category_${category}`,
      outcome,
      model: `model-${pick(scenario === 'worst' ? MODELS : 2)}`,
      ruleIds: healed ? [`rule.${pick(RULES)}`] : pick(9) === 0 ? ['hint.repeat-failure'] : [],
      tokensSaved: outcome === 'healed-success' ? 4000 : 0,
    });
  }
  return inputs;
}

async function run(scenario) {
  const counters = new FleetCounters();
  const inputs = inputsFor(scenario);
  const countStart = performance.now();
  for (const input of inputs) counters.count(input);
  const countMs = performance.now() - countStart;
  const steadyStart = performance.now();
  for (const input of inputs) counters.count(input); // every name and series known now
  const steadyMs = performance.now() - steadyStart;

  const source = { counters, identity, hasDroppedEvents: () => false };
  const registry = createMetricsRegistry(source);
  const collectTimes = [];
  let bytes = 0;
  for (let i = 0; i < SCRAPES; i += 1) {
    const start = performance.now();
    const text = await registry.metrics();
    collectTimes.push(performance.now() - start);
    bytes = text.length;
  }
  const handler = createMetricsHandler(source, createRouteGuard({ allowedHosts: [] }));
  const server = createServer((req, res) => void handler(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/plugin-api/tool-normalizer/metrics`;
  async function httpTimes(accept) {
    const times = [];
    for (let i = 0; i < SCRAPES; i += 1) {
      const start = performance.now();
      const response = await fetch(url, { headers: accept ? { accept } : {} });
      await response.text();
      times.push(performance.now() - start);
    }
    return times;
  }
  await httpTimes(); // warm-up (connection, JIT)
  const prometheusTimes = await httpTimes();
  const openMetricsTimes = await httpTimes('application/openmetrics-text;version=1.0.0');
  server.close();
  const fmt = (ms) => `${ms.toFixed(2)} ms`;
  console.log(
    `\n[${scenario}] series: calls ${counters.calls.size} (cap ${MAX_SERIES}), heals ${counters.heals.size}, saved tokens ${counters.savedTokens.size}, repeats ${counters.repeats.size}; exposition ${(bytes / 1024).toFixed(0)} KiB`,
  );
  console.log(
    `count(): first pass ${((countMs * 1e6) / inputs.length).toFixed(0)} ns/call (names redacted once each), steady ${((steadyMs * 1e6) / inputs.length).toFixed(0)} ns/call`,
  );
  console.log(
    `registry.metrics(): median ${fmt(median(collectTimes))}, p95 ${fmt(p95(collectTimes))} over ${SCRAPES} scrapes`,
  );
  console.log(
    `GET /metrics over HTTP (Prometheus text): median ${fmt(median(prometheusTimes))}, p95 ${fmt(p95(prometheusTimes))}`,
  );
  console.log(
    `GET /metrics over HTTP (OpenMetrics): median ${fmt(median(openMetricsTimes))}, p95 ${fmt(p95(openMetricsTimes))}`,
  );
}

console.log(
  `node ${process.version}: ${TOOLS} tools, ${CATEGORIES} categories, ${OUTCOMES.length} outcomes, ${RULES} rules`,
);
await run('realistic');
await run('worst');
