/**
 * The engine's worst cases, measured against the built packages (run `pnpm run build` first, then
 * `node bench/bounded.bench.mjs` in packages/core-rules): the time of ONE normalizeCall / planRecovery /
 * healProgram on 1 KB to 50 MB inputs of the shapes that used to take seconds (a fenced program, a broken
 * program, a fuzzed program, big and near-JSON arguments) and on a schema `pattern` with catastrophic
 * backtracking. Each input is fresh text (V8 caches compiles of identical source). Figures only: nothing here fails.
 */
import { readFileSync } from 'node:fs';
import { healProgram } from '@dsh-tool-normalizer/syntax-healer';
import { normalizeCall, planRecovery } from '../dist/index.js';

const load = (name) => JSON.parse(readFileSync(new URL(`../tests/fixtures/${name}`, import.meta.url), 'utf8'));
const nativeTools = load('native-tool-schemas.json');
const runCodeTool = load('code-tool-schemas.json')[0];
const nativeEnv = { tools: nativeTools, mode: 'native', cwd: '/workspace' };
const codeEnv = { tools: [runCodeTool, ...nativeTools], mode: 'code', cwd: '/workspace' };

let salt = 0;
/** A program of about `size` characters: awaited tool calls with distinct locals (the host's slowest compile shape). */
function program(size) {
  const lines = [`// run ${salt++}`];
  let length = 0;
  for (let index = 0; length < size; index++) {
    const line = `const r${index} = await tools.read({ file_path: "/w/f${index}.ts", limit: 50 });`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}
/** Deterministic pseudo-random program text (a fuzzer's kind of input). */
function fuzzed(size) {
  let seed = 0x9e3779b9 ^ salt++;
  const pieces = [
    '{',
    '}',
    '(',
    ')',
    '`',
    '${',
    '"',
    "'",
    '/',
    '*',
    '\\',
    '\n',
    ' ',
    'const ',
    'await ',
    'tools.',
    '```',
    'x',
    '=',
    ';',
    '<',
    '>',
  ];
  let text = '';
  while (text.length < size) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    text += pieces[seed % pieces.length];
  }
  return text;
}

const sizes = [1e3, 1e5, 1e6, 1e7, 5e7];
const shapes = {
  'fenced program': (size) => ({
    name: 'run_code',
    arguments: { code: `\`\`\`js\n${program(size)}\n\`\`\``, description: 'd' },
  }),
  'broken program': (size) => ({
    name: 'run_code',
    arguments: { code: `${program(size)}\nconst tail = \`abc`, description: 'd' },
  }),
  'fuzzed program': (size) => ({ name: 'run_code', arguments: { code: fuzzed(size), description: 'd' } }),
  'big JSON args (text)': (size) => ({
    name: 'bash',
    arguments: JSON.stringify({ command: `echo ${'a'.repeat(size)} ${salt++}` }),
  }),
  'big JSON args (object)': (size) => ({
    name: 'write',
    arguments: { file_path: 'a.txt', contents: `${'a'.repeat(size)}${salt++}` },
  }),
  'near-JSON args': (size) => ({
    name: 'bash',
    arguments: `{command: 'echo ${'a'.repeat(size)} ${salt++}', description: 'x',}`,
  }),
};

const rows = [];
const only = process.argv[2];
const push = (row) => {
  rows.push(row);
  console.log(JSON.stringify(row));
};
/** Wall time, and CPU time of this process (the machine is shared: CPU time is what the call itself cost). */
function time(operation) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = operation();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, result };
}
// Warm up every path once (the first call of a process pays JIT and the strip's WebAssembly start-up).
for (const make of Object.values(shapes)) {
  const call = make(1e3);
  normalizeCall(call, call.name === 'run_code' ? codeEnv : nativeEnv);
}
for (const [shape, make] of Object.entries(shapes)) {
  if (only && !shape.includes(only)) continue;
  for (const size of sizes) {
    const call = make(size);
    const env = call.name === 'run_code' ? codeEnv : nativeEnv;
    const { ms, cpuMs, result } = time(() => normalizeCall(call, env));
    push({
      case: `normalizeCall: ${shape}`,
      size,
      ms: ms.toFixed(1),
      'cpu ms': cpuMs.toFixed(1),
      answer: result.changed ? 'changed' : (result.reason ?? '').slice(0, 60),
    });
  }
}
for (const size of sizes) {
  const code = `\`\`\`ts\n${program(size)}\n\`\`\``;
  const { ms, cpuMs, result } = time(() => healProgram(code));
  push({
    case: 'healProgram: fenced program',
    size,
    ms: ms.toFixed(1),
    'cpu ms': cpuMs.toFixed(1),
    answer: result.changed ? 'changed' : (result.diagnostic?.kind ?? 'ok'),
  });
}
for (const size of sizes) {
  const call = { name: 'read', arguments: { path: `/w/${'a'.repeat(size)}` } };
  const error = {
    isError: true,
    error: {
      message: `invalid arguments: missing required property "file_path" ${'x'.repeat(size)}`,
      info: { code: 'INVALID_ARGS' },
    },
  };
  const { ms, cpuMs, result } = time(() => planRecovery(call, error, nativeEnv));
  push({
    case: 'planRecovery: read alias',
    size,
    ms: ms.toFixed(1),
    'cpu ms': cpuMs.toFixed(1),
    answer: result ? result.ruleId : 'none',
  });
}
// A schema pattern with catastrophic backtracking, the way an AI SDK user might write one.
const evil = {
  name: 'lookup',
  parameters: {
    type: 'object',
    properties: { id: { type: 'string', pattern: '^(a+)+$' }, n: { type: 'integer' } },
    required: ['id'],
  },
};
for (const size of [30, 1e3, 1e5, 1e6]) {
  const call = { name: 'lookup', arguments: { id: `${'a'.repeat(size)}!`, n: '5' } };
  const { ms, cpuMs, result } = time(() => normalizeCall(call, { tools: [evil], mode: 'native' }));
  push({
    case: 'normalizeCall: pattern ^(a+)+$',
    size,
    ms: ms.toFixed(1),
    'cpu ms': cpuMs.toFixed(1),
    answer: result.changed ? 'changed' : (result.reason ?? '').slice(0, 60),
  });
}
console.table(rows);
