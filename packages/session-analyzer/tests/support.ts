/**
 * Test helpers: a deterministic sample of the real DSH session logs (copied to a temp folder, never into the
 * repository), zstd compression with Node's own encoder, and an independent reference count made by decoding
 * every file whole (the analyzer streams them), so census figures are checked against a second reading.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';

/** The real DSH session logs (2,659 of them, zstd, as DSH stores them); outside the repository. */
export const REAL_SESSIONS = path.resolve(process.env.DSH_SESSIONS_DIR ?? '/work/shared/dsh-sessions/real');
const zstd = zlib as unknown as {
  zstdCompressSync?(data: Buffer | string): Buffer;
  zstdDecompressSync(data: Buffer): Buffer;
  createZstdCompress(): Transform;
};
/** DSH logs are zstd; Node has it from 22.15 (what DSH requires). On an older Node these tests are skipped. */
export const hasZstd = typeof zstd.zstdCompressSync === 'function';
export const hasRealSessions = hasZstd && fs.existsSync(REAL_SESSIONS);
if (!hasZstd)
  console.warn(
    `[session-analyzer] tests skipped: this Node (${process.version}) has no zstd; run them with Node >= 22.15`,
  );
else if (!hasRealSessions)
  console.warn(
    `[session-analyzer] real-log tests skipped: no DSH session logs at ${REAL_SESSIONS} (set DSH_SESSIONS_DIR)`,
  );
/** The telemetry store's database needs `node:sqlite` (Node >= 22.13); tests that write a real store need it too. */
export const hasSqlite =
  (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:sqlite') !== undefined;
export const compress = (text: string): Buffer =>
  (zstd.zstdCompressSync as (data: Buffer) => Buffer)(Buffer.from(text, 'utf8'));
/** A zstd compressing stream (`zlib.createZstdCompress`; only where `hasZstd`). */
export const compressStream = (): Transform => zstd.createZstdCompress();
export const decompress = (file: string): string => zstd.zstdDecompressSync(fs.readFileSync(file)).toString('utf8');

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `session-analyzer-${prefix}-`));
}

export function allRealLogs(): string[] {
  const files: string[] = [];
  for (const source of fs.readdirSync(REAL_SESSIONS).sort()) {
    const folder = path.join(REAL_SESSIONS, source);
    if (!fs.statSync(folder).isDirectory()) continue;
    for (const session of fs.readdirSync(folder).sort()) {
      const file = path.join(folder, session, 'session.jsonl.zstd');
      if (fs.existsSync(file)) files.push(file);
    }
  }
  return files;
}

/** Every `step`-th real log plus every log whose folder name contains one of `alsoMatching`, copied into `dir`. */
export function copyRealSample(dir: string, step: number, alsoMatching: string[]): string[] {
  const copied: string[] = [];
  allRealLogs().forEach((file, index) => {
    const relative = path.relative(REAL_SESSIONS, file);
    if (index % step !== 0 && !alsoMatching.some((part) => relative.includes(part))) return;
    const target = path.join(dir, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target);
    copied.push(target);
  });
  return copied;
}

export interface ReferenceCount {
  sessions: number;
  toolCalls: number;
  toolResults: number;
  errors: number;
  /** Errors written in the flat `tool/result` shape (`data.callId`, `data.isError`), not wrapped in a message. */
  flatErrors: number;
  sessionsWithErrors: number;
  byCode: Record<string, number>;
  corrupt: string[];
}

/**
 * Counts the same things as the census, reading each file whole with a plain JSON.parse per line. Deliberately
 * simple: a `tool/result` is an error when its flat `data.isError` is true or, in the wrapped shape, any block of
 * `data.message.content` has `isError: true`; its code is `data.error.code`, else `data.error.info.code`.
 */
export function referenceCount(files: string[]): ReferenceCount {
  const count: ReferenceCount = {
    sessions: 0,
    toolCalls: 0,
    toolResults: 0,
    errors: 0,
    flatErrors: 0,
    sessionsWithErrors: 0,
    byCode: {},
    corrupt: [],
  };
  for (const file of files) {
    const lines = decompress(file)
      .split('\n')
      .filter((line) => line.trim() !== '');
    let events: { type?: string; data?: any }[];
    try {
      events = lines.map((line) => JSON.parse(line));
    } catch {
      count.corrupt.push(file);
      continue;
    }
    if (events[0]?.type !== 'session') continue;
    count.sessions += 1;
    let errors = 0;
    for (const event of events) {
      if (event.type === 'tool/call') count.toolCalls += 1;
      if (event.type !== 'tool/result') continue;
      count.toolResults += 1;
      const flat = typeof event.data?.callId === 'string';
      const isError = flat
        ? event.data.isError === true
        : (event.data?.message?.content ?? []).some((part: any) => part?.isError === true);
      if (!isError) continue;
      errors += 1;
      if (flat) count.flatErrors += 1;
      const code = event.data?.error?.code ?? event.data?.error?.info?.code ?? '(no code)';
      count.byCode[code] = (count.byCode[code] ?? 0) + 1;
    }
    count.errors += errors;
    if (errors > 0) count.sessionsWithErrors += 1;
  }
  return count;
}
