/**
 * Speed of the engine on its hot paths, measured against the built package (run `pnpm run build` first,
 * then `pnpm run bench` in packages/core-rules). Budgets: a valid non-run_code call < 5 us
 * median; a valid 2 KB run_code call < 1.5x one host-equivalent compile. Figures only: nothing here fails.
 */
import { readFileSync } from 'node:fs';
import { compilesLikeHost } from '@dsh-tool-normalizer/syntax-healer';
import { normalizeCall, planRecovery, hintFor } from '../dist/index.js';

const load = (name) => JSON.parse(readFileSync(new URL(`../tests/fixtures/${name}`, import.meta.url), 'utf8'));
const nativeTools = load('native-tool-schemas.json');
const runCodeTool = load('code-tool-schemas.json')[0];
const captures = load('captures.json');
const nativeEnv = { tools: nativeTools, mode: 'native', cwd: '/workspace' };
const codeEnv = { tools: [runCodeTool, ...nativeTools], mode: 'code', cwd: '/workspace' };

/** Median time per operation in microseconds: `rounds` samples of `batch` operations each. */
function measure(operation, { batch = 200, rounds = 200 } = {}) {
  for (let index = 0; index < batch * 20; index++) operation();
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let index = 0; index < batch; index++) operation();
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / batch);
  }
  samples.sort((left, right) => left - right);
  return { median: samples[Math.floor(samples.length / 2)], p90: samples[Math.floor(samples.length * 0.9)] };
}

function program2k() {
  let code = '';
  for (let index = 0; code.length < 2000; index++) {
    code += `const r${index} = await tools.read({ file_path: "/workspace/src/file${index}.ts", limit: 50 });\n`;
    code += `const b${index} = await tools.bash({ command: "grep -n TODO src/file${index}.ts", description: "Find TODOs in file ${index}" });\n`;
    code += `console.log(r${index}.totalLines, b${index}.stdout.text.length);\n`;
  }
  return `${code}return { done: true };`;
}

const rows = [];
function row(name, operation, options) {
  const { median, p90 } = measure(operation, options);
  rows.push({ case: name, 'median us': median.toFixed(2), 'p90 us': p90.toFixed(2) });
  return median;
}

const validBash = {
  name: 'bash',
  arguments: { command: 'git status --short', description: 'Show working tree status' },
};
const validRead = { name: 'read', arguments: { file_path: '/workspace/src/index.ts', offset: 1, limit: 200 } };
const validView = {
  name: 'str_replace_editor',
  arguments: { command: 'view', path: '/workspace/fixture.txt', view_range: [8, -1] },
};
const validNested = { name: 'bash', arguments: { command: 'ls', description: 'List files' } };
const wireBash = { name: 'bash', arguments: JSON.stringify(validBash.arguments) };

const bashMedian = row('valid bash (native)', () => normalizeCall(validBash, nativeEnv));
row('valid read (native)', () => normalizeCall(validRead, nativeEnv));
row('valid editor view (native)', () => normalizeCall(validView, nativeEnv));
row('valid bash (nested Code Mode sub-call)', () => normalizeCall(validNested, { ...codeEnv, nested: true }));
row('valid bash, JSON-string arguments', () => normalizeCall(wireBash, nativeEnv));

const code = JSON.parse(JSON.stringify(program2k())); // flat, like a string from JSON.parse
const validRunCode = { name: 'run_code', arguments: { code, description: 'Scan files for TODO markers' } };
if (normalizeCall(validRunCode, codeEnv).changed) throw new Error('benchmark program is not valid');
/** Interleaved samples of two operations, so machine-load drift hits both alike. Returns both medians. */
function interleaved(first, second, { batch = 20, rounds = 400 } = {}) {
  for (let index = 0; index < 20000; index++) first(), second();
  const samples = [[], []];
  for (let round = 0; round < rounds; round++) {
    [first, second].forEach((operation, which) => {
      const start = process.hrtime.bigint();
      for (let index = 0; index < batch; index++) operation();
      samples[which].push(Number(process.hrtime.bigint() - start) / 1000 / batch);
    });
  }
  return samples.map((list) => list.sort((left, right) => left - right)[Math.floor(list.length / 2)]);
}
const [compileMedian, runCodeMedian] = interleaved(
  () => compilesLikeHost(code),
  () => normalizeCall(validRunCode, codeEnv),
);
rows.push({
  case: `host-equivalent compile of the ${code.length}-char program`,
  'median us': compileMedian.toFixed(2),
  'p90 us': '-',
});
rows.push({
  case: `valid ${code.length}-char run_code (interleaved with the compile)`,
  'median us': runCodeMedian.toFixed(2),
  'p90 us': '-',
});

const brokenRunCode = {
  name: 'run_code',
  arguments: { code: '```ts\n' + code.replace('description: "Find TODOs in file 0"', '') + '\n```' },
};
row('broken 2 KB run_code repaired (fence + inner + description)', () => normalizeCall(brokenRunCode, codeEnv), {
  batch: 5,
  rounds: 60,
});
row('run_code {command} wrapped', () => normalizeCall(captures.c_a_command_instead_of_code.modelCall, codeEnv), {
  batch: 20,
});
row('Code Mode direct read bridged', () => normalizeCall(captures.c_c_direct_read.modelCall, codeEnv), { batch: 20 });
row('bash {cmd} repaired (native)', () => normalizeCall(captures.n_bash_wrong_key.modelCall, nativeEnv));
row('planRecovery FS_NOT_OBSERVED', () =>
  planRecovery(captures.n_e_edit_unread.modelCall, captures.n_e_edit_unread.finalResult, nativeEnv),
);
// Near-JSON: a single-quoted value full of apostrophes (refused by the token reading before jsonrepair, whose
// time grows faster than linearly on it: 200 KB took 14 s), and a valid 240 KB near-JSON write (repaired).
const apostrophes = { name: 'bash', arguments: `{'command': '${"it's ".repeat(40_000)}', 'description': 'x'}` };
row(
  `near-JSON ${apostrophes.arguments.length}-char single-quoted value with apostrophes (refused)`,
  () => normalizeCall(apostrophes, nativeEnv),
  { batch: 1, rounds: 10 },
);
const nearWrite = { name: 'write', arguments: `{file_path: 'a', content: '${'ab\\n'.repeat(60_000)}',}` };
row(`near-JSON ${nearWrite.arguments.length}-char write repaired`, () => normalizeCall(nearWrite, nativeEnv), {
  batch: 1,
  rounds: 10,
});
row('hintFor collapsed direct call', () =>
  hintFor(captures.c_c_direct_read.modelCall, captures.c_c_direct_read.finalResult, codeEnv),
);

console.log(`node ${process.version}`);
console.table(rows);
console.log(`valid bash median ${bashMedian.toFixed(2)} us (budget < 5 us): ${bashMedian < 5 ? 'within' : 'OVER'}`);
const ratio = runCodeMedian / compileMedian;
console.log(
  `valid 2 KB run_code / one host compile = ${ratio.toFixed(2)}x (budget < 1.5x): ${ratio < 1.5 ? 'within' : 'OVER'}`,
);
