/**
 * Real processes: two `node` processes appending to one log at once, and a process that cannot write its
 * directory. The store is bundled from source with esbuild so the children run exactly this code.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTelemetryEvent, parseLogText } from '../src/query.js';

const run = promisify(execFile);
const sourceEntry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
let work: string;
let writerScript: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tn-telemetry-proc-'));
  chmodSync(work, 0o755); // readable by the unprivileged child of the read-only test
  const bundle = join(work, 'telemetry-store.mjs');
  await build({ entryPoints: [sourceEntry], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' });
  writerScript = join(work, 'writer.mjs');
  writeFileSync(
    writerScript,
    `import { createTelemetryStore } from ${JSON.stringify(bundle)};
const [dir, tag, count] = process.argv.slice(2);
const warnings = [];
const store = createTelemetryStore({ dir, maxLogBytes: 64 * 1024 * 1024, flushIntervalMs: 0, warn: (m) => warnings.push(m) });
for (let i = 0; i < Number(count); i += 1) {
  store.record({ tool: tag, category: 'C', outcome: 'healed-success', ruleIds: ['r'], callId: tag + '-' + i, before: { code: tag.repeat(300) + i } });
  if (i % 5 === 4) await store.flush();
}
await store.close();
process.stdout.write(JSON.stringify({ warnings, logging: store.logging, calls: store.stats().totals.calls }));
`,
  );
}, 60_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('two processes appending at once', () => {
  it('never interleaves their lines and loses none', async () => {
    const dir = join(work, 'shared');
    const count = 1500;
    await Promise.all([run(process.execPath, [writerScript, dir, 'A', String(count)]), run(process.execPath, [writerScript, dir, 'B', String(count)])]);
    const text = readFileSync(join(dir, 'tool-normalizer-events.jsonl'), 'utf8');
    const parsed = parseLogText(text);
    expect(parsed.skipped).toBe(0);
    expect(parsed.events).toHaveLength(2 * count);
    expect(parsed.events.every(isTelemetryEvent)).toBe(true);
    for (const tag of ['A', 'B']) {
      const ids = parsed.events.filter((event) => event.tool === tag).map((event) => event.callId);
      expect(ids).toEqual(Array.from({ length: count }, (_, i) => `${tag}-${i}`));
    }
    const summary = JSON.parse(readFileSync(join(dir, 'tool-normalizer-summary.json'), 'utf8'));
    // Each process merges its own increments into the shared summary; a merge can race, never double-count.
    expect(summary.totals.calls).toBeLessThanOrEqual(2 * count);
    expect(summary.totals.calls).toBeGreaterThanOrEqual(count);
  }, 60_000);
});

describe('a directory the process may not write', () => {
  it('turns logging off with one warning while counting continues', async () => {
    const dir = join(work, 'read-only');
    mkdirSync(dir);
    chmodSync(dir, 0o555);
    // root ignores permission bits, so as root the child runs as the unprivileged `nobody` user.
    const asRoot = process.getuid?.() === 0;
    const { stdout } = await run(process.execPath, [writerScript, dir, 'R', '12'], asRoot ? { uid: 65534, gid: 65534 } : {});
    const result = JSON.parse(stdout) as { warnings: string[]; logging: boolean; calls: number };
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/logging turned off.*(EACCES|EPERM|EROFS)/);
    expect(result.logging).toBe(false);
    expect(result.calls).toBe(12);
    expect(existsSync(join(dir, 'tool-normalizer-events.jsonl'))).toBe(false);
  }, 60_000);
});
