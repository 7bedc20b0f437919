/**
 * How long the store's writer holds the event loop while it redacts and writes crafted 1 MB arguments (figures are
 * reported, never asserted here; tests/stall.test.ts checks a generous bound). Shapes: the secret-named JSON
 * key followed by a long run of backslashes, the same as a nested argument value and as the error text, plus a plain
 * 1 MB program. Measured with perf_hooks.monitorEventLoopDelay (1 ms resolution) while 24 events are recorded and
 * flushed. Run on Node >= 22.13: `node packages/telemetry-store/bench/stall.bench.mjs`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const work = mkdtempSync(join(tmpdir(), 'tn-stall-'));
await build({
  entryPoints: { store: fileURLToPath(new URL('../src/index.ts', import.meta.url)) },
  bundle: true,
  platform: 'node',
  format: 'esm',
  outdir: work,
  outExtension: { '.js': '.mjs' },
  logLevel: 'silent',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const { createTelemetryStore } = await import(join(work, 'store.mjs'));

const MB = 1024 * 1024;
/** The crafted inputs: every one about 1 MB of text. */
export function craftedInputs(count) {
  const slashes = '\\'.repeat(MB);
  const shapes = [
    (i) => ({ before: { command: `{"api_key":"${slashes}${i}"}` } }),
    (i) => ({ before: { config: { password: `${slashes}${i}`, token: `"${slashes}` } } }),
    (i) => ({ error: `{"client_secret": "${slashes}${i}` }),
    (i) => ({ before: { code: `const x = ${i};\n`.repeat(MB / 16) } }),
  ];
  return Array.from({ length: count }, (_, i) => ({
    tool: 'bash',
    category: 'SHELL_EXIT',
    outcome: 'healed-failed',
    ruleIds: ['r'],
    ...shapes[i % shapes.length](i),
  }));
}

const store = createTelemetryStore({ dir: join(work, 'store'), flushIntervalMs: 60_000, warn: () => {} });
// warm up: secretlint's first load is a one-time cost of the first write, not of the writer's steady state
store.record({ tool: 'warm', category: 'C', outcome: 'healed-failed', ruleIds: [], error: 'warm up' });
await store.flush();
const inputs = craftedInputs(24);
// record() is the caller's path (measured in telemetry.bench.mjs); what is measured here is the writer
for (const input of inputs) store.record(input);
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
const started = performance.now();
await store.flush();
const elapsed = performance.now() - started;
histogram.disable();
const ms = (ns) => Number((ns / 1e6).toFixed(1));
console.table([
  {
    events: inputs.length,
    'max delay ms': ms(histogram.max),
    'p99 delay ms': ms(histogram.percentile(99)),
    'mean delay ms': ms(histogram.mean),
    'writer total ms': Number(elapsed.toFixed(0)),
    stored: store.stats().storage.storedEvents - 1,
  },
]);
await store.close();
rmSync(work, { recursive: true, force: true });
