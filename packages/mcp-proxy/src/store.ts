/**
 * `--store DIR`: receipts go to the same telemetry store the DSH plugin writes (`createTelemetryStore({ dir })`,
 * SQLite plus the JSONL journal), so `analyze`, the dashboard and `/metrics` read MCP heals with the rest. The store
 * is loaded only when asked for: it needs Node's `node:sqlite` (Node >= 22.13); the proxy without it runs on Node 20.
 */
import { mkdirSync } from 'node:fs';
import type { TelemetryStore } from '@dsh-tool-normalizer/telemetry-store';

/**
 * Opens the store in `dir`. A directory that does not exist yet is created private to the user (0700): the store
 * writes its files with the process's default mode, so the folder is what keeps them from other users.
 */
export async function openStore(dir: string, warn: (line: string) => void): Promise<TelemetryStore> {
  const { createTelemetryStore } = await import('@dsh-tool-normalizer/telemetry-store');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return createTelemetryStore({ dir, warn });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `--store ${dir}: ${detail} (the store needs Node >= 22.13 with node:sqlite; this is ${process.version})`,
    );
  }
}
