/**
 * Per-call overhead of the plugin on a VALID non-run_code call, measured through real cordis waterfalls
 * (`tools/execute`, `tools/post-execute`) and the real `tools/result` emit, against the no-op floor (one listener
 * per seam that only calls `next()`). Uses the built plugin (`dist/`), so run `pnpm --filter
 * @dsh-tool-normalizer/dsh-adapter build` first, then: `node bench/overhead.bench.mjs`.
 *
 * Each round runs the same number of calls through both contexts, interleaved, and the per-call figure is the
 * median over rounds. A second scenario repeats the measurement after 4,000 invented tool names have gone
 * through the plugin (the known competitor degrades to ~10 ms per call there).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Context } from '@deepseek-ai/cordis';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime from '@deepseek-ai/dsh-tools';
import * as plugin from '../dist/index.js';

const CALLS_PER_ROUND = Number(process.env.BENCH_CALLS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 31);
const POOL = 1024;

async function baseContext() {
  const ctx = new Context();
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  return ctx;
}

async function noopContext() {
  const ctx = await baseContext();
  ctx.on('tools/execute', (_exec, next) => next());
  ctx.on('tools/post-execute', (_exec, _result, next) => next());
  ctx.on('tools/result', () => undefined);
  return ctx;
}

async function pluginContext(logDir) {
  const ctx = await baseContext();
  await ctx.plugin(plugin, { logDir, injectPrompt: false });
  return ctx;
}

const agent = { id: 'session-bench', options: { model: 'bench' }, session: { header: { cwd: '/workspace' } } };
const signal = new AbortController().signal;
const success = Object.freeze({
  isError: false,
  value: 'ok',
  content: Object.freeze([Object.freeze({ type: 'text', text: 'ok' })]),
});
const accept = Object.freeze({ kind: 'accept' });
const body = () => Promise.resolve(success);
const acceptNext = () => Promise.resolve(accept);

function execFor(i, name = 'read') {
  return {
    token: Symbol('dsh.tool.execution'),
    callId: `call_${i}`,
    rootCallId: `call_${i}`,
    name,
    signal,
    agent,
    arguments: Object.freeze({ file_path: '/workspace/a.txt' }),
  };
}

/** One valid call through the three seams every call meets, the way dsh-tools drives them. */
async function oneCall(ctx, exec) {
  const result = await ctx.waterfall('tools/execute', exec, body);
  await ctx.waterfall('tools/post-execute', exec, result, acceptNext);
  ctx.emit('tools/result', Object.freeze(exec), result);
}

/** A fixed pool of executions (fresh tokens and call ids), reused so allocation is not what gets measured. */
const pool = Array.from({ length: POOL }, (_, i) => execFor(i));

async function round(ctx) {
  const start = performance.now();
  for (let i = 0; i < CALLS_PER_ROUND; i += 1) await oneCall(ctx, pool[i % POOL]);
  return ((performance.now() - start) * 1000) / CALLS_PER_ROUND;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Paired rounds (order alternating), so drift and GC hit both sides alike; reports medians. */
async function compare(label, noop, withPlugin) {
  const floor = [];
  const measured = [];
  const paired = [];
  await round(noop);
  await round(withPlugin);
  for (let r = 0; r < ROUNDS; r += 1) {
    globalThis.gc?.();
    const first = r % 2 === 0 ? noop : withPlugin;
    const second = first === noop ? withPlugin : noop;
    const x = await round(first);
    const y = await round(second);
    const [a, b] = first === noop ? [x, y] : [y, x];
    floor.push(a);
    measured.push(b);
    paired.push(b - a);
  }
  const sorted = [...paired].sort((p, q) => p - q);
  console.log(
    `${label.padEnd(46)} floor ${median(floor).toFixed(2)} us | plugin ${median(measured).toFixed(2)} us | overhead ${median(paired).toFixed(3)} us/call (median of paired rounds, IQR ${sorted[Math.floor(ROUNDS / 4)].toFixed(3)}..${sorted[Math.floor((3 * ROUNDS) / 4)].toFixed(3)})`,
  );
}

/**
 * The listeners called directly, without the waterfall around them: the plugin's three against three no-op
 * listeners, both taken as registered (cordis wraps every listener the same way), in alternating rounds.
 */
async function direct(label, noop, withPlugin) {
  const last = (ctx, name) => ctx.events._hooks[name].at(-1).callback;
  const listeners = (ctx) => [last(ctx, 'tools/execute'), last(ctx, 'tools/post-execute'), last(ctx, 'tools/result')];
  const run = async ([execute, post, result]) => {
    const start = performance.now();
    for (let i = 0; i < CALLS_PER_ROUND; i += 1) {
      const exec = pool[i % POOL];
      const r = await execute(exec, body);
      await post(exec, r, acceptNext);
      result(Object.freeze(exec), r);
    }
    return ((performance.now() - start) * 1000) / CALLS_PER_ROUND;
  };
  const a = listeners(noop);
  const b = listeners(withPlugin);
  const diffs = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    globalThis.gc?.();
    const x = await run(r % 2 === 0 ? a : b);
    const y = await run(r % 2 === 0 ? b : a);
    diffs.push(r % 2 === 0 ? y - x : x - y);
  }
  const sorted = [...diffs].sort((p, q) => p - q);
  console.log(
    `${label.padEnd(46)} listeners alone: +${median(diffs).toFixed(3)} us/call over no-op listeners (IQR ${sorted[Math.floor(ROUNDS / 4)].toFixed(3)}..${sorted[Math.floor((3 * ROUNDS) / 4)].toFixed(3)})`,
  );
}

const logDir = mkdtempSync(join(tmpdir(), 'tn-bench-'));
try {
  const noop = await noopContext();
  const withPlugin = await pluginContext(logDir);
  console.log(`node ${process.version}, ${CALLS_PER_ROUND} calls x ${ROUNDS} rounds (median of rounds)`);
  await compare('valid read (execute + post-execute + result)', noop, withPlugin);
  await direct('valid read', noop, withPlugin);
  for (let i = 0; i < 4000; i += 1) {
    const exec = execFor(1e9 + i, `invented_tool_${i}`);
    await oneCall(withPlugin, exec);
    await oneCall(noop, exec);
  }
  await compare('after 4,000 invented tool names', noop, withPlugin);
  await direct('after 4,000 invented tool names', noop, withPlugin);
} finally {
  rmSync(logDir, { recursive: true, force: true });
}
