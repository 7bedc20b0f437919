/**
 * Redaction benchmark (figures are reported, never asserted in tests). Bundles the shared rules
 * (core-rules/secrets), the secretlint layer and the crafted worst-case shapes from source with esbuild, then
 * prints: for every rule its slowest crafted shape at 64 KiB and at 1 MiB; the whole own layer (`redact`) on a
 * realistic 64 KiB tool-call text and on its slowest crafted shape; and secretlint (`scanSecrets`) per 64 KiB.
 * Run on Node >= 22.13: `node packages/telemetry-store/bench/redact.bench.mjs`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// Inside the package's node_modules, so the bundle resolves secretlint (kept external) like the package does.
const work = mkdtempSync(fileURLToPath(new URL('../node_modules/.tn-redact-bench-', import.meta.url)));
await build({
  entryPoints: {
    secrets: fileURLToPath(new URL('../../core-rules/src/secrets.ts', import.meta.url)),
    scan: fileURLToPath(new URL('../src/secret-scan.ts', import.meta.url)),
    shapes: fileURLToPath(new URL('../tests/adversarial-shapes.ts', import.meta.url)),
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  outdir: work,
  outExtension: { '.js': '.mjs' },
  conditions: ['@dsh-tool-normalizer/source'],
  external: ['@secretlint/*'],
  logLevel: 'silent',
});
const { RULES, applyRule, redact } = await import(join(work, 'secrets.mjs'));
const { scanSecrets } = await import(join(work, 'scan.mjs'));
const { ADVERSARIAL_SHAPES } = await import(join(work, 'shapes.mjs'));

const KIB64 = 64 * 1024;
const MIB = 1024 * 1024;
/** Best of `n` runs (the machine is shared; the minimum is the least disturbed figure). */
function best(fn, n = 3) {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i += 1) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}
async function bestAsync(fn, n = 3) {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i += 1) {
    const start = performance.now();
    await fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

const texts64 = ADVERSARIAL_SHAPES.map((shape) => ({ name: shape.name, text: shape.make(KIB64) }));
const texts1m = ADVERSARIAL_SHAPES.map((shape) => ({ name: shape.name, text: shape.make(MIB) }));

console.log(`per rule: slowest of ${ADVERSARIAL_SHAPES.length} crafted shapes (ms, best of 3)`);
console.log(`${'rule'.padEnd(24)} ${'64 KiB'.padStart(8)} ${'1 MiB'.padStart(8)}  shape (64 KiB / 1 MiB)`);
for (const rule of RULES) {
  let worst64 = { ms: 0, name: '' };
  for (const { name, text } of texts64) {
    const ms = best(() => applyRule(rule, text), 2);
    if (ms > worst64.ms) worst64 = { ms, name };
  }
  let worst1m = { ms: 0, name: '' };
  for (const { name, text } of texts1m) {
    const ms = best(() => applyRule(rule, text), 1);
    if (ms > worst1m.ms) worst1m = { ms, name };
  }
  console.log(
    `${rule.name.padEnd(24)} ${worst64.ms.toFixed(2).padStart(8)} ${worst1m.ms.toFixed(1).padStart(8)}  ${worst64.name} / ${worst1m.name}`,
  );
}

const call = JSON.stringify({
  command: 'cd /repo && npm test -- --grep "password field" && git status --short',
  code: 'const file = await tools.read({ file_path: "src/config.ts" });\nif (!file.ok) throw new Error(file.error);\n'.repeat(
    20,
  ),
});
const realistic = `${call}\n`.repeat(Math.ceil(KIB64 / call.length)).slice(0, KIB64);
console.log(`\nredact() on a realistic 64 KiB tool-call text: ${best(() => redact(realistic), 7).toFixed(2)} ms`);
let worstWhole = { ms: 0, name: '' };
let worstWhole1m = { ms: 0, name: '' };
for (const { name, text } of texts64) {
  const ms = best(() => redact(text), 2);
  if (ms > worstWhole.ms) worstWhole = { ms, name };
}
for (const { name, text } of texts1m) {
  const ms = best(() => redact(text), 1);
  if (ms > worstWhole1m.ms) worstWhole1m = { ms, name };
}
console.log(
  `redact() slowest crafted shape: 64 KiB ${worstWhole.ms.toFixed(1)} ms (${worstWhole.name}), 1 MiB ${worstWhole1m.ms.toFixed(0)} ms (${worstWhole1m.name})`,
);

await scanSecrets(['warm up']);
console.log(
  `\nscanSecrets() on the realistic 64 KiB text: ${(await bestAsync(() => scanSecrets([realistic]))).toFixed(1)} ms`,
);
let worstScan = { ms: 0, name: '' };
for (const { name, text } of texts64) {
  const ms = await bestAsync(() => scanSecrets([text]), 1);
  if (ms > worstScan.ms) worstScan = { ms, name };
}
console.log(`scanSecrets() slowest crafted 64 KiB shape: ${worstScan.ms.toFixed(1)} ms (${worstScan.name})`);
const eventTexts = [
  'call_1',
  'deepseek-chat',
  realistic.slice(0, 8000),
  realistic.slice(0, 8000),
  'Error: x',
  'r1',
  'c1',
];
console.log(
  `scanSecrets() on one event's 7 texts (2 x 8 KB + 5 short): ${(await bestAsync(() => scanSecrets(eventTexts), 5)).toFixed(1)} ms`,
);
rmSync(work, { recursive: true, force: true });
