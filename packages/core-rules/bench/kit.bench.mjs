/**
 * The repair kit's per-call cost, outside any harness: the shared case tools (JSON Schema only, and with a
 * validator), the DSH host profile, programs on. Run after a build: node bench/kit.bench.mjs. Figures are printed
 * (per call: median, mean and p99), never asserted.
 */
import { healProgram } from '@dsh-tool-normalizer/syntax-healer';
import { createRepairKit, dshHostChecks, validateArguments } from '../dist/index.js';

const tools = [
  {
    name: 'bash',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        description: { type: 'string' },
        timeout_ms: { type: 'integer', minimum: 1 },
      },
      required: ['command', 'description'],
    },
  },
  {
    name: 'read',
    parameters: {
      type: 'object',
      properties: { file_path: { type: 'string' }, offset: { type: 'integer', minimum: 1 } },
      required: ['file_path'],
    },
  },
  {
    name: 'write',
    parameters: {
      type: 'object',
      properties: { file_path: { type: 'string' }, content: { type: 'string' } },
      required: ['file_path', 'content'],
    },
  },
  { name: 'run_js', parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] } },
];
const options = { hostChecks: dshHostChecks, programs: { fields: { run_js: 'code' }, healProgram } };
const kits = {
  schema: createRepairKit(tools, options),
  validator: createRepairKit(
    tools.map((tool) => ({ ...tool, validate: (args) => validateArguments(tool.parameters, args).length === 0 })),
    options,
  ),
};

const big = 'x'.repeat(100_000);
const cases = [
  ['valid call (object)', 'bash', { command: 'ls -la', description: 'List files' }],
  ['valid call (text)', 'read', '{"file_path":"/w/a.txt","offset":3}'],
  ['valid 100 KB write', 'write', JSON.stringify({ file_path: '/w/a', content: big })],
  ['valid program', 'run_js', JSON.stringify({ code: 'const a = 1;\nreturn a + 1;' })],
  ['alias + fill', 'bash', '{"cmd":"ls -la /tmp"}'],
  ['near-JSON', 'write', "{file_path: '/w/a.md', 'content': 'hello',}"],
  ['prefix + alias', 'functions.read_file', '{"path":"/w/a.txt"}'],
  ['stringly number', 'read', '{"file_path":"/w/a","offset":"12"}'],
  ['fenced program', 'run_js', JSON.stringify({ code: '```js\nreturn 1;\n```' })],
  ['refused: cut-off JSON', 'bash', '{"command": "rm -rf /srv/app/rel'],
];

for (const [kitName, kit] of Object.entries(kits)) {
  for (const [label, name, args] of cases) {
    const iterations = JSON.stringify(args).length > 10_000 ? 300 : 3_000;
    for (let i = 0; i < 100; i++) await kit.repair({ name, arguments: args });
    const times = [];
    let ok = 0;
    for (let i = 0; i < iterations; i++) {
      const start = performance.now();
      const answer = await kit.repair({ name, arguments: args });
      times.push(performance.now() - start);
      if (answer.ok) ok += 1;
    }
    times.sort((a, b) => a - b);
    const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
    const median = times[Math.floor(times.length / 2)];
    const p99 = times[Math.floor(times.length * 0.99)];
    console.log(
      `${kitName.padEnd(9)} ${label.padEnd(24)} median ${(median * 1000).toFixed(0).padStart(5)} µs  mean ${(mean * 1000).toFixed(0).padStart(6)} µs  p99 ${(p99 * 1000).toFixed(0).padStart(6)} µs  (${ok === iterations ? 'ok' : ok === 0 ? 'refused' : 'mixed'})`,
    );
  }
}
