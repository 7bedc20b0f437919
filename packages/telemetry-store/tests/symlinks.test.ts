/**
 * The store touches only regular files it owns: for every file name it uses (the journal, the database, `-wal`,
 * `-shm`, `-journal`, a `.corrupt-*` copy with its WAL, a rotation's temp copy of the journal), a symbolic link
 * planted under that name pointing to a file outside the folder is never followed: through a whole life of the store
 * (open, record, flush, stats, events query, a rotation, clear, close, a second boot) the target keeps its content,
 * mode and size, and the link stays a link. Where the name is one SQLite opens itself, the store refuses the file with
 * one clear warning and counts in memory. Real files in a temp directory.
 */
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME, LOG_FILE_NAME } from '../src/index.js';
import { healed, openStore, tempDir } from './helpers.js';

/** A pid that is surely not running: a child that has exited (a temp copy named with it is an orphan). */
const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;

const NAMES: { name: string; sqlite: boolean }[] = [
  { name: LOG_FILE_NAME, sqlite: false },
  { name: DATABASE_FILE_NAME, sqlite: true },
  { name: `${DATABASE_FILE_NAME}-wal`, sqlite: true },
  { name: `${DATABASE_FILE_NAME}-shm`, sqlite: true },
  { name: `${DATABASE_FILE_NAME}-journal`, sqlite: true },
  { name: `${DATABASE_FILE_NAME}.corrupt-1700000000000`, sqlite: false },
  { name: `${DATABASE_FILE_NAME}.corrupt-1700000000000-wal`, sqlite: false },
  { name: `${LOG_FILE_NAME}.${deadPid}.abc123.tmp`, sqlite: false },
];

describe('a symbolic link planted under a store file name', () => {
  it.each(NAMES)('$name: never followed, its target never changes', async ({ name, sqlite }) => {
    const root = tempDir();
    const outside = join(root, 'outside');
    const dir = join(root, 'store');
    mkdirSync(outside);
    mkdirSync(dir);
    const target = join(outside, 'precious.txt');
    const content = 'the user file a link points at\n'.repeat(40);
    writeFileSync(target, content, { mode: 0o644 });
    const before = statSync(target);
    symlinkSync(target, join(dir, name));

    for (let boot = 0; boot < 2; boot += 1) {
      const { store, warnings } = openStore({ dir, maxLogBytes: 8 * 1024 });
      for (let i = 0; i < 40; i += 1)
        store.record(healed('edit', { error: `failure ${i} ${'x'.repeat(300)}`, before: { token: 'sk-abc' } }));
      await store.flush(); // past maxLogBytes: the journal is rotated (when it is a regular file)
      const stats = store.stats();
      // counting goes on, in the file (the second boot also finds the call recorded after the first clear) or in
      // memory when the file is refused
      expect(stats.totals.calls).toBe(boot === 1 && !sqlite ? 41 : 40);
      expect((await store.queryEvents({ limit: 5 })).events).toHaveLength(5);
      expect(await store.clear()).toBe(true);
      store.record(healed('after the clear'));
      await store.close();
      if (sqlite) {
        expect(store.logging).toBe(false);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/is a symbolic link or not a regular file.*never follows.*counting continues/);
        expect(warnings[0]).toContain(join(dir, name));
      } else if (name === LOG_FILE_NAME) {
        expect(store.logging).toBe(true);
        expect(warnings).toHaveLength(1); // one warning however many writes and clears meet the link
        expect(warnings[0]).toMatch(/journal .* is a symbolic link or not a regular file/);
      } else {
        expect(store.logging).toBe(true);
        expect(warnings).toEqual([]);
      }
    }

    const after = statSync(target);
    expect(readFileSync(target, 'utf8')).toBe(content);
    expect(after.mode & 0o777).toBe(0o644);
    expect(after.size).toBe(before.size);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(lstatSync(join(dir, name)).isSymbolicLink()).toBe(true); // not deleted, not replaced
  });
});
