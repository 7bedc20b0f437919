/**
 * What the first call to each tool costs (refine seam, a valid call, plain `jsonSchema()` tools), in a fresh
 * process: `healToolCalls(tools)`, then WAIT ms (the model's latency; default 200), then one valid call per tool,
 * twice. WAIT=0 calls right after the set-up, before the warm-up (`warmKit`) has run: what every first call paid
 * before the warm-up existed. Run after a build: node bench/first-call.bench.mjs. Figures are printed, never asserted.
 */
import { jsonSchema, tool } from 'ai';
import { dshHostChecks } from '@dsh-tool-normalizer/core-rules';
import { healToolCalls } from '../dist/index.js';

const str = { type: 'string' };
const obj = (properties, required) => ({ type: 'object', properties, required });
const defs = {
  bash: {
    ...obj(
      { command: { type: 'string', minLength: 1 }, description: str, timeout_ms: { type: 'integer', minimum: 1 } },
      ['command', 'description'],
    ),
    additionalProperties: false,
  },
  read: obj({ file_path: str, offset: { type: 'integer', minimum: 1 }, limit: { type: 'integer', minimum: 1 } }, [
    'file_path',
  ]),
  write: obj({ file_path: str, content: str }, ['file_path', 'content']),
  grep: obj({ pattern: str, path: str, include: str }, ['pattern']),
  web_search: obj({ queries: { type: 'array', items: str, minItems: 1, maxItems: 4 } }, ['queries']),
};
const valid = {
  bash: { command: 'ls', description: 'List' },
  read: { file_path: 'a' },
  write: { file_path: 'a', content: 'b' },
  grep: { pattern: 'x' },
  web_search: { queries: ['a'] },
};
const tools = Object.fromEntries(
  Object.entries(defs).map(([name, schema]) => [
    name,
    tool({ inputSchema: jsonSchema(schema), execute: async () => '' }),
  ]),
);
const seams = healToolCalls(tools, { hostChecks: dshHostChecks });
const WAIT = Number(process.env.WAIT ?? 200);
await new Promise((resolve) => setTimeout(resolve, WAIT));
for (const round of ['first call', 'second call']) {
  const line = [];
  for (const name of Object.keys(defs)) {
    const start = performance.now();
    await seams.experimental_refineToolInput[name]({ ...valid[name] });
    line.push(`${name} ${((performance.now() - start) * 1000).toFixed(0)} µs`);
  }
  console.log(`WAIT=${WAIT} ${round}: ${line.join(', ')}`);
}
