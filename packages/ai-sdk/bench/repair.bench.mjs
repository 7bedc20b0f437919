/**
 * How long the repair function takes per call, outside any model: the SDK-shaped arguments (zod tools, the
 * SDK's own `asSchema` conversion, the SDK error) are built once, then each case is repaired many times.
 * Run after a build: node bench/repair.bench.mjs. Figures are printed, never asserted.
 */
import { asSchema, InvalidToolInputError, NoSuchToolError, tool } from 'ai';
import { z } from 'zod';
import { healToolCalls } from '../dist/index.js';

const tools = {
  bash: tool({ inputSchema: z.object({ command: z.string(), description: z.string() }), execute: async () => '' }),
  read: tool({
    inputSchema: z.object({ file_path: z.string(), offset: z.number().int().optional() }),
    execute: async () => '',
  }),
  write: tool({ inputSchema: z.object({ file_path: z.string(), content: z.string() }), execute: async () => '' }),
};
const inputSchema = async ({ toolName }) => asSchema(tools[toolName].inputSchema).jsonSchema;
const { repairToolCall: repair, experimental_refineToolInput: refine } = healToolCalls(tools);

/** Median and mean per call, in µs (the median shrugs off other jobs on a shared machine; the mean does not). */
async function timed(iterations, once) {
  const times = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] * 1000;
  const mean = (times.reduce((sum, t) => sum + t, 0) / times.length) * 1000;
  return `median ${median.toFixed(0).padStart(6)} µs, mean ${mean.toFixed(0).padStart(6)} µs`;
}

const big = 'x'.repeat(100_000);
const cases = [
  ['alias + fill (bash {"cmd"})', 'bash', '{"cmd":"ls -la /tmp"}'],
  ['near-JSON (write, 2 fields)', 'write', "{file_path: '/w/a.md', 'content': 'hello',}"],
  ['unknown name (read_file)', 'read_file', '{"file_path":"/w/a.txt"}'],
  ['refused: cut-off JSON', 'bash', '{"command": "rm -rf /srv/app/rel'],
  ['near-JSON, 100 KB content', 'write', `{file_path: '/w/big.txt', 'content': '${big}'}`],
];

for (const [label, toolName, input] of cases) {
  const error = tools[toolName]
    ? new InvalidToolInputError({ toolName, toolInput: input, cause: new Error('invalid') })
    : new NoSuchToolError({ toolName, availableTools: Object.keys(tools) });
  const args = {
    toolCall: { type: 'tool-call', toolCallId: 'c', toolName, input },
    tools,
    inputSchema,
    error,
    messages: [],
    instructions: undefined,
    system: undefined,
  };
  const iterations = input.length > 10_000 ? 200 : 5_000;
  for (let i = 0; i < 50; i++) await repair(args);
  let repaired = 0;
  const times = await timed(iterations, async () => {
    if (await repair(args)) repaired += 1;
  });
  console.log(
    `${label.padEnd(40)} ${times}  (${repaired === iterations ? 'repaired' : repaired === 0 ? 'null' : 'mixed'}, ${iterations} calls)`,
  );
}

// The refine seam runs for every parsed call: its cost on a valid call is what every call pays.
const refineCases = [
  ['refine: valid bash call', 'bash', { command: 'ls -la', description: 'List files' }],
  ['refine: valid write, 100 KB content', 'write', { file_path: '/w/big.txt', content: big }],
];
for (const [label, toolName, input] of refineCases) {
  const iterations = JSON.stringify(input).length > 10_000 ? 500 : 5_000;
  for (let i = 0; i < 50; i++) await refine[toolName](input);
  let same = 0;
  const times = await timed(iterations, async () => {
    if ((await refine[toolName](input)) === input) same += 1;
  });
  console.log(
    `${label.padEnd(40)} ${times}  (${same === iterations ? 'unchanged' : same === 0 ? 'refined' : 'mixed'}, ${iterations} calls)`,
  );
}
