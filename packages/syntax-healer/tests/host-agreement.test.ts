/**
 * Both compile paths agree on every corpus program. The REAL host step (node:module.stripTypeScriptTypes +
 * strict AsyncFunction, tests/host-oracle.mjs) runs in a Node >= 22.15 child provisioned by
 * scripts/ensure-node22.sh; this process runs compilesLikeHost on the Babel path (and, on a Node that has
 * strip, on both). Every verdict must match, and every healed program must compile in the real host.
 * Finally the whole healer, bundled from src, runs in that child on the node-strip-types backend and must
 * return exactly what it returns here on every corpus program, and its fast path (plain strict JavaScript, taken
 * when nothing in the text looks like TypeScript) must agree with the real host wherever it answers.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HEAVY_TEST_TIMEOUT_MS } from './timeouts.js';
import { compilesLikeHost, healProgram } from '../src/index.js';
import { setStripBackendForTesting } from '../src/host-compile.js';
import { allPrograms, runtimeDependentPrograms } from './corpus.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const oracle = fileURLToPath(new URL('./host-oracle.mjs', import.meta.url));
const healRunner = fileURLToPath(new URL('./heal-on-host-node.mjs', import.meta.url));
const healerEntry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const hostCompileEntry = fileURLToPath(new URL('../src/host-compile.ts', import.meta.url));

/** Path of a Node >= 22.15 binary, or the reason there is none. */
function findHostNode(): { node: string } | { reason: string } {
  const script = `${repoRoot}scripts/ensure-node22.sh`;
  if (!existsSync(script)) return { reason: `${script} not found` };
  try {
    const output = execFileSync('bash', [script], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    const node = output.trim().split('\n').at(-1)?.trim() ?? '';
    if (!node || !existsSync(node))
      return { reason: `ensure-node22.sh printed no usable binary (${JSON.stringify(node)})` };
    const version = execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    const [major = 0, minor = 0] = version.split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 15))
      return { reason: `ensure-node22.sh gave Node ${version}, need >= 22.15` };
    return { node };
  } catch (error) {
    return {
      reason: `ensure-node22.sh failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    };
  }
}

const hostNode = findHostNode();
/** Every corpus program and its healed form, minus those whose verdict depends on the V8 version (see compile-edges.json). */
const programs = [...new Set([...allPrograms(), ...allPrograms().map((code) => healProgram(code).code)])].filter(
  (code) => !runtimeDependentPrograms.has(code),
);

function realHostVerdicts(node: string, inputs: string[]): { ok: boolean; message?: string }[] {
  const output = execFileSync(node, ['--no-warnings', oracle], {
    input: JSON.stringify(inputs),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(output) as { verdicts: { ok: boolean; message?: string }[] }).verdicts;
}

afterAll(() => setStripBackendForTesting(undefined));

describe.skipIf(!('node' in hostNode))('agreement with the real host compile step (Node >= 22.15 child)', () => {
  const real = 'node' in hostNode ? realHostVerdicts(hostNode.node, programs) : [];

  it.each(programs.map((code, index) => [index, code] as const))(
    'corpus program #%i: Babel path == real host',
    (index, code) => {
      setStripBackendForTesting('babel-erase');
      const ours = compilesLikeHost(code);
      setStripBackendForTesting(undefined);
      expect({ ok: ours.ok, code }).toEqual({ ok: real[index]!.ok, code });
    },
  );

  it(
    'every healed corpus program compiles in the real host',
    () => {
      const healed = allPrograms()
        .map((code) => healProgram(code))
        .filter((result) => result.ok)
        .map((result) => result.code);
      const verdicts = realHostVerdicts((hostNode as { node: string }).node, healed);
      expect(verdicts.filter((verdict) => !verdict.ok)).toEqual([]);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it(
    'the real host rejects exactly what the corpus says the captures did',
    () => {
      const verdicts = realHostVerdicts((hostNode as { node: string }).node, [
        'const x: number = 41; return x + 1;',
        'const doc = """\nmulti-line\n""";\nreturn doc;',
        'enum Color { Red }\nreturn Color.Red;',
      ]);
      expect(verdicts).toEqual([
        { ok: true },
        { ok: false, message: "Expected ';', '}' or <eof>" },
        { ok: false, message: 'TypeScript enum is not supported in strip-only mode' },
      ]);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});

describe.skipIf(!('node' in hostNode))('the whole healer on the real strip backend (Node >= 22.15 child)', () => {
  it(
    'returns the same HealResult for every corpus program as on this process',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'syntax-healer-'));
      try {
        const bundle = join(dir, 'healer.mjs');
        // The public entry plus the fast-path verdict (a test export of host-compile.ts, not part of the public API).
        const entry = `export * from ${JSON.stringify(healerEntry)};\nexport { plainJavaScriptVerdict } from ${JSON.stringify(hostCompileEntry)};`;
        const output = await build({
          stdin: { contents: entry, resolveDir: dir, loader: 'ts' },
          bundle: true,
          format: 'esm',
          platform: 'neutral',
          mainFields: ['module', 'main'],
          write: false,
          logLevel: 'silent',
        });
        writeFileSync(bundle, output.outputFiles[0]!.text);
        const inputs = allPrograms();
        const stdout = execFileSync((hostNode as { node: string }).node, ['--no-warnings', healRunner, bundle], {
          input: JSON.stringify(inputs),
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        });
        const child = JSON.parse(stdout) as { backend: string; results: unknown[]; fast: ({ ok: true } | null)[] };
        expect(child.backend).toBe('node-strip-types');
        // The fast path answers only "compiles", and only where the real host says so too.
        const real = realHostVerdicts((hostNode as { node: string }).node, inputs);
        const fastAnswers = inputs.filter((_, index) => child.fast[index] !== null);
        const disagreements = inputs.filter((_, index) => child.fast[index] !== null && !real[index]!.ok);
        expect(disagreements).toEqual([]);
        expect(fastAnswers.length).toBeGreaterThan(50);
        inputs.forEach((code, index) => {
          const childResult = child.results[index] as { diagnostic?: { message?: string } };
          const local = healProgram(code);
          if (runtimeDependentPrograms.has(code)) return;
          // Messages may differ (swc vs Babel wording); everything else must be identical.
          const strip = (result: { diagnostic?: { message?: string } }) =>
            result.diagnostic ? { ...result, diagnostic: { ...result.diagnostic, message: undefined } } : result;
          expect({ code, result: strip(childResult) }).toEqual({ code, result: strip(local) });
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});

it.runIf(!('node' in hostNode))('agreement test skipped: no Node >= 22.15 available', () => {
  console.warn(`[syntax-healer] host agreement test skipped: ${'reason' in hostNode ? hostNode.reason : ''}`);
  expect('reason' in hostNode).toBe(true);
});
