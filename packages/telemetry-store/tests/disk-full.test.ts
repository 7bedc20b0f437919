/**
 * A full disk and back, on a real 2 MB tmpfs mounted for the test (needs root and mount(8); skipped with the
 * reason otherwise): the store keeps counting in memory with one warning per episode, shows the episode in the stats,
 * returns to the file when space comes back and saves what it kept meanwhile (bounded by maxQueuedEvents).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healed, openStore } from './helpers.js';

let mountPoint = '';
let skipReason = '';
beforeAll(() => {
  mountPoint = mkdtempSync(join(tmpdir(), 'tn-small-fs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint], { stdio: 'pipe' });
  } catch (error) {
    skipReason = `cannot mount a 2 MB tmpfs here (${String((error as Error).message).split('\n')[0]})`;
  }
});
afterAll(() => {
  if (!skipReason) execFileSync('umount', [mountPoint], { stdio: 'pipe' });
  rmdirSync(mountPoint);
});

/** Fills the file system with a filler file until it is full; returns the filler's path. */
function fill(dir: string): string {
  const filler = join(dir, 'filler');
  const chunk = Buffer.alloc(64 * 1024, 1);
  rmSync(filler, { force: true });
  for (;;) {
    try {
      writeFileSync(filler, chunk, { flag: 'a' });
    } catch {
      // ENOSPC: write what still fits in smaller pieces, then stop
      for (let size = 32 * 1024; size >= 512; size /= 2) {
        try {
          writeFileSync(filler, chunk.subarray(0, size), { flag: 'a' });
        } catch {
          // this piece did not fit
        }
      }
      return filler;
    }
  }
}

const failing = (i: number) =>
  healed('bash', { outcome: 'healed-failed', error: `exit ${i}`, before: { command: `run ${i}` } });

describe('a full disk', () => {
  it('counts in memory with one warning per episode, shows it in the stats, and saves everything when space returns', async (context) => {
    if (skipReason) {
      context.skip(skipReason);
      return;
    }
    const dir = join(mountPoint, 'home');
    const { store, warnings } = openStore({ dir, maxQueuedEvents: 1000 });
    let recorded = 0;
    const record = (n: number) => {
      for (let i = 0; i < n; i += 1) store.record(failing(recorded++));
    };
    record(20);
    await store.flush();
    expect(store.stats().storage.memoryOnly).toBe(false);

    const filler = fill(mountPoint);
    record(150);
    await store.flush();
    let stats = store.stats();
    expect(stats.storage).toMatchObject({ logging: false, memoryOnly: true, writeEpisodes: 1 });
    expect(stats.storage.lastWriteError).toMatch(/full|ENOSPC/i);
    expect(stats.totals.calls).toBe(recorded); // counting continues in memory
    record(100);
    await store.flush();
    const databaseWarnings = () => warnings.filter((w) => /not saved for now/.test(w));
    expect(databaseWarnings()).toHaveLength(1);

    rmSync(filler);
    record(10);
    // the file is tried again after 1 s, 2 s, 4 s ... (a try while the disk was still full doubles the delay)
    for (let waited = 0; store.stats().storage.memoryOnly && waited < 20_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await store.flush();
    }
    stats = store.stats();
    expect(stats.storage).toMatchObject({ logging: true, memoryOnly: false, writeEpisodes: 1, unsavedEvents: 0 });
    expect(stats.totals.calls).toBe(recorded);

    // a second episode warns again
    const again = fill(mountPoint);
    record(150);
    await store.flush();
    expect(store.stats().storage).toMatchObject({ memoryOnly: true, writeEpisodes: 2 });
    expect(databaseWarnings()).toHaveLength(2);
    rmSync(again);
    await store.close(); // close tries the file once more and saves the backlog
    expect(store.logging).toBe(true);

    // a fresh boot reads every call and every event from the file
    const { store: fresh, warnings: freshWarnings } = openStore({ dir });
    const saved = fresh.stats();
    expect(freshWarnings).toEqual([]);
    expect(saved.totals.calls).toBe(recorded);
    expect(saved.storage.storedEvents).toBe(recorded);
    await fresh.close();
  }, 60_000);
});

describe('files that cannot be made private', () => {
  it('warns once naming them (a read-only file system), and counting goes on in memory', async (context) => {
    if (skipReason) {
      context.skip(skipReason);
      return;
    }
    const dir = join(mountPoint, 'readonly-home');
    mkdirSync(dir, { recursive: true });
    const first = openStore({ dir }).store;
    first.record(healed('edit'));
    await first.close();
    for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o644);
    execFileSync('mount', ['-o', 'remount,ro', mountPoint], { stdio: 'pipe' });
    try {
      const { store, warnings } = openStore({ dir });
      store.record(healed('edit'));
      const stats = store.stats();
      expect(warnings.filter((w) => /could not be made private/.test(w))).toHaveLength(1);
      expect(warnings.find((w) => /could not be made private/.test(w))).toMatch(/tool-normalizer\.sqlite \(EROFS\)/);
      expect(stats.storage.memoryOnly).toBe(true);
      await store.flush();
      expect(store.stats().totals.calls).toBeGreaterThanOrEqual(1);
      await store.close();
      expect(warnings.filter((w) => /could not be made private/.test(w))).toHaveLength(1);
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mountPoint], { stdio: 'pipe' });
    }
    expect(statSync(join(dir, 'tool-normalizer.sqlite')).mode & 0o777).toBe(0o644);
  }, 60_000);
});
