/**
 * Loads Node's built-in SQLite (`node:sqlite`, Node >= 22.13) at run time through `process.getBuiltinModule`, so
 * bundlers never see a static `node:sqlite` import (esbuild for the published plugin, browsers for `./query`),
 * and an older Node gets a clear error instead of a module-resolution failure. The types below are the small
 * part of the API this package uses (the repository's @types/node predates `node:sqlite`).
 *
 * Node 22.x prints a one-time ExperimentalWarning when SQLite loads; it is deliberately not silenced: DSH loads
 * `node:sqlite` itself for session search, and muting a process-wide warning channel from a plugin would hide
 * other warnings too.
 */

export type SqlValue = null | number | bigint | string | Uint8Array;

export interface StatementSync {
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqlValue[]): Record<string, SqlValue> | undefined;
  all(...params: SqlValue[]): Record<string, SqlValue>[];
}

export interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
  readonly isOpen?: boolean;
}

export interface SqliteModule {
  DatabaseSync: new (path: string, options?: { timeout?: number; readOnly?: boolean }) => DatabaseSync;
}

/** Thrown when this Node has no `node:sqlite`. */
export class SqliteUnavailableError extends Error {
  override name = 'SqliteUnavailableError';
}

let cached: SqliteModule | undefined;

export function loadSqlite(): SqliteModule {
  if (cached) return cached;
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const module = getBuiltin?.call(process, 'node:sqlite') as SqliteModule | undefined;
  if (!module || typeof module.DatabaseSync !== 'function') {
    throw new SqliteUnavailableError(
      `the telemetry store needs node:sqlite (Node >= 22.13; DSH needs >= 22.15), but this is Node ${process.version}`,
    );
  }
  cached = module;
  return module;
}
