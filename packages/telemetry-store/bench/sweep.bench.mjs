/**
 * The generated redaction sweep as a measurement: every shape of tests/secret-shapes.ts (fresh random secrets
 * each run) in every placement, recorded through a real store in a temporary directory and flushed; then the
 * database, WAL, shared-memory file and journal (raw bytes) and the stats and events payloads are searched for
 * any 10-character piece of each secret. Prints the leak count per class (labelled, provider, unlabelled) and
 * the leaking cases. Run on Node >= 22.13: `node packages/telemetry-store/bench/sweep.bench.mjs [rounds]`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const rounds = Number(process.argv[2] ?? 1);
const work = mkdtempSync(fileURLToPath(new URL('../node_modules/.tn-sweep-bench-', import.meta.url)));
await build({
  entryPoints: {
    store: fileURLToPath(new URL('../src/index.ts', import.meta.url)),
    shapes: fileURLToPath(new URL('../tests/secret-shapes.ts', import.meta.url)),
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  outdir: work,
  outExtension: { '.js': '.mjs' },
  conditions: ['@dsh-tool-normalizer/source'],
  external: ['@secretlint/*', 'typebox'],
  logLevel: 'silent',
});
const { createTelemetryStore } = await import(join(work, 'store.mjs'));
const { PLACEMENTS, SHAPES, findLeaks } = await import(join(work, 'shapes.mjs'));

const totals = {
  labelled: { cases: 0, leaks: 0 },
  provider: { cases: 0, leaks: 0 },
  unlabelled: { cases: 0, leaks: 0 },
};
const leaking = new Map();
for (let round = 0; round < rounds; round += 1) {
  const dir = mkdtempSync(join(tmpdir(), 'tn-sweep-'));
  const store = createTelemetryStore({ dir, flushIntervalMs: 60_000, maxQueuedEvents: 100_000, warn: () => {} });
  const cases = [];
  for (const [shapeName, shape] of Object.entries(SHAPES)) {
    for (const [placeName, place] of Object.entries(PLACEMENTS)) {
      const { secret, value } = shape.make();
      cases.push({ secret, cls: shape.cls, label: `${shapeName} in ${placeName}` });
      store.record({ tool: 'bash', category: 'SHELL', outcome: 'healed-failed', ruleIds: ['r'], ...place(value) });
    }
  }
  const started = performance.now();
  await store.flush();
  const flushMs = performance.now() - started;
  const haystacks = [
    JSON.stringify(store.stats({ limit: 1000 })),
    // events pages of at most 200 (the feed's limit), as tests/redaction-sweep.test.ts reads them
    ...(await Promise.all([0, 200, 400, 600, 800].map((offset) => store.queryEvents({ offset, limit: 200 })))).map(
      (page) => JSON.stringify(page),
    ),
    ...readdirSync(dir).map((name) => readFileSync(join(dir, name)).toString('latin1')),
  ];
  const leaks = findLeaks(cases, haystacks);
  for (const { cls, label } of cases) {
    totals[cls].cases += 1;
    if (leaks.has(label)) {
      totals[cls].leaks += 1;
      leaking.set(label, (leaking.get(label) ?? 0) + 1);
    }
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`round ${round + 1}: ${cases.length} cases, flush ${flushMs.toFixed(0)} ms`);
}
const shapeCount = Object.keys(SHAPES).length;
console.log(`${shapeCount} shapes x ${Object.keys(PLACEMENTS).length} placements x ${rounds} round(s)`);
for (const [cls, { cases, leaks }] of Object.entries(totals)) {
  console.log(
    `${cls.padEnd(11)} ${String(leaks).padStart(5)} of ${cases} leaked (${((100 * leaks) / Math.max(1, cases)).toFixed(1)}%)`,
  );
}
for (const [label, count] of [...leaking].sort()) console.log(`  leak: ${label}${count > 1 ? ` x${count}` : ''}`);
rmSync(work, { recursive: true, force: true });
