/**
 * `--store DIR`: receipts go to the same telemetry store the DSH plugin writes (`createTelemetryStore({ dir })`,
 * SQLite plus the JSONL journal), labelled as the `mcp` harness, so the store-backed dashboard and stats feed, DSH's
 * `/metrics` and `analyze --store` show MCP calls with DSH's, as MCP calls. The store
 * is loaded only when asked for: it needs Node's `node:sqlite` (Node >= 22.13); the proxy without it runs on Node 20.
 */
import { mkdirSync } from 'node:fs';
import type { TelemetryStore } from '@dsh-tool-normalizer/telemetry-store';

function hasSqlite(): boolean {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  try {
    return typeof getBuiltin === 'function' && getBuiltin('node:sqlite') !== undefined;
  } catch {
    return false;
  }
}

/**
 * Opens the store in `dir`, or throws a one-line reason. A directory that does not exist yet is created private to
 * the user (0700): the store writes its files with the process's default mode, so the folder keeps them private.
 */
export async function openStore(dir: string, warn: (line: string) => void): Promise<TelemetryStore> {
  if (!hasSqlite())
    throw new Error(
      `--store needs Node >= 22.13 (node:sqlite); this is Node ${process.version}. Run without --store, or on a newer Node.`,
    );
  const { createTelemetryStore, HARNESSES } = await import('@dsh-tool-normalizer/telemetry-store');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Every receipt says `harness: "mcp"` (telemetry-store's one list of harness names) and the store counts them
    // apart (`harnessCalls()`), so DSH's `/metrics`, `analyze` and the dashboard show them as MCP calls.
    return createTelemetryStore({ dir, warn, harness: HARNESSES.mcp });
  } catch (error) {
    throw new Error(`--store ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
