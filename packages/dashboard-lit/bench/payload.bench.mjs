/**
 * Speed of the dashboard's per-load and per-keystroke work, measured on the built `dist/` in Node:
 * checking a stats payload with 1,000 recent events (the store's maximum page), filtering those events by text (what
 * a payload without an events route does in the browser), and the readable before/after of one event (decode and
 * line diff of a 600-character program preview, the server's preview bound; and of a 60-line program).
 * Run: `node packages/dashboard-lit/bench/payload.bench.mjs` after `pnpm run build`.
 */
import { checkPayload } from '../dist/payload.js';
import { EMPTY_FILTER, filterEvents } from '../dist/format.js';
import { readableChange } from '../dist/before-after.js';

const outcomes = ['healed-success', 'healed-failed', 'passthrough', 'passthrough-failed'];
const recent = Array.from({ length: 1000 }, (_, index) => ({
  v: 1,
  id: `ev-${index}`,
  at: 1_700_000_000_000 + index,
  tool: `tool_${index % 12}`,
  category: `category-${index % 7}`,
  outcome: outcomes[index % 4],
  ruleIds: index % 3 ? ['run_code.command-to-code'] : [],
  before: `{"command":"echo ${'x'.repeat(500)} ${index}"}`,
  after: `await tools.bash({ command: "echo ${'x'.repeat(500)} ${index}" })`,
  changes: ['command -> code'],
  tokensSaved: 1000,
}));
const row = (name) => ({
  name,
  calls: 100,
  failures: 3,
  healedSuccess: 5,
  healedFailed: 1,
  tokensSaved: 10,
  failureRate: 0.03,
  counterfactualFailureRate: 0.08,
  healingSuccessRate: 5 / 6,
  ranked: true,
});
const payload = {
  v: 1,
  generatedAt: 1,
  since: 0,
  totals: {
    calls: 1000,
    healedSuccess: 250,
    healedFailed: 250,
    passThrough: 250,
    passThroughFailed: 250,
    tokensSaved: 1,
  },
  rates: { healingSuccessRate: 0.5, surfacedErrorRate: 0.5, counterfactualErrorRate: 0.75 },
  minCalls: 20,
  tools: Array.from({ length: 12 }, (_, index) => row(`tool_${index}`)),
  categories: Array.from({ length: 7 }, (_, index) => row(`category-${index}`)),
  rankings: { toolsByFailureRate: [], categoriesByFailureRate: [] },
  recent,
  recentMatched: 1000,
  storage: {},
};

function measure(label, fn, iterations) {
  for (let index = 0; index < Math.min(50, iterations); index++) fn();
  const started = process.hrtime.bigint();
  for (let index = 0; index < iterations; index++) fn();
  const perCall = Number(process.hrtime.bigint() - started) / iterations / 1000;
  console.log(`${label}: ${perCall.toFixed(1)} us per call`);
}

if (!checkPayload(payload).ok) throw new Error('benchmark payload rejected');
measure('checkPayload, 1,000 events', () => checkPayload(payload), 500);
measure(
  'filterEvents, text "tool_3" over 1,000 events',
  () => filterEvents(recent, { ...EMPTY_FILTER, text: 'tool_3' }),
  500,
);
measure(
  'filterEvents, text with no match over 1,000 events',
  () => filterEvents(recent, { ...EMPTY_FILTER, text: 'zzz-no-match' }),
  500,
);

const program = (lines) =>
  Array.from({ length: lines }, (_, index) => `const v${index} = await tools.bash({ command: "echo ${index}" });`).join(
    '\n',
  );
const sent = program(8).slice(0, 560);
const ran = sent.replace('"echo 3" }', '"echo 3", description: "Run: echo 3" }');
measure(
  'readableChange, run_code preview (600 chars, one line changed)',
  () => readableChange(JSON.stringify({ code: sent }), JSON.stringify({ code: ran, description: 'Run it' })),
  500,
);
const long = program(60);
measure(
  'readableChange, 60-line program, one line changed',
  () =>
    readableChange(
      JSON.stringify({ code: long }),
      JSON.stringify({ code: long.replace('"echo 30" }', '"echo 30", description: "d" }') }),
    ),
  200,
);
