/**
 * Cost of explaining an error the plugin cannot heal, through the REAL DSH tool pipeline (`ctx.tools.execute` on the
 * real dsh-tools runtime with the real `read` tool): a `read` without `file_path` (INVALID_ARGS). With the plugin
 * the host's error object is kept and one hint is appended in `tools/execute`, the failure is fingerprinted for loop
 * detection and recorded; without it the host answers alone. Arguments differ per call (a pool of 1,024), so the
 * loop counter sees mostly distinct failures. Uses the built plugin: `pnpm --filter @dsh-tool-normalizer/dsh-adapter
 * build`, then `node bench/error-path.bench.mjs` on Node >= 22.13 (the telemetry store needs `node:sqlite`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Context } from '@deepseek-ai/cordis';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime from '@deepseek-ai/dsh-tools';
import LocalFileSystem from '@deepseek-ai/dsh-fs-local';
import * as ObservationPolicy from '@deepseek-ai/dsh-fs-observation-policy';
import * as FsTools from '@deepseek-ai/dsh-tool-fs';
import * as plugin from '../dist/index.js';

const CALLS_PER_ROUND = Number(process.env.BENCH_CALLS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const POOL = 1024;

async function context(withPlugin, logDir) {
  const ctx = new Context();
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  await ctx.plugin(LocalFileSystem, {});
  await ctx.plugin(ObservationPolicy);
  await ctx.plugin(FsTools, {});
  if (withPlugin) await ctx.plugin(plugin, { logDir, injectPrompt: false });
  return ctx;
}

const agent = { id: 'session-bench', options: { model: 'bench' }, session: { header: { cwd: '/workspace' } } };
const signal = new AbortController().signal;
const argsPool = Array.from({ length: POOL }, (_, i) => Object.freeze({ limit: i + 1 }));

async function round(ctx) {
  const start = performance.now();
  for (let i = 0; i < CALLS_PER_ROUND; i += 1) {
    const result = await ctx.tools.execute({
      callId: `c${i}`,
      name: 'read',
      arguments: argsPool[i % POOL],
      agent,
      signal,
    });
    if (!result.isError) throw new Error('expected INVALID_ARGS');
  }
  return ((performance.now() - start) * 1000) / CALLS_PER_ROUND;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const logDir = mkdtempSync(join(tmpdir(), 'tn-bench-errors-'));
try {
  const plain = await context(false, logDir);
  const withPlugin = await context(true, logDir);
  const sample = await withPlugin.tools.execute({
    callId: 'sample',
    name: 'read',
    arguments: { limit: 3 },
    agent,
    signal,
  });
  console.log(`sample: ${JSON.stringify(sample.error)}`);
  await round(plain);
  await round(withPlugin);
  const floor = [];
  const measured = [];
  const paired = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    globalThis.gc?.();
    const a = await round(plain);
    const b = await round(withPlugin);
    floor.push(a);
    measured.push(b);
    paired.push(b - a);
  }
  const sorted = [...paired].sort((a, b) => a - b);
  console.log(
    `INVALID_ARGS read, host alone ${median(floor).toFixed(1)} us | with plugin ${median(measured).toFixed(1)} us | explaining costs ${median(paired).toFixed(1)} us/call (median of ${ROUNDS} paired rounds of ${CALLS_PER_ROUND}, IQR ${sorted[Math.floor(ROUNDS / 4)].toFixed(1)}..${sorted[Math.floor((3 * ROUNDS) / 4)].toFixed(1)})`,
  );
  await withPlugin.dispose?.();
} finally {
  rmSync(logDir, { recursive: true, force: true });
}
