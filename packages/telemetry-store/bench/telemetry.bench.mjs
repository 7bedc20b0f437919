/**
 * Benchmark of the store's speed targets (figures are reported, never asserted in tests). Bundles the store from
 * source with esbuild, then measures: the slowest single record() in a burst of 500 with 1 MB arguments (< 1 ms),
 * stats() over 1M stored events (< 50 ms), and a filtered, paged events query over 100k rows (< 20 ms).
 * Run on Node >= 22.13: `node packages/telemetry-store/bench/telemetry.bench.mjs`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const work = mkdtempSync(join(tmpdir(), 'tn-bench-'));
const bundle = join(work, 'store.mjs');
await build({
  entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
  bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const { createTelemetryStore } = await import(bundle);
const results = [];
const report = (name, value, target) => results.push({ measure: name, ms: Number(value.toFixed(3)), target: `< ${target} ms`, ok: value < target });

// 1. record() burst with 1 MB arguments.
{
  const store = createTelemetryStore({ dir: join(work, 'burst'), flushIntervalMs: 200, warn: () => {} });
  const big = 'x'.repeat(1024 * 1024);
  let slowest = 0;
  for (let i = 0; i < 500; i += 1) {
    const args = { command: `${big}${i}`, note: big };
    const start = performance.now();
    store.record({ tool: 'bash', category: 'SHELL', outcome: 'healed-failed', ruleIds: ['r'], before: args, after: args, error: big });
    slowest = Math.max(slowest, performance.now() - start);
  }
  report('slowest record() of 500 with 1 MB arguments', slowest, 1);
  await store.close();
}

// Fills a database with `count` events and counts quickly (directly, in large batches, through the store's own writer).
async function filled(name, count, extra = {}) {
  const store = createTelemetryStore({ dir: join(work, name), flushIntervalMs: 60_000, maxQueuedEvents: 20_000, maxStoredEvents: 2_000_000, maxStoredBytes: 4 * 1024 ** 3, warn: () => {}, ...extra });
  for (let i = 0; i < count; i += 1) {
    store.record({ tool: `tool${i % 40}`, category: `CAT_${i % 12}`, outcome: i % 3 ? 'healed-success' : 'healed-failed', ruleIds: ['r'], at: 1_700_000_000_000 + i * 1000, error: i % 997 === 0 ? 'needle in here' : 'plain error text', before: { command: `echo ${i}` } });
    if (i % 20_000 === 19_999) await store.flush();
  }
  await store.flush();
  return store;
}

// 2. stats() over 1M stored events.
{
  const t0 = performance.now();
  const store = await filled('million', Number(process.env.BENCH_STATS_EVENTS ?? 1_000_000));
  const fillSeconds = (performance.now() - t0) / 1000;
  const samples = [];
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    store.stats({ text: 'needle', limit: 50 });
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  report(`stats() over ${store.stats().storage.storedEvents} stored events (median of 20; fill took ${fillSeconds.toFixed(0)} s)`, samples[10], 50);
  await store.close();
}

// 3. Filtered, paged events query over 100k rows.
{
  const store = await filled('hundredk', 100_000);
  const queries = [
    { tool: 'tool7', limit: 50, offset: 100 },
    { category: 'CAT_3', outcome: 'healed-failed', limit: 50 },
    { text: 'needle', limit: 50 },
    { from: 1_700_000_000_000 + 20_000_000, to: 1_700_000_000_000 + 60_000_000, limit: 50, offset: 500 },
    { tool: 'tool3', text: 'echo 4', from: 1_700_000_000_000, limit: 50 },
  ];
  for (const query of queries) {
    const samples = [];
    for (let i = 0; i < 10; i += 1) {
      const start = performance.now();
      await store.queryEvents(query);
      samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    report(`queryEvents(${JSON.stringify(query)}) over 100k rows (median of 10)`, samples[5], 20);
  }
  await store.close();
}

console.table(results);
rmSync(work, { recursive: true, force: true });
process.exitCode = results.every((row) => row.ok) ? 0 : 1;
