/** Test helpers: temp directories and a store wired to collect its warnings. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import {
  createTelemetryStore,
  type StatsPayload,
  type StatsQuery,
  type TelemetryEventInput,
  type TelemetryStore,
  type TelemetryStoreOptions,
} from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tn-telemetry-'));
  dirs.push(dir);
  return dir;
}

export function openStore(options: Partial<TelemetryStoreOptions> & { dir: string }): {
  store: TelemetryStore;
  warnings: string[];
} {
  const warnings: string[] = [];
  const store = createTelemetryStore({
    flushIntervalMs: 60_000,
    warn: (message) => warnings.push(message),
    ...options,
  });
  return { store, warnings };
}

export function healed(tool = 'edit', extra: Partial<TelemetryEventInput> = {}): TelemetryEventInput {
  return {
    tool,
    category: 'FS_NOT_OBSERVED',
    outcome: 'healed-success',
    ruleIds: ['observe-then-retry'],
    tokensSaved: 100,
    ...extra,
  };
}

export function logLines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}

export function logEvents(path: string): Record<string, unknown>[] {
  return logLines(path).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Writes what the store has queued, then reads its stats (what the stats route does). */
export async function flushedStats(store: TelemetryStore, query?: StatsQuery): Promise<StatsPayload> {
  await store.flush();
  return store.stats(query);
}
