/**
 * What the healing costs per call with plain tools (`jsonSchema()` without `validate`), p50 and p99, wall and CPU
 * time, over core-rules' shared case table (the calls models send: valid, repairable, refused), in a fresh process
 * the way an app runs: `healToolCalls(tools)` at set-up, the model's latency (LATENCY_MS), then each case once (the
 * first call to each tool among them), then ROUNDS more rounds. Each case goes where the SDK sends it: a call whose
 * text parses to `experimental_refineToolInput` with a fresh parsed copy, any other to `repairToolCall`. The table
 * is bundled with esbuild from its TypeScript source. Run after a build: node bench/plain-tools.bench.mjs.
 * Figures are printed, never asserted.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InvalidToolInputError, jsonSchema, NoSuchToolError, tool } from 'ai';
import { build } from 'esbuild';
import { healToolCalls } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// Inside core-rules (its ignored node_modules cache), so the bundle's imports resolve as the table's own do.
const dir = path.join(here, '../../core-rules/node_modules/.cache');
mkdirSync(dir, { recursive: true });
const outfile = path.join(dir, `shared-cases-${process.pid}.mjs`);
await build({
  entryPoints: [path.join(here, '../../core-rules/tests/shared-cases.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile,
  conditions: ['@dsh-tool-normalizer/source'],
  packages: 'external',
  logLevel: 'error',
});
const { sharedCases, sharedTools, SHARED_OPTIONS } = await import(pathToFileURL(outfile).href);
rmSync(outfile, { force: true });

// Plain tools: no program tool (the table's `run_js` is an ordinary tool here), DeepSeek Harness's host checks.
const OPTIONS = { cwd: SHARED_OPTIONS.cwd, hostChecks: SHARED_OPTIONS.hostChecks };
const tools = Object.fromEntries(
  sharedTools.map((t) => [
    t.name,
    tool({ description: t.description, inputSchema: jsonSchema(t.parameters), execute: async () => '' }),
  ]),
);
/** How long the model takes to answer, between the set-up and the first tool call (LATENCY_MS, default 200). */
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 20);

// The set-up an app does before `generateText`, then the model's latency.
const seams = healToolCalls(tools, OPTIONS);
await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));

/** The seam the SDK calls for this case, given a fresh copy of the input the SDK would have parsed. */
function callFor(testCase) {
  let parsed;
  try {
    parsed = testCase.input.trim() === '' ? {} : JSON.parse(testCase.input);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined && Object.hasOwn(tools, testCase.name)) {
    const text = JSON.stringify(parsed);
    return {
      seam: 'refine',
      prepare: () => JSON.parse(text),
      run: (input) => seams.experimental_refineToolInput[testCase.name](input),
    };
  }
  const error = Object.hasOwn(tools, testCase.name)
    ? new InvalidToolInputError({ toolName: testCase.name, toolInput: testCase.input, cause: new Error('invalid') })
    : new NoSuchToolError({ toolName: testCase.name, availableTools: Object.keys(tools) });
  const args = {
    toolCall: { type: 'tool-call', toolCallId: 'c', toolName: testCase.name, input: testCase.input },
    tools,
    inputSchema: async () => ({}),
    error,
    messages: [],
  };
  return { seam: 'repair', prepare: () => args, run: (input) => seams.repairToolCall(input) };
}

const ordered = process.env.REVERSE === '1' ? [...sharedCases].reverse() : sharedCases;
const calls = ordered.map((testCase) => ({ id: testCase.id, ...callFor(testCase) }));
/**
 * CPU time of the main thread (Node >= 23.9: `process.threadCpuUsage`; older Nodes count the whole process,
 * garbage collector and compiler threads included). Other jobs on the machine do not show in it, unlike wall time.
 */
const cpuUsage = process.threadCpuUsage
  ? (previous) => process.threadCpuUsage(previous)
  : (previous) => process.cpuUsage(previous);
/** Wall and CPU time of one call, in µs. */
async function once(call) {
  const input = call.prepare();
  const cpu = cpuUsage();
  const start = performance.now();
  await call.run(input);
  const wall = (performance.now() - start) * 1000;
  const used = cpuUsage(cpu);
  return { id: call.id, wall, cpu: used.user + used.system };
}

function summary(label, timings) {
  const pick = (key, q) => {
    const sorted = timings.map((entry) => entry[key]).sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(0).padStart(6);
  };
  console.log(
    `${label.padEnd(34)} wall p50 ${pick('wall', 0.5)} µs, p99 ${pick('wall', 0.99)} µs | cpu p50 ${pick('cpu', 0.5)} µs, p99 ${pick('cpu', 0.99)} µs  (${timings.length} calls)`,
  );
}

// The first valid call to each tool (the table's first valid case per tool): what a tool's first use costs.
const firstUse = [];
for (const name of Object.keys(tools)) {
  const call = calls.find(
    (entry) =>
      entry.seam === 'refine' &&
      sharedCases.find((c) => c.id === entry.id && c.name === name && c.expect.kind === 'valid'),
  );
  if (call) firstUse.push(await once(call));
}
const first = [];
for (const call of calls) first.push(await once(call));
const later = [];
for (let round = 0; round < ROUNDS; round++) for (const call of calls) later.push(await once(call));
console.log(
  `plain tools, ${calls.length} cases, set-up ${LATENCY_MS} ms before the first call, Node ${process.version}, cpu: ${process.threadCpuUsage ? 'main thread' : 'whole process'}`,
);
summary('first valid call of each tool', firstUse);
summary('then the table, first round', first);
summary(`next ${ROUNDS} rounds`, later);
summary('all', [...first, ...later]);
console.log('slowest calls of the first round (cpu):');
for (const entry of first.sort((a, b) => b.cpu - a.cpu).slice(0, 5))
  console.log(
    `  ${entry.cpu.toFixed(0).padStart(6)} µs cpu ${entry.wall.toFixed(0).padStart(6)} µs wall  ${entry.id.slice(0, 70)}`,
  );
const byCase = new Map();
for (const entry of later) byCase.set(entry.id, [...(byCase.get(entry.id) ?? []), entry.cpu]);
const medians = [...byCase].map(([id, list]) => [
  id,
  list.sort((a, b) => a - b)[Math.floor(list.length / 2)],
  list.at(-1),
]);
console.log('slowest cases of the next rounds (cpu median, max):');
for (const [id, median, max] of medians.sort((a, b) => b[1] - a[1]).slice(0, 5))
  console.log(`  ${median.toFixed(0).padStart(6)} µs ${max.toFixed(0).padStart(6)} µs  ${id.slice(0, 70)}`);
