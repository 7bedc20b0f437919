/**
 * Benchmark of the store's speed targets (figures are reported, never asserted in tests). Bundles the store from
 * source with esbuild, then measures: the slowest single record() in a burst of 500 with 1 MB arguments (< 1 ms),
 * stats() over 1M stored events (< 50 ms), and a filtered, paged events query over 100k rows (< 20 ms).
 * Run on Node >= 22.13: `node packages/telemetry-store/bench/telemetry.bench.mjs`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const work = mkdtempSync(join(tmpdir(), 'tn-bench-'));
const bundleDir = join(work, 'bundle');
await build({
  entryPoints: {
    store: fileURLToPath(new URL('../src/index.ts', import.meta.url)),
    database: fileURLToPath(new URL('../src/database.ts', import.meta.url)),
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  outdir: bundleDir,
  outExtension: { '.js': '.mjs' },
  logLevel: 'silent',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const { createTelemetryStore } = await import(join(bundleDir, 'store.mjs'));
const { TelemetryDatabase } = await import(join(bundleDir, 'database.mjs'));
const results = [];
const report = (name, value, target) =>
  results.push({ measure: name, ms: Number(value.toFixed(3)), target: `< ${target} ms`, ok: value < target });
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

// 1. record() bursts of 500 with 1 MB arguments, in the two shapes a caller can hand over:
//    - parsed: distinct flat strings, as DSH delivers tool arguments (JSON.parse of the model's call);
//    - concatenated: V8 ropes (`big + i`), as a healer that appends to a string produces. Reading any character of a
//      rope makes V8 copy it flat first, so record() must not read huge strings at all (it keeps them by reference).
// The inputs are made before the timed loop so the caller's own allocation is not counted (its GC may still land).
for (const shape of ['parsed', 'concatenated']) {
  const store = createTelemetryStore({ dir: join(work, `burst-${shape}`), flushIntervalMs: 200, warn: () => {} });
  const big = 'x'.repeat(1024 * 1024);
  const inputs = [];
  for (let i = 0; i < 500; i += 1) {
    const args =
      shape === 'parsed'
        ? JSON.parse(JSON.stringify({ command: `${big}${i}`, note: `${i}${big}` }))
        : { command: `${big}${i}`, note: big };
    const error = shape === 'parsed' ? args.note : `${big}${i}`;
    inputs.push({
      tool: 'bash',
      category: 'SHELL',
      outcome: 'healed-failed',
      ruleIds: ['r'],
      before: args,
      after: args,
      error,
    });
  }
  const samples = [];
  for (const input of inputs) {
    const start = performance.now();
    store.record(input);
    samples.push(performance.now() - start);
  }
  inputs.length = 0;
  samples.sort((a, b) => a - b);
  report(
    `slowest record() of 500 with 1 MB arguments (${shape}; p99 ${percentile(samples, 0.99).toFixed(3)}, median ${percentile(samples, 0.5).toFixed(3)})`,
    samples.at(-1),
    1,
  );
  await store.close();
}

const EVENT_AT = 1_700_000_000_000;
/** One synthetic stored event (already redacted and bounded, as the writer stores them). */
function syntheticEvent(i) {
  const event = {
    v: 1,
    id: `bench-${i}`,
    at: EVENT_AT + i * 1000,
    tool: `tool${i % 40}`,
    category: `CAT_${i % 12}`,
    outcome: i % 3 ? 'healed-success' : 'healed-failed',
    ruleIds: ['r'],
    changes: [],
    tokensSaved: 10,
    before: `{"command":"echo ${i}"}`,
    error: i % 997 === 0 ? 'needle in here' : 'plain error text',
  };
  return event;
}

/**
 * A database with `count` events and their counts, filled directly through the store's insert path
 * (TelemetryDatabase.writeBatch, 20k events per transaction: the same SQL, indexes and counters as the writer, without
 * redaction, which the record() and redaction benchmarks cover), then opened by a store.
 */
function filled(name, count) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const caps = { maxTools: 200, maxCategories: 100 };
  const retention = { maxRows: 2_000_000, maxBytes: 4 * 1024 ** 3 };
  const db = new TelemetryDatabase(join(dir, 'tool-normalizer.sqlite'), { busyTimeoutMs: 1000, now: EVENT_AT });
  for (let first = 0; first < count; first += 20_000) {
    const events = [];
    for (let i = first; i < Math.min(count, first + 20_000); i += 1) events.push(syntheticEvent(i));
    db.writeBatch({ events, counts: [], repeats: 0, dropped: 0 }, caps, retention); // events count their own calls
  }
  db.close();
  return createTelemetryStore({
    dir,
    flushIntervalMs: 60_000,
    maxStoredEvents: 2_000_000,
    maxStoredBytes: 4 * 1024 ** 3,
    warn: () => {},
  });
}

// 2. stats() over 1M stored events.
{
  const t0 = performance.now();
  const store = filled('million', Number(process.env.BENCH_STATS_EVENTS ?? 1_000_000));
  const fillSeconds = (performance.now() - t0) / 1000;
  const samples = [];
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    store.stats({ text: 'needle', limit: 50 });
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  report(
    `stats() over ${store.stats().storage.storedEvents} stored events (median of 20; fill took ${fillSeconds.toFixed(0)} s)`,
    samples[10],
    50,
  );
  await store.close();
}

// 3. Filtered, paged events query over 100k rows.
{
  const store = filled('hundredk', 100_000);
  const queries = [
    { tool: 'tool7', limit: 50, offset: 100 },
    { category: 'CAT_3', outcome: 'healed-failed', limit: 50 },
    { text: 'needle', limit: 50 },
    { text: 'plain error', limit: 50, offset: 200 },
    { text: 'ne', limit: 50 },
    { from: EVENT_AT + 20_000_000, to: EVENT_AT + 60_000_000, limit: 50, offset: 500 },
    { tool: 'tool3', text: 'echo 4', from: EVENT_AT, limit: 50 },
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
