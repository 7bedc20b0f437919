/**
 * The schema reading's cost with plain tools (JSON Schema only, no host profile, no validator: what the MCP proxy
 * and a jsonSchema() AI SDK tool give the kit), written like @modelcontextprotocol/server-filesystem's and
 * server-memory's inputSchemas. Run after a build: node bench/schema-reading.bench.mjs. Figures are printed per
 * call (median, p99), never asserted.
 */
import { createRepairKit } from '../dist/index.js';

const str = { type: 'string' };
const tools = [
  {
    name: 'write_file',
    parameters: { type: 'object', properties: { path: str, content: str }, required: ['path', 'content'] },
  },
  {
    name: 'move_file',
    parameters: { type: 'object', properties: { source: str, destination: str }, required: ['source', 'destination'] },
  },
  {
    name: 'read_multiple_files',
    parameters: {
      type: 'object',
      properties: { paths: { type: 'array', items: str, minItems: 1 } },
      required: ['paths'],
    },
  },
  {
    name: 'create_entities',
    parameters: {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: str, entityType: str, observations: { type: 'array', items: str } },
            required: ['name', 'entityType', 'observations'],
            additionalProperties: false,
          },
        },
      },
      required: ['entities'],
      additionalProperties: false,
    },
  },
];
const kit = createRepairKit(tools);

const entity = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };
const cases = [
  ['valid write_file', 'write_file', { path: '/w/a.txt', content: 'hello' }],
  ['valid create_entities', 'create_entities', { entities: [entity, { ...entity, name: 'Bob' }] }],
  ['synonym text -> content', 'write_file', { path: '/w/a.txt', text: 'hello' }],
  ['synonyms from/to', 'move_file', { from: '/w/a', to: '/w/b' }],
  ['one value for a list', 'read_multiple_files', { paths: '/w/a.txt' }],
  [
    'nested case + object for list',
    'create_entities',
    { entities: { name: 'Ada', entity_type: 'person', observations: 'wrote the first program' } },
  ],
  ['refused: two candidates', 'write_file', { path: '/w/a.txt', text: 'a', body: 'b' }],
];

for (const [label, name, args] of cases) {
  const iterations = 5_000;
  for (let i = 0; i < 200; i++) await kit.repair({ name, arguments: args });
  const times = [];
  let ok = 0;
  let changed = 0;
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    const answer = await kit.repair({ name, arguments: args });
    times.push(performance.now() - start);
    if (answer.ok) ok += 1;
    if (answer.ok && answer.changed) changed += 1;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const p99 = times[Math.floor(times.length * 0.99)];
  const verdict = changed === iterations ? 'healed' : ok === iterations ? 'valid' : ok === 0 ? 'refused' : 'mixed';
  console.log(
    `${label.padEnd(30)} median ${(median * 1000).toFixed(1).padStart(7)} µs  p99 ${(p99 * 1000).toFixed(1).padStart(7)} µs  (${verdict})`,
  );
}
