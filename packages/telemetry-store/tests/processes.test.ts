/**
 * Real processes on real files: two writers sharing one database, a kill -9 loop, and a process that cannot write
 * its directory. The store is bundled from source with esbuild (with a `require` for secretlint's CommonJS
 * dependencies) so the children run exactly this code.
 */
import { execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTelemetryStore } from '../src/index.js';
import { parseLogText } from '../src/query.js';
import { loadSqlite } from '../src/sqlite.js';

const run = promisify(execFile);
const sourceEntry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
let work: string;
let writerScript: string;
let burstScript: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tn-telemetry-proc-'));
  chmodSync(work, 0o755); // readable by the unprivileged child of the read-only test
  const bundle = join(work, 'telemetry-store.mjs');
  await build({
    entryPoints: [sourceEntry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'silent',
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  writerScript = join(work, 'writer.mjs');
  // Records `count` calls (every third one an untouched success), flushing every `every` calls; prints each
  // committed total so the parent knows the lower bound of what a kill can leave.
  writeFileSync(
    writerScript,
    `import { createTelemetryStore } from ${JSON.stringify(bundle)};
const [dir, tag, count, every] = process.argv.slice(2);
const warnings = [];
const store = createTelemetryStore({ dir, flushIntervalMs: 5, warn: (m) => warnings.push(m) });
for (let i = 0; i < Number(count); i += 1) {
  const outcome = i % 3 === 2 ? 'passthrough' : 'healed-success';
  const repeat = i % 4 === 3 ? { repeat: 2 } : {};
  store.record({ tool: tag, category: 'C', outcome, ruleIds: ['r'], callId: tag + '-' + i, before: { code: tag.repeat(300) + i }, ...repeat });
  if (i % Number(every) === Number(every) - 1) {
    await store.flush();
    process.stdout.write('committed ' + (i + 1) + '\\n');
  }
}
await store.flush();
const calls = store.stats().totals.calls;
await store.close();
process.stdout.write(JSON.stringify({ warnings, logging: store.logging, calls }) + '\\n');
`,
  );
  burstScript = join(work, 'burst-writer.mjs');
  // Records bursts of 50 to 650 calls at once (more than one write step takes, and past a full queue of 400, so
  // counts, events and dropped events are in flight together), letting the store's own timer write them between
  // bursts; every fifth burst it waits for a flush and prints the committed total.
  writeFileSync(
    burstScript,
    `import { createTelemetryStore } from ${JSON.stringify(bundle)};
const [dir, tag] = process.argv.slice(2);
const store = createTelemetryStore({ dir, flushIntervalMs: 2, maxQueuedEvents: 400, warn: () => undefined });
let i = 0;
for (let burst = 0; ; burst += 1) {
  const size = 50 + Math.floor(Math.random() * 600);
  for (let n = 0; n < size; n += 1, i += 1) {
    const outcome = i % 3 === 2 ? 'passthrough' : i % 3 === 1 ? 'healed-failed' : 'healed-success';
    const repeat = i % 4 === 3 ? { repeat: 2 } : {};
    store.record({ tool: tag + (i % 5), category: 'C' + (i % 3), outcome, ruleIds: ['r'], callId: tag + '-' + i, tokensSaved: i % 7, before: { code: tag.repeat(200) + i }, ...repeat });
  }
  if (burst % 5 === 4) {
    await store.flush();
    process.stdout.write('committed ' + i + '\\n');
  } else await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 8)));
}
`,
  );
}, 60_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

async function statsOf(dir: string) {
  const store = createTelemetryStore({ dir, flushIntervalMs: 60_000, warn: () => undefined });
  const stats = store.stats();
  await store.close();
  // Rows counted straight from the file, not through the store (its page totals are capped at 10,000, and its
  // own row counter is what is under test).
  const { DatabaseSync } = loadSqlite();
  const db = new DatabaseSync(join(dir, 'tool-normalizer.sqlite'), { readOnly: true });
  const storedEvents = Number(db.prepare('SELECT count(*) AS n FROM events').get()?.['n']);
  db.close();
  expect(stats.storage.storedEvents).toBe(storedEvents);
  return { stats, storedEvents };
}

describe('two processes writing at once', () => {
  it('count exactly: every call of both is in the totals and every event in the database and the journal', async () => {
    const dir = join(work, 'shared');
    const count = 1500;
    const outputs = await Promise.all([
      run(process.execPath, [writerScript, dir, 'A', String(count), '5']),
      run(process.execPath, [writerScript, dir, 'B', String(count), '7']),
    ]);
    expect(outputs.map(writerReport)).toEqual([
      { warnings: [], logging: true },
      { warnings: [], logging: true },
    ]);
    const { stats, storedEvents } = await statsOf(dir);
    expect(stats.totals.calls).toBe(2 * count);
    expect(stats.totals.passThrough).toBe(2 * (count / 3));
    expect(stats.totals.repeatsCaught).toBe(2 * (count / 4));
    expect(stats.tools.map((row) => [row.name, row.calls]).sort()).toEqual([
      ['A', count],
      ['B', count],
    ]);
    expect(storedEvents).toBe(2 * count * (2 / 3));
    const journal = parseLogText(readJournal(dir));
    expect(journal.skipped).toBe(0);
    expect(journal.events).toHaveLength(2 * count * (2 / 3));
  }, 120_000);

  it('two processes that create the database at once both save (fresh folders, started together)', async () => {
    // One of them once took the other's half-made database for someone else's and stopped saving (checkOwner).
    for (let round = 0; round < 12; round += 1) {
      const dir = join(work, `fresh-${round}`);
      const outputs = await Promise.all(
        ['C', 'D'].map((tag) => run(process.execPath, [writerScript, dir, tag, '30', '5'])),
      );
      expect(outputs.map(writerReport)).toEqual([
        { warnings: [], logging: true },
        { warnings: [], logging: true },
      ]);
      expect((await statsOf(dir)).stats.totals.calls).toBe(60);
    }
  }, 120_000);
});

/** From the last line a writer prints: its warnings and whether it was saving at the end. */
function writerReport(output: { stdout: string }): unknown {
  const { warnings, logging } = JSON.parse(output.stdout.trim().split('\n').at(-1) as string);
  return { warnings, logging };
}

function readJournal(dir: string): string {
  return readFileSync(join(dir, 'tool-normalizer-events.jsonl'), 'utf8');
}

/** Waits until `child` prints its first `committed N` line (or exits), bounded; returns the last N it printed. */
function committedTotals(child: ReturnType<typeof spawn>): { first: Promise<void>; last: () => number } {
  let last = 0;
  const first = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const match of chunk.toString().matchAll(/committed (\d+)/g)) last = Number(match[1]);
      if (last > 0) resolve();
    });
    child.once('exit', () => resolve());
  });
  return { first, last: () => last };
}

describe('kill -9 at any instant', () => {
  it('after every boot each counted call is a stored event or declared (dropped, pruned), and no temporary files are left', async () => {
    const dir = join(work, 'killed');
    let acknowledged = 0;
    let recorded = 0;
    let declared = 0;
    for (let round = 0; round < 12; round += 1) {
      // two burst writers (counts, events and drops in flight together) and one that flushes every 3 calls
      const children = [
        spawn(process.execPath, [burstScript, dir, `K${round}`], { stdio: ['ignore', 'pipe', 'ignore'] }),
        spawn(process.execPath, [burstScript, dir, `L${round}`], { stdio: ['ignore', 'pipe', 'ignore'] }),
        spawn(process.execPath, [writerScript, dir, `M${round}`, '100000', '3'], {
          stdio: ['ignore', 'pipe', 'ignore'],
        }),
      ];
      const totals = children.map(committedTotals);
      const exits = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
      // Each writer is killed at its own random instant while writing: after it has committed once (a child's start
      // takes from 0.1 s on a quiet machine to several seconds on a loaded one; bounded at 60 s), then 0-500 ms on.
      const deadline = new Promise((resolve) => setTimeout(resolve, 60_000));
      await Promise.all(
        children.map(async (child, index) => {
          await Promise.race([totals[index]?.first, deadline]);
          await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 500)));
          child.kill('SIGKILL');
          await exits[index];
        }),
      );
      const committed = totals.reduce((sum, total) => sum + total.last(), 0);
      recorded += committed;
      const { stats, storedEvents } = await statsOf(dir);
      // counted = on disk + declared: every counted call that keeps an event (all but untouched successes) is a
      // stored row, or was declared dropped, or was pruned by retention
      const withEvents = stats.totals.calls - stats.totals.passThrough;
      expect({ round, withEvents }).toEqual({
        round,
        withEvents: storedEvents + stats.storage.dropped + stats.storage.prunedEvents,
      });
      expect(stats.totals.calls).toBeGreaterThanOrEqual(acknowledged + committed);
      acknowledged = stats.totals.calls; // what a kill left is the new floor
      declared = stats.storage.dropped;
    }
    expect(recorded).toBeGreaterThan(0);
    // the bursts overflowed the queue of 400 (bursts of up to 650): the dropped path was exercised too
    expect(declared).toBeGreaterThan(0);
    const leftovers = readdirSync(dir).filter(
      (name) => !/^tool-normalizer(\.sqlite(-wal|-shm)?|-events\.jsonl)$/.test(name),
    );
    expect(leftovers).toEqual([]);
  }, 900_000);
});

describe('a directory the process may not write', () => {
  it('counts in memory with one warning', async () => {
    const dir = join(work, 'read-only');
    mkdirSync(dir);
    chmodSync(dir, 0o555);
    // root ignores permission bits, so as root the child runs as the unprivileged `nobody` user.
    const asRoot = process.getuid?.() === 0;
    // `nobody` may not reach this Node where it lives (a checkout inside a 0700 folder): run a copy from the test's
    // own world-readable folder, with that folder as the working directory.
    const node = asRoot ? join(work, 'node') : process.execPath;
    if (asRoot) copyFileSync(process.execPath, node);
    const { stdout } = await run(
      node,
      [writerScript, dir, 'R', '12', '4'],
      asRoot ? { uid: 65534, gid: 65534, cwd: work } : {},
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1) as string) as {
      warnings: string[];
      logging: boolean;
      calls: number;
    };
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/counting continues in memory/);
    expect(result.logging).toBe(false);
    expect(result.calls).toBe(12);
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);
});

/** A child that records `count` calls, then `close`s, or exits gracefully without close (`exit`). */
function lifecycleScript(): string {
  const script = join(work, 'lifecycle.mjs');
  writeFileSync(
    script,
    `import { createTelemetryStore } from ${JSON.stringify(join(work, 'telemetry-store.mjs'))};
const [dir, tag, count, busyTimeoutMs, ending] = process.argv.slice(2);
const warnings = [];
const store = createTelemetryStore({ dir, busyTimeoutMs: Number(busyTimeoutMs), flushIntervalMs: 5, warn: (m) => warnings.push(m) });
process.stdout.write('opened\\n');
for (let i = 0; i < Number(count); i += 1) {
  store.record({ tool: tag, category: 'C', outcome: 'healed-success', ruleIds: ['r'], callId: tag + '-' + i, before: { i } });
  if (i % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 1));
}
process.stdout.write('recorded\\n');
if (ending === 'exit') process.exit(0);
if (ending === 'wait') await new Promise((resolve) => process.stdin.once('data', resolve));
await store.close();
process.stdout.write(JSON.stringify({ warnings, logging: store.logging }) + '\\n');
`,
  );
  return script;
}

describe('a database another process holds locked', () => {
  it('at start: the store opens without waiting, keeps counting, and saves everything once the lock is gone', async () => {
    const dir = join(work, 'locked-at-start');
    await statsOf(dir); // creates the database
    const { DatabaseSync } = loadSqlite();
    const holder = new DatabaseSync(join(dir, 'tool-normalizer.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    holder.exec('CREATE TABLE IF NOT EXISTS held (x)');
    const child = spawn(process.execPath, [lifecycleScript(), dir, 'L', '200', '1000', 'wait'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    // The child opened and recorded every call while the lock was still held (nothing in it waited for the lock).
    await expect.poll(() => output, { timeout: 30_000 }).toContain('recorded');
    await new Promise((resolve) => setTimeout(resolve, 100)); // a few writer cycles find the file still locked
    holder.exec('ROLLBACK');
    holder.close();
    child.stdin.end('go\n');
    await new Promise((resolve) => child.once('exit', resolve));
    const result = JSON.parse(output.trim().split('\n').at(-1) as string) as { warnings: string[]; logging: boolean };
    expect(result).toEqual({ warnings: [], logging: true });
    const { stats, storedEvents } = await statsOf(dir);
    expect(stats.totals.calls).toBe(200);
    expect(storedEvents).toBe(200);
  }, 60_000);

  it('three processes starting together with a 1 ms busy timeout lose no count', async () => {
    const dir = join(work, 'three-at-once');
    const script = lifecycleScript();
    await Promise.all(['X', 'Y', 'Z'].map((tag) => run(process.execPath, [script, dir, tag, '400', '1', 'close'])));
    const { stats } = await statsOf(dir);
    expect(stats.totals.calls).toBe(1200);
    expect(stats.tools.map((row) => [row.name, row.calls]).sort()).toEqual([
      ['X', 400],
      ['Y', 400],
      ['Z', 400],
    ]);
  }, 60_000);
});

describe('a graceful exit without close()', () => {
  it('saves the counts of every recorded call (their events, not secret-scanned yet, count as dropped)', async () => {
    const dir = join(work, 'exit-without-close');
    await run(process.execPath, [lifecycleScript(), dir, 'E', '100', '1000', 'exit']);
    const { stats, storedEvents } = await statsOf(dir);
    expect(stats.totals.calls).toBe(100);
    expect(stats.tools.map((row) => [row.name, row.calls])).toEqual([['E', 100]]);
    expect(storedEvents + stats.storage.dropped).toBe(100);
  }, 60_000);

  it('does not keep an exit listener for a closed store (no leak across reloads)', async () => {
    const before = process.listenerCount('exit');
    for (let i = 0; i < 20; i += 1) {
      const store = createTelemetryStore({ dir: join(work, 'reloads'), warn: () => undefined });
      store.record({ tool: 't', category: 'C', outcome: 'healed-success', ruleIds: [] });
      await store.close();
    }
    expect(process.listenerCount('exit')).toBe(before);
    expect((await statsOf(join(work, 'reloads'))).stats.totals.calls).toBe(20);
  }, 60_000);
});
