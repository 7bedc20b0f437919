/**
 * What the web feed costs the store per request, on the built telemetry store (Node >= 22.13, node:sqlite): the
 * stats route runs `stats()` plus the newest-1,000 events scan the rule firing counts come from; the events route
 * runs one filtered page. Run: `node packages/dsh-adapter/bench/feed-backend.bench.mjs` after `pnpm run build`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { createTelemetryStore } = await import(
  fileURLToPath(new URL('../../telemetry-store/dist/index.js', import.meta.url))
);
const ROWS = 20_000;
const dir = mkdtempSync(join(tmpdir(), 'tn-feed-bench-'));
const store = createTelemetryStore({ dir, warn: () => {} });
for (let index = 0; index < ROWS; index++) {
  store.record({
    tool: index % 3 ? 'read' : 'run_code',
    category: 'invalid-args',
    outcome: 'healed-success',
    ruleIds: ['args.fill-description'],
    before: { command: `echo ${'x'.repeat(300)} ${index}` },
    after: { command: `echo ${index}`, description: 'd' },
  });
  if (index % 500 === 499) await store.flush();
}
await store.flush();

async function measure(label, fn) {
  const times = [];
  for (let run = 0; run < 25; run++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: median ${times[12].toFixed(1)} ms, max ${times[24].toFixed(1)} ms`);
}

await measure(`stats() over ${ROWS.toLocaleString('en-US')} rows`, () => store.stats({}));
await measure('queryEvents({ limit: 1000 }) (rule firing counts)', () => store.queryEvents({ limit: 1000 }));
await measure('queryEvents, filtered page of 25 (events route)', () =>
  store.queryEvents({ tool: 'run_code', text: 'echo 1999', offset: 0, limit: 25 }),
);
await store.close();
rmSync(dir, { recursive: true, force: true });
