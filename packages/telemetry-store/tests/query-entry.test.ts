/**
 * The `./query` entry must stay browser-safe: it bundles for the browser with no `node:` import, and it loads
 * and works where there is no DOM at all.
 *
 * @vitest-environment node
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as query from '../src/query.js';

const queryEntry = fileURLToPath(new URL('../src/query.ts', import.meta.url));

async function browserBundle(): Promise<{ text: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [queryEntry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { text: result.outputFiles[0]?.text ?? '', inputs: Object.keys(result.metafile.inputs) };
}

describe('@dsh-tool-normalizer/telemetry-store/query', () => {
  it('bundles for the browser without any node: import', async () => {
    const { text, inputs } = await browserBundle();
    expect(text.length).toBeGreaterThan(1000);
    expect(text).not.toMatch(/["']node:/);
    expect(inputs.some((input) => input.startsWith('node:'))).toBe(false);
    expect(inputs.some((input) => input.endsWith('store.ts') || input.endsWith('log-file.ts'))).toBe(false);
  });

  it('the browser bundle loads and computes stats in a bare node process with no DOM', async () => {
    const { text } = await browserBundle();
    const dir = mkdtempSync(join(tmpdir(), 'tn-query-'));
    try {
      const bundle = join(dir, 'query.mjs');
      writeFileSync(bundle, text);
      const script = `const q = await import(${JSON.stringify(bundle)});
const counters = new q.Counters(0);
counters.add('bash', 'EXEC_FAILED', 'healed-success', 7);
const stats = q.computeStats({ counters, recent: [], now: 1, storage: { logging: false, persistPassthrough: false, rejectedInputs: 0, skippedLines: 0, dropped: 0, prunedEvents: 0, storedEvents: 0 } });
console.log(JSON.stringify({ dom: typeof document, valid: q.statsPayloadValidator.Check(stats), rate: stats.rates.healingSuccessRate, redacted: q.redact('token=abc') }));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
      expect(JSON.parse(stdout)).toEqual({ dom: 'undefined', valid: true, rate: 1, redacted: 'token=[REDACTED]' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('imports under vitest environment node, with no DOM globals', () => {
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    expect(typeof query.computeStats).toBe('function');
    expect(query.Counters).toBeDefined();
    expect('createTelemetryStore' in query).toBe(false);
  });
});
