/**
 * Benchmark of the three speed targets of issue 4, against the built package (run `pnpm --filter
 * @dsh-tool-normalizer/telemetry-store build` first, then `node packages/telemetry-store/bench/telemetry.bench.mjs`):
 * record() in the caller's path (< 5 us median), stats for 100k recorded events (< 20 ms), boot with a 5 MB log
 * (< 200 ms). Prints a table; exits non-zero when a target is missed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildEvent, createTelemetryStore, previewText, serializeEvent } from '../dist/index.js';

const dirs = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'tn-bench-'));
  dirs.push(dir);
  return dir;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summarize(samplesNs) {
  const sorted = [...samplesNs].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] };
}

const us = (ns) => `${(ns / 1000).toFixed(2)} us`;
const ms = (n) => `${n.toFixed(2)} ms`;
const results = [];
function report(name, value, target, pass) {
  results.push({ name, value, target, pass });
}

const bigArgs = { code: `const data = ${JSON.stringify('x'.repeat(2000))};\nawait tools.bash({ command: "curl -H 'Authorization: Bearer sk-live-abcdefghijklmnop1234' https://api" });` };
const healedInput = (i) => ({
  tool: 'run_code',
  category: 'CODE_SYNTAX',
  outcome: i % 5 === 0 ? 'healed-failed' : 'healed-success',
  ruleIds: ['syntax-close-delimiters'],
  before: bigArgs,
  after: bigArgs,
  changes: ['closed 1 brace'],
  error: `SyntaxError: Unexpected end of input at line 3\n    at compile (node_modules/.pnpm/x/index.js:1:1) password=hunter2`,
  tokensSaved: 1200,
  callId: `call-${i}`,
});
const passthroughInput = { tool: 'bash', category: 'none', outcome: 'passthrough', ruleIds: [] };

function timeRecords(store, count, makeInput) {
  const samples = new Array(count);
  for (let i = 0; i < count; i += 1) {
    const input = makeInput(i);
    const start = process.hrtime.bigint();
    store.record(input);
    samples[i] = Number(process.hrtime.bigint() - start);
  }
  return summarize(samples);
}

// 1. record() on the caller's path, with the I/O timer running between bursts.
{
  const store = createTelemetryStore({ dir: tempDir(), warn: () => undefined });
  timeRecords(store, 20_000, () => passthroughInput); // warm-up
  const pass = timeRecords(store, 100_000, () => passthroughInput);
  report('record(): untouched pass-through, median (p99 / max)', `${us(pass.median)} (${us(pass.p99)} / ${us(pass.max)})`, '< 5 us', pass.median < 5000);
  const healedSamples = [];
  for (let burst = 0; burst < 100; burst += 1) {
    const result = timeRecords(store, 100, (i) => healedInput(burst * 100 + i));
    healedSamples.push(result.median);
    await new Promise((resolve) => setTimeout(resolve, 2)); // let the batched writer run between bursts
  }
  const heal = summarize(healedSamples);
  report('record(): healed event with 2 KB arguments, median of burst medians', us(heal.median), '< 5 us', heal.median < 5000);
  const names = timeRecords(store, 20_000, (i) => ({ ...passthroughInput, tool: `hallucinated_tool_${i}` }));
  report('record(): 20k distinct hallucinated tool names, median (p99)', `${us(names.median)} (${us(names.p99)})`, '< 5 us', names.median < 5000);
  await store.close();
}

// 2. stats() after 100,000 recorded events.
{
  const store = createTelemetryStore({ dir: tempDir(), warn: () => undefined });
  for (let i = 0; i < 100_000; i += 1) store.record(i % 10 === 0 ? healedInput(i) : { ...passthroughInput, tool: `tool_${i % 40}` });
  // Queued heals (at most 128) are turned into redacted records by the next stats() or the writer's timer:
  // measure that worst case once, then stats() the way the route sees it once the timer has run.
  let start = performance.now();
  store.stats();
  const withQueue = performance.now() - start;
  for (let i = 0; i < 100; i += 1) store.record(healedInput(i));
  await store.flush();
  start = performance.now();
  store.stats();
  const first = performance.now() - start;
  const samples = [];
  for (let i = 0; i < 50; i += 1) {
    start = performance.now();
    store.stats({ text: 'syntax', limit: 100 });
    samples.push(performance.now() - start);
  }
  const steady = summarize(samples);
  report('stats() for 100k events: first call / median of 50 (filtered)', `${ms(first)} / ${ms(steady.median)}`, '< 20 ms', first < 20 && steady.median < 20);
  report('stats() for 100k events while up to 128 heals are still queued (info)', ms(withQueue), 'info', true);
  await store.close();
}

// 3. Boot with a 5 MB log.
{
  const dir = tempDir();
  const lines = [];
  let bytes = 0;
  for (let i = 0; bytes < 5 * 1024 * 1024; i += 1) {
    const line = serializeEvent(buildEvent(healedInput(i), `boot-${i}`, 1_700_000_000_000 + i));
    lines.push(line);
    bytes += Buffer.byteLength(line);
  }
  writeFileSync(join(dir, 'tool-normalizer-events.jsonl'), lines.join(''));
  const boot = () => {
    const start = performance.now();
    const store = createTelemetryStore({ dir, maxLogBytes: 8 * 1024 * 1024, warn: () => undefined });
    const elapsed = performance.now() - start;
    return { store, elapsed };
  };
  const rebuild = [];
  for (let i = 0; i < 5; i += 1) rebuild.push(boot().elapsed);
  const { store } = boot();
  await store.flush(); // writes the summary
  const withSummary = [];
  for (let i = 0; i < 5; i += 1) withSummary.push(boot().elapsed);
  const r = summarize(rebuild);
  const s = summarize(withSummary);
  report(`boot, ${(bytes / 1048576).toFixed(1)} MB log (${lines.length} events), summary present: median`, ms(s.median), '< 200 ms', s.median < 200);
  report('boot, same log, summary missing (rebuild from the whole log): median', ms(r.median), '< 200 ms', r.median < 200);
}

// 4. Redaction worst cases (info): 64 KB inputs built to make regular expressions backtrack.
{
  const size = 64 * 1024;
  const adversarial = {
    'identifier run of "token"': 'token'.repeat(size / 5),
    'backslash run after a key': `"token": "${'\\'.repeat(size)}`,
    'unterminated quoted password': `password="${'a\\'.repeat(size / 2)}`,
    'repeated JSON keys': '"secret":"'.repeat(size / 10),
    'bearer + base64 run': `Bearer ${'A'.repeat(size)} -----END PRIVATE KEY-----`,
  };
  let worst = 0;
  let worstName = '';
  for (const [name, text] of Object.entries(adversarial)) {
    const start = performance.now();
    previewText(text, 600);
    const elapsed = performance.now() - start;
    if (elapsed > worst) [worst, worstName] = [elapsed, name];
  }
  report(`redaction of a 64 KB adversarial text, worst case (${worstName})`, ms(worst), 'info', true);
  const event = healedInput(1);
  const samples = [];
  for (let i = 0; i < 2000; i += 1) {
    const start = process.hrtime.bigint();
    buildEvent(event, 'x', 1);
    samples.push(Number(process.hrtime.bigint() - start));
  }
  report('building one redacted event off the caller\'s path (2 KB arguments), median', us(summarize(samples).median), 'info', true);
}

for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
console.log(`node ${process.version}`);
console.table(results);
if (results.some((row) => !row.pass)) process.exitCode = 1;
