/**
 * File operations of the JSONL sink (Node only): whole-line O_APPEND writes that never interleave with another
 * process's lines, size-capped rotation that keeps the newest events, atomic replacement of the summary file
 * (write a temp file, then rename), and bounded reads for boot. Every file it creates is 0600, and it opens only
 * regular files, never through a symbolic link (`O_NOFOLLOW`; see private-files.ts).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseLogText } from './log-format.js';
import { NO_FOLLOW, NotRegularFileError, PRIVATE_FILE_MODE, requireRegular } from './private-files.js';

/**
 * Opens a store file with `flags` plus `O_NOFOLLOW`: a symbolic link planted under its name fails (ELOOP), a FIFO,
 * device or folder throws NotRegularFileError; neither is read, written, truncated or has its mode changed.
 */
async function openRegular(path: string, flags: number): Promise<FileHandle> {
  const handle = await open(path, flags | NO_FOLLOW, PRIVATE_FILE_MODE);
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  throw new NotRegularFileError(path);
}

const NEWLINE = 0x0a;

/**
 * Appends `data` (whole lines) with O_APPEND. The batch goes out in one write() call, so the kernel places it
 * at the end of the file as a unit and another process's lines land before or after it, never inside it.
 * When the file does not end with a newline (a writer was killed mid-line), a newline is written first so our
 * first line is not glued onto the torn one. Returns the file size after the write.
 */
export async function appendLines(path: string, data: string): Promise<number> {
  const handle = await openRegular(path, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND);
  try {
    const { size } = await handle.stat();
    let text = data;
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== NEWLINE) text = `\n${data}`;
    }
    const buffer = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < buffer.length) {
      // Regular files only write short on a full disk; the remainder is still whole lines' bytes.
      const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
      if (bytesWritten <= 0) throw new Error(`write to ${path} made no progress`);
      offset += bytesWritten;
    }
    return size + buffer.length;
  } finally {
    await handle.close();
  }
}

/** The temp file `writeFileAtomic` writes beside `path`: `<path>.<pid>.<random>.tmp`. */
function tempPath(path: string): string {
  return `${path}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: it exists, owned by someone else
  }
}

/**
 * Deletes the temp files of `path` that a process killed during a rotation left behind (they hold a copy of the
 * journal's events): those of processes no longer running, and with `all`, every one but this process's own (what
 * `clear()` erases). Never throws; returns how many could not be deleted.
 */
export function removeOrphanTemps(path: string, all = false): number {
  const prefix = `${basename(path)}.`;
  let failed = 0;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const match = /^(\d+)\.[a-z0-9]*\.tmp$/.exec(name.slice(prefix.length));
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || (!all && processAlive(pid))) continue;
    try {
      // only a regular file the store wrote: a link planted under such a name is left alone (lstat, no follow)
      if (!lstatSync(join(dirname(path), name)).isFile()) continue;
      rmSync(join(dirname(path), name), { force: true });
    } catch {
      failed += 1;
    }
  }
  return failed;
}

/** Writes `text` to `path` through a temp file and a rename, so readers see the old or the new file, never half. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temp = tempPath(path);
  // O_EXCL: a new file, never one (or a link) that is already there (which is then left alone)
  const handle = await openRegular(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  try {
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Rewrites the log keeping only the newest valid event lines that fit in `keepBytes` (atomic replace). Only the
 * last `keepBytes` of the file are read, however large it has grown. Corrupt, foreign and torn lines are dropped
 * on the way. Returns the new size.
 */
export async function rotateLog(path: string, keepBytes: number): Promise<number> {
  const handle = await openRegular(path, constants.O_RDONLY);
  let text: string;
  let startsMidLine: boolean;
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, keepBytes);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, size - length);
    text = buffer.subarray(0, bytesRead).toString('utf8');
    startsMidLine = size > length;
  } finally {
    await handle.close();
  }
  const { events } = parseLogText(text, { startsMidLine });
  const kept = events.map((event) => `${JSON.stringify(event)}\n`);
  await writeFileAtomic(path, kept.join(''));
  return kept.reduce((bytes, line) => bytes + Buffer.byteLength(line), 0);
}

/**
 * Empties the log (keeps the inode, so another process appending with O_APPEND continues at the new end). Only a
 * regular file: it is opened without truncating, checked, then truncated through its descriptor.
 */
export async function truncateLog(path: string): Promise<void> {
  const handle = await openRegular(path, constants.O_WRONLY | constants.O_CREAT);
  try {
    await handle.truncate(0);
  } finally {
    await handle.close();
  }
}

export interface FileTail {
  text: string;
  /** True when the text starts after the beginning of the file (its first line is a fragment). */
  startsMidLine: boolean;
  size: number;
}

/** Synchronously reads at most the last `maxBytes` of a file (boot only), or undefined when it does not exist. */
export function readTailSync(path: string, maxBytes: number): FileTail | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW);
    requireRegular(fd, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    return { text: buffer.subarray(0, read).toString('utf8'), startsMidLine: size > length, size };
  } finally {
    closeSync(fd);
  }
}
