/**
 * Reads what the telemetry store's database holds for `analyze`: the calls it counted (every profile and harness),
 * the calls other harnesses counted, and the store's last clear (a clear is a receipt: when, and how many calls it
 * erased). This is the part of the store the event log does not have: successful untouched calls are counted in the
 * database only, and so is the clear. It opens the store through its own API (`createTelemetryStore`), loaded only
 * when a database file is there, so `analyze` still runs where `node:sqlite` is missing (Node 20): it then says why
 * the database was not read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { StoreReport } from './types.js';

/** The store's database file name (telemetry-store's `DATABASE_FILE_NAME`, checked by a test). */
export const STORE_DATABASE_FILE = 'tool-normalizer.sqlite';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The store's last clear from a stats payload's `storage.lastClear`, when it is well formed; else undefined. */
export function lastClearOf(storage: unknown): StoreReport['lastClear'] {
  const lastClear = isRecord(storage) ? storage.lastClear : undefined;
  if (!isRecord(lastClear)) return undefined;
  const { at, erasedCalls } = lastClear;
  if (typeof at !== 'number' || !Number.isFinite(at) || Math.abs(at) > 8.64e15) return undefined;
  if (typeof erasedCalls !== 'number' || !Number.isSafeInteger(erasedCalls) || erasedCalls < 0) return undefined;
  return { at, erasedCalls };
}

/**
 * What the store in `dir` holds, or undefined when `dir` has no database (nothing to say). Never throws: a database
 * that cannot be read gives `read: false` and a one-line `note`.
 */
export async function readStore(dir: string): Promise<StoreReport | undefined> {
  const file = path.join(dir, STORE_DATABASE_FILE);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return undefined;
  }
  const empty: StoreReport = { dir, read: false, calls: 0, healed: 0, harnessCalls: [] };
  if (!stat.isFile()) return { ...empty, note: `${file} is not a regular file; not read` };
  const warnings: string[] = [];
  try {
    const { createTelemetryStore } = await import('@dsh-tool-normalizer/telemetry-store');
    const store = createTelemetryStore({ dir, warn: (message) => warnings.push(message) });
    try {
      const stats = store.stats({ profile: '*' });
      const error = stats.storage.error;
      if (error !== undefined || warnings.length > 0)
        return { ...empty, note: `the database could not be read: ${error ?? warnings[0]}` };
      const lastClear = lastClearOf(stats.storage);
      return {
        dir,
        read: true,
        calls: stats.totals.calls,
        healed: stats.totals.healedSuccess + stats.totals.healedFailed,
        harnessCalls: (store.harnessCalls() ?? []).map(({ harness, outcome, calls }) => ({ harness, outcome, calls })),
        ...(lastClear ? { lastClear } : {}),
      };
    } finally {
      await store.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...empty, note: `the database was not read: ${message.split('\n', 1)[0]}` };
  }
}
