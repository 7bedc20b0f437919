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

/**
 * Watches the event loop from inside: a setImmediate ticker notes the wall time and the main thread's CPU time
 * (process.threadCpuUsage, Node >= 23.9; else the whole process's, GC helper threads included) of every gap between
 * two of its turns. The longest wall gap is what a host waits for, on a
 * loaded machine including time the OS gave other processes; the CPU time of that gap, and the longest CPU gap, are
 * the writer's own share (on a shared, loaded machine the wall figures are noisy, the CPU ones much less).
 */
function watchLoop() {
  let running = true;
  let lastWall = performance.now();
  const cpuUsage = () => (process.threadCpuUsage ?? process.cpuUsage)();
  let lastCpu = cpuUsage();
  const worst = { wallMs: 0, cpuOfWorstMs: 0, cpuMs: 0 };
  const tick = () => {
    const wall = performance.now();
    const cpu = cpuUsage();
    const wallMs = wall - lastWall;
    const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    if (wallMs > worst.wallMs) {
      worst.wallMs = wallMs;
      worst.cpuOfWorstMs = cpuMs;
    }
    worst.cpuMs = Math.max(worst.cpuMs, cpuMs);
    lastWall = wall;
    lastCpu = cpu;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    running = false;
    return worst;
  };
}

const rounds = Number(process.argv[2] ?? 5);
const rows = [];
for (let round = 0; round < rounds; round += 1) {
  const store = createTelemetryStore({ dir: join(work, `store-${round}`), flushIntervalMs: 60_000, warn: () => {} });
  // warm up: secretlint's first load is a one-time cost of the first write, not of the writer's steady state
  store.record({ tool: 'warm', category: 'C', outcome: 'healed-failed', ruleIds: [], error: 'warm up' });
  await store.flush();
  const inputs = craftedInputs(24);
  // record() is the caller's path (measured in telemetry.bench.mjs); what is measured here is the writer
  for (const input of inputs) store.record(input);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const stop = watchLoop();
  const started = performance.now();
  await store.flush();
  const elapsed = performance.now() - started;
  const worst = stop();
  histogram.disable();
  const ms = (ns) => Number((ns / 1e6).toFixed(1));
  rows.push({
    events: inputs.length,
    'max delay ms': ms(histogram.max),
    'p99 delay ms': ms(histogram.percentile(99)),
    'longest gap ms': Number(worst.wallMs.toFixed(1)),
    'its CPU ms': Number(worst.cpuOfWorstMs.toFixed(1)),
    'longest CPU gap ms': Number(worst.cpuMs.toFixed(1)),
    'writer total ms': Number(elapsed.toFixed(0)),
    stored: store.stats().storage.storedEvents - 1,
  });
  await store.close();
}
console.table(rows);
const sorted = (key) => rows.map((row) => row[key]).sort((a, b) => a - b);
const median = (key) => sorted(key)[Math.floor(rows.length / 2)];
console.log(
  `median of ${rounds} rounds: longest gap ${median('longest gap ms')} ms (CPU ${median('its CPU ms')} ms), longest CPU gap ${median('longest CPU gap ms')} ms; worst longest gap ${sorted('longest gap ms').at(-1)} ms`,
);
rmSync(work, { recursive: true, force: true });
