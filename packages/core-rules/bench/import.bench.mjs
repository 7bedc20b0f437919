/**
 * What importing core-rules costs a Node process: wall and CPU time of `import()` (CPU time is the steadier figure on a
 * loaded machine), RSS and heap after it, whether Babel's
 * parser is loaded, and the first run_code program's extra cost (where the healer now loads). Each sample is a fresh
 * process. Usage: node bench/import.bench.mjs [path to core-rules' dist/index.js] [samples]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const entry = process.argv[2] ?? fileURLToPath(new URL('../dist/index.js', import.meta.url));
const samples = Number(process.argv[3] ?? 15);

const child = `
import { createRequire } from 'node:module';
const before = process.memoryUsage();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const engine = await import(${JSON.stringify(pathToFileURL(entry).href)});
const importMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const importCpuMs = (cpu.user + cpu.system) / 1000;
const after = process.memoryUsage();
const babel = Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes('@babel/parser'));
const runCode = { name: 'run_code', parameters: { type: 'object', properties: { code: { type: 'string' }, description: { type: 'string' } }, required: ['code', 'description'] } };
const t1 = performance.now();
engine.normalizeCall({ name: 'run_code', arguments: { code: 'return 1', description: 'One' } }, { tools: [runCode], mode: 'code' });
const firstProgramMs = performance.now() - t1;
const end = process.memoryUsage();
console.log(JSON.stringify({ importMs, importCpuMs, rssMB: after.rss / 2 ** 20, heapMB: (after.heapUsed - before.heapUsed) / 2 ** 20, babel, firstProgramMs, rssAfterProgramMB: end.rss / 2 ** 20 }));
`;

const runs = [];
for (let i = 0; i < samples; i++)
  runs.push(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', child], { encoding: 'utf8' })));
const median = (key) => {
  const values = runs.map((run) => run[key]).sort((a, b) => a - b);
  return Number(values[Math.floor(values.length / 2)].toFixed(1));
};
console.log(
  JSON.stringify({
    entry,
    node: process.version,
    samples,
    babelLoadedAtImport: runs[0].babel,
    importMs: median('importMs'),
    importCpuMs: median('importCpuMs'),
    rssMB: median('rssMB'),
    heapDeltaMB: median('heapMB'),
    firstProgramMs: median('firstProgramMs'),
    rssAfterProgramMB: median('rssAfterProgramMB'),
  }),
);
