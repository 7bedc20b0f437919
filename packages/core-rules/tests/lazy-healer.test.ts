/**
 * Importing core-rules in Node does not load the syntax healer or Babel's parser; healing a native call does not
 * either; the first run_code program does, synchronously (healer.ts). Proven in a fresh Node process on core-rules'
 * sources bundled by esbuild with every package external (so `@dsh-tool-normalizer/syntax-healer` and
 * `@babel/parser` are real installed packages, loaded the way a Node user's process loads them).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the package, so the bundle resolves core-rules' own dependencies.
const dir = mkdtempSync(join(root, '.lazy-healer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const probe = `
import { createRequire } from 'node:module';
const cache = () => Object.keys(createRequire(import.meta.url).cache);
const babel = () => cache().some((file) => file.includes('@babel/parser'));
const healer = () => cache().some((file) => file.includes('syntax-healer'));
const engine = await import('./core-rules.mjs');
const seen = { afterImport: { babel: babel(), healer: healer(), loaded: engine.healerLoaded() } };
const bash = { name: 'bash', parameters: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command', 'description'] } };
const runCode = { name: 'run_code', parameters: { type: 'object', properties: { code: { type: 'string' }, description: { type: 'string' } }, required: ['code', 'description'] } };
engine.normalizeCall({ name: 'bash', arguments: '{"cmd": "ls"}' }, { tools: [bash], mode: 'native' });
seen.afterNativeCall = { babel: babel(), loaded: engine.healerLoaded() };
const healed = engine.normalizeCall({ name: 'run_code', arguments: { code: '\`\`\`js\\nreturn 1 + 1;\\n\`\`\`', description: 'Add' } }, { tools: [runCode], mode: 'code' });
seen.afterProgram = { babel: babel(), loaded: engine.healerLoaded(), code: healed.call.arguments.code };
console.log(JSON.stringify(seen));
`;

it('loads Babel only when a program is healed, and heals it synchronously', async () => {
  await build({
    entryPoints: [join(root, 'src/index.ts')],
    outfile: join(dir, 'core-rules.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
  });
  writeFileSync(join(dir, 'probe.mjs'), probe);
  const out = JSON.parse(execFileSync(process.execPath, [join(dir, 'probe.mjs')], { encoding: 'utf8' }));
  expect(out.afterImport).toEqual({ babel: false, healer: false, loaded: false });
  expect(out.afterNativeCall).toEqual({ babel: false, loaded: false });
  expect(out.afterProgram).toEqual({ babel: true, loaded: true, code: 'return 1 + 1;' });
}, 60_000);
