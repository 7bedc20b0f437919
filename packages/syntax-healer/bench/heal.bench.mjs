/**
 * Speed of the syntax healer, against the built package (run `pnpm --filter @dsh-tool-normalizer/syntax-healer build`
 * first, then `node bench/heal.bench.mjs`; run it with a Node >= 22.15 binary to measure the node-strip-types path).
 *
 * Targets: a valid 2 KB program costs less than the host's own compile (strip + AsyncFunction, on Node >= 22.15); a broken 2 KB program is
 * healed in < 2 ms median; pathological inputs are bounded. Each iteration gets a unique trailing comment so
 * V8's compilation cache never answers for us.
 */
// HEAL_DIST=<dir> measures another build (e.g. a copy of the previous commit's dist) for before/after figures.
const dist = new URL(`../${process.env.HEAL_DIST ?? 'dist'}/`, import.meta.url);
const { healProgram } = await import(new URL('index.js', dist).href);
const { compileVerdict, stripBackend } = await import(new URL('host-compile.js', dist).href);

/**
 * `--single-pass`: the latency a session sees, cold cases included: every program of the test corpus (valid, repairs,
 * refusals, shell text in templates, issue 31's classes, the agent programs) healed ONCE in this fresh process, with
 * no warm-up, and the p50 / p99 / max of those calls. Nothing else runs before it.
 */
if (process.argv.includes('--single-pass')) {
  const { readFileSync } = await import('node:fs');
  const fixture = (name) => new URL(`../tests/fixtures/${name}`, import.meta.url);
  const load = (name) => JSON.parse(readFileSync(fixture(name), 'utf8')).cases.map((entry) => entry.code);
  const agents = readFileSync(fixture('agent-programs.txt'), 'utf8')
    .split(/^\/\/\/\/ /m)
    .slice(1)
    .map((block) => block.slice(block.indexOf('\n') + 1));
  const corpus = [
    ...['valid.json', 'repairs.json', 'refusals.json', 'shell-in-templates.json', 'transport.json'].flatMap((name) => {
      try {
        return load(name);
      } catch {
        return []; // a build before issue 31 is measured on the same files; transport.json is new
      }
    }),
    ...agents,
  ];
  // The process's one-time costs (Node loads its type-strip WebAssembly on first use, V8 compiles Babel's parser
  // lazily: several hundred ms together under load) are paid once per host process, not per call: one call on a
  // program outside the corpus, timed and reported as `firstCall`, pays them before the pass.
  const warmStart = performance.now();
  healProgram("const x: number = 1;\nconst s = 'a\nb';\nreturn s + x;");
  const firstCall = performance.now() - warmStart;
  const samples = [];
  const uninterrupted = [];
  const slowest = [];
  for (const code of corpus) {
    const switches = process.resourceUsage().involuntaryContextSwitches;
    const start = performance.now();
    healProgram(code);
    const ms = performance.now() - start;
    samples.push(ms);
    if (process.resourceUsage().involuntaryContextSwitches === switches) uninterrupted.push(ms);
    slowest.push([ms, code]);
  }
  slowest.sort((left, right) => right[0] - left[0]);
  const at = (values, fraction) => {
    const sorted = [...values].sort((left, right) => left - right);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
  };
  console.log(
    JSON.stringify({
      node: process.version,
      backend: stripBackend(),
      dist: process.env.HEAL_DIST ?? 'dist',
      programs: corpus.length,
      p50: Number(at(samples, 0.5).toFixed(3)),
      p99: Number(at(samples, 0.99).toFixed(3)),
      max: Number(Math.max(...samples).toFixed(3)),
      firstCall: Number(firstCall.toFixed(3)),
      p99NotPreempted: Number(at(uninterrupted, 0.99).toFixed(3)),
      notPreempted: uninterrupted.length,
    }),
  );
  if (process.argv.includes('--slowest'))
    for (const [ms, code] of slowest.slice(0, 6)) console.log(ms.toFixed(2), JSON.stringify(code.slice(0, 90)));
  // `--rounds N`: N more passes over the same programs, each made new by a unique trailing comment (no compile cache):
  // the steady state once the code paths are compiled.
  const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]);
  if (process.argv.includes('--rounds') && rounds > 0) {
    const warm = [];
    const warmUninterrupted = [];
    for (let round = 0; round < rounds; round++) {
      for (const code of corpus) {
        const program = `${code}\n// round ${round} ${Math.random()}`;
        const switches = process.resourceUsage().involuntaryContextSwitches;
        const start = performance.now();
        healProgram(program);
        const ms = performance.now() - start;
        warm.push(ms);
        if (process.resourceUsage().involuntaryContextSwitches === switches) warmUninterrupted.push(ms);
      }
    }
    console.log(
      JSON.stringify({
        rounds,
        calls: warm.length,
        p50: Number(at(warm, 0.5).toFixed(3)),
        p99: Number(at(warm, 0.99).toFixed(3)),
        p99NotPreempted: Number(at(warmUninterrupted, 0.99).toFixed(3)),
        notPreempted: warmUninterrupted.length,
      }),
    );
  }
  process.exit(0);
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median milliseconds of `run(input + unique comment)` over `iterations` runs after a warm-up. */
function measure(input, run, iterations = 400) {
  for (let index = 0; index < Math.min(50, iterations); index++) run(`${input}\n// warm ${index}`);
  const samples = [];
  for (let index = 0; index < iterations; index++) {
    const program = `${input}\n// run ${index} ${Math.random()}`;
    const start = performance.now();
    run(program);
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** Median ms of one run over distinct inputs that cannot take a unique comment (fenced/broken tails). */
function measureEach(makeInput, run, iterations = 400) {
  for (let index = 0; index < Math.min(50, iterations); index++) run(makeInput(-index - 1));
  const samples = [];
  for (let index = 0; index < iterations; index++) {
    const program = makeInput(index);
    const start = performance.now();
    run(program);
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function twoKilobytes(lines) {
  let program = '';
  let index = 0;
  while (program.length < 2048) program += lines[index++ % lines.length].replaceAll('$N', String(index)) + '\n';
  return program;
}

const JS_LINES = [
  "const file$N = await tools.read({ file_path: '/work/app/src/module$N.ts' });",
  'console.log(file$N.totalLines, file$N.path);',
  "const hits$N = await tools.grep({ pattern: 'TODO\\\\($N\\\\)', path: '/work/app/src' });",
  'if (hits$N.matches?.length > 3) { console.log(`many TODOs in ${file$N.path}`); }',
];
const TS_LINES = [
  "const file$N: { totalLines: number; path: string } = await tools.read({ file_path: '/work/app/src/m$N.ts' }) as any;",
  'interface Row$N { path: string; line?: number }',
  'const rows$N: Row$N[] = [{ path: file$N.path }];',
  'console.log(rows$N.length satisfies number);',
];

const validJs = twoKilobytes(JS_LINES);
const validTs = twoKilobytes(TS_LINES);
const results = [];
const row = (name, ms, note = '') => results.push({ name, 'median ms': Number(ms.toFixed(4)), note });

/**
 * Medians of two functions measured interleaved on distinct inputs (A, B, A, B, …), so machine load and
 * JIT drift hit both equally; the ratio is what the valid-path target is about.
 */
function measurePair(input, runA, runB, iterations = 600) {
  for (let index = 0; index < 50; index++) {
    runA(`${input}\n// warm a ${index}`);
    runB(`${input}\n// warm b ${index}`);
  }
  const a = [];
  const b = [];
  for (let index = 0; index < iterations; index++) {
    const nonce = `${index} ${Math.random()}`;
    let start = performance.now();
    runA(`${input}\n// a ${nonce}`);
    a.push(performance.now() - start);
    start = performance.now();
    runB(`${input}\n// b ${nonce}`);
    b.push(performance.now() - start);
  }
  return [median(a), median(b)];
}

/**
 * The host's own compile where this Node has the host's strip (wrap, stripTypeScriptTypes, slice, strict
 * AsyncFunction: what the run_code worker does); on Node 20 the healer's own verdict stands in for it.
 */
const nodeStrip = globalThis.process?.getBuiltinModule?.('node:module')?.stripTypeScriptTypes;
const WRAP = 'async function __dsh_program__() {\n';
const hostCompile = nodeStrip
  ? (code) => {
      const wrapped = nodeStrip(WRAP + code + '\n}', { mode: 'strip' });
      new AsyncFunction(
        'tools',
        'ToolCallError',
        'console',
        "'use strict';\n" + wrapped.slice(WRAP.length, wrapped.length - 2),
      );
    }
  : (code) => compileVerdict(code);
const rawCompile = measure(
  validJs,
  (code) => new AsyncFunction('tools', 'ToolCallError', 'console', "'use strict';\n" + code),
);
const [compileOnly, healValid] = measurePair(validJs, hostCompile, (code) => healProgram(code));
row(
  'host compile, valid 2 KB JS',
  compileOnly,
  nodeStrip ? 'strip + strict AsyncFunction' : `healer verdict (${stripBackend()})`,
);
row('bare AsyncFunction compile, valid 2 KB JS', rawCompile, 'no strip step (floor)');
row('healProgram, valid 2 KB JS', healValid, `ratio to the host compile: ${(healValid / compileOnly).toFixed(2)}x`);
const [compileTs, healTs] = measurePair(validTs, hostCompile, (code) => healProgram(code));
row(
  'host compile, valid 2 KB TypeScript',
  compileTs,
  nodeStrip ? 'strip + strict AsyncFunction' : `healer verdict (${stripBackend()})`,
);
row('healProgram, valid 2 KB TypeScript', healTs, `ratio: ${(healTs / compileTs).toFixed(2)}x`);

const broken = {
  'markdown fence': (index) => '```js\n' + validJs + `// ${index}\n` + '```',
  'python triple quote': (index) => `const doc = """\nreport ${index}\n""";\n` + validJs,
  'stray backticks in a template': (index) =>
    "await tools.write({ file_path: '/w/a.md', content: `Run `pnpm test` now` });\n" + validJs + `// ${index}`,
  'raw newline in a string': (index) => `const msg = 'line one\nline two ${index}';\n` + validJs,
  // Indented, and cut after a statement that ends with `;`: the only kind of cut that is closed.
  'truncated tail (missing })': (index) =>
    `for (const n of [${index}]) {\n` + validJs.replace(/^/gm, '  ').trimEnd() + '\n  console.log(n);\n',
  'cut inside a string (refused)': (index) =>
    validJs + `await tools.bash({ command: 'rm -rf /srv/app/releases/${index}`,
};
for (const [name, make] of Object.entries(broken)) {
  const sample = healProgram(make(0));
  row(
    `healProgram, broken 2 KB: ${name}`,
    measureEach(make, (code) => healProgram(code)),
    sample.ok ? sample.repairs.map((repair) => repair.kind).join('+') : `ok:false ${sample.diagnostic?.kind}`,
  );
}

const pathological = {
  '200 backticks': 'const s = ' + '`'.repeat(200) + ';',
  '200 backticks with text': 'const s = `' + 'a `b` ${c '.repeat(20) + '`;',
  '10,000 backticks': 'const s = ' + '`'.repeat(10_000) + ';',
  '10,000 nested (': 'const x = ' + '('.repeat(10_000),
  '1 MB valid program': "await tools.read({ file_path: '/w/a.txt' });\n".repeat(22_000),
  '1 MB broken program': "await tools.read({ file_path: '/w/a.txt' });\n".repeat(22_000) + "const s = 'cut",
};
for (const [name, input] of Object.entries(pathological)) {
  const iterations = input.length > 100_000 ? 5 : 30;
  // A unique first line per run, so neither V8's compilation cache nor anything else can answer from memory.
  const ms = measureEach(
    (index) => `// run ${index} ${Math.random()}\n${input}`,
    (code) => healProgram(code),
    iterations,
  );
  row(`healProgram, pathological: ${name}`, ms, `${input.length} chars`);
}

// The distribution over the corpus (every valid and repair case of tests/fixtures, each run 30 times with a unique
// trailing comment): the per-call p50 / p99 / max that a session sees, not a median of one shape.
{
  const { readFileSync } = await import('node:fs');
  const load = (name) => JSON.parse(readFileSync(new URL(`../tests/fixtures/${name}`, import.meta.url), 'utf8')).cases;
  const corpus = [...load('valid.json'), ...load('repairs.json')].map((entry) => entry.code);
  for (const code of corpus) healProgram(`${code}\n// warm`);
  // Garbage-collection pauses during the run: a young-generation collection inside a call is what sets the p99
  // once fewer than 1 call in 100 has one (see the README's speed section).
  const { PerformanceObserver } = await import('node:perf_hooks');
  const pauses = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries().map((entry) => entry.duration)));
  observer.observe({ entryTypes: ['gc'] });
  const samples = [];
  // Calls during which the OS took the CPU away (an involuntary context switch): on a shared machine those measure
  // the neighbours, so the distribution is also given without them.
  const uninterrupted = [];
  for (let round = 0; round < 30; round++) {
    for (const code of corpus) {
      const program = `${code}\n// corpus ${round} ${Math.random()}`;
      const switches = process.resourceUsage().involuntaryContextSwitches;
      const start = performance.now();
      healProgram(program);
      const ms = performance.now() - start;
      samples.push(ms);
      if (process.resourceUsage().involuntaryContextSwitches === switches) uninterrupted.push(ms);
    }
  }
  const percentile = (values, fraction) => {
    values.sort((left, right) => left - right);
    return values[Math.min(values.length - 1, Math.floor(values.length * fraction))];
  };
  row('healProgram over the corpus: p50', percentile(samples, 0.5), `${corpus.length} programs x 30`);
  row('healProgram over the corpus: p99', percentile(samples, 0.99), 'goal < 2 ms');
  row('healProgram over the corpus: max', samples[samples.length - 1], '');
  row(
    'healProgram over the corpus: p99 of calls not preempted',
    percentile(uninterrupted, 0.99),
    `${uninterrupted.length} of ${samples.length} calls had no involuntary context switch`,
  );
  await new Promise((resolve) => setTimeout(resolve, 200)); // GC entries are delivered asynchronously
  observer.disconnect();
  row(
    'GC pauses during the corpus run: longest',
    pauses.length === 0 ? 0 : Math.max(...pauses),
    `${pauses.length} pauses in ${samples.length} calls (${((100 * pauses.length) / samples.length).toFixed(2)}%)`,
  );
}

console.log(`node ${process.version}, strip backend: ${stripBackend()}`);
console.table(results);
