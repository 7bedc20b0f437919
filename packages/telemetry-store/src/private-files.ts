/**
 * The store's files hold what the user's tools did, so they are the user's alone, like DSH's own session logs: files
 * 0600, folders the store creates 0700. SQLite creates the -wal, -shm and -journal files with the mode of the database
 * file (unix VFS), so the database file is created 0600 before SQLite opens it. Files left looser by an older version
 * are tightened on open.
 *
 * And the store touches only regular files it owns: a symbolic link planted in its folder under one of its file names
 * (or a FIFO, a device, a folder) is never followed, opened, tightened, truncated or deleted. Every open here and in
 * log-file.ts uses `O_NOFOLLOW` and checks the opened file is a regular one; SQLite opens the database itself, so
 * `unsafeEntry` lstats the database's names before it does (see database-lifecycle.ts). Node only.
 */
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Flags added to every open of a store file: a symbolic link fails with ELOOP instead of being followed, and a FIFO
 * planted under a store name does not block the open (the regular-file check then refuses it).
 */
export const NO_FOLLOW = constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The error an open of a store file gives when the name is not a regular file (see `NotRegularFileError`). */
export const NOT_REGULAR = 'ENOTREG';

/** A store file name that is not a regular file: a symbolic link (ELOOP), a FIFO, a device or a folder. */
export class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';
  readonly code = NOT_REGULAR;
  constructor(readonly path: string) {
    super(
      `${path} is not a regular file (a symbolic link, a folder or a device); the store never follows or opens one`,
    );
  }
}

/** True for the error of an open that met a symbolic link (O_NOFOLLOW) or another non-regular file. */
export function isNotRegularError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ELOOP' || code === NOT_REGULAR;
}

/** Creates `dir` and its missing parents 0700; a folder that exists already (e.g. `$DSH_HOME`) keeps its mode. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Throws NotRegularFileError unless the open file `fd` (of `path`) is a regular file; closes it then. */
export function requireRegular(fd: number, path: string): void {
  if (fstatSync(fd).isFile()) return;
  closeSync(fd);
  throw new NotRegularFileError(path);
}

/**
 * Creates `path` empty and 0600 when it does not exist (never truncates an existing file). A symbolic link or any
 * other non-regular file under that name throws (ELOOP / NotRegularFileError) and is left as it is.
 */
export function createPrivateFile(path: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | NO_FOLLOW, PRIVATE_FILE_MODE);
  requireRegular(fd, path);
  closeSync(fd);
}

/**
 * The first of `paths` that exists and is not a regular file (lstat: a symbolic link is never followed), or
 * undefined. For the files SQLite opens itself (the database, `-wal`, `-shm`, `-journal`).
 */
export function unsafeEntry(paths: readonly string[]): string | undefined {
  for (const path of paths) {
    try {
      if (!lstatSync(path).isFile()) return path;
    } catch {
      // not there (or not reachable: the open that follows reports it)
    }
  }
  return undefined;
}

/** True when `path` exists and is a regular file (not a symbolic link: lstat). */
export function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Sets a file to 0600 when group or others may read or write it, through a descriptor opened without following a
 * symbolic link (fchmod: what is changed is the file that was checked). Returns the error code when that failed (a
 * file of another user), undefined when the file is private now, does not exist, or is not a regular file (a
 * planted link is left alone, never its target: the store refuses to use it, see `unsafeEntry` and the journal).
 */
export function tightenFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ELOOP' ? undefined : (code ?? String(error));
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFile() && (stats.mode & 0o077) !== 0) fchmodSync(fd, PRIVATE_FILE_MODE);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  } finally {
    closeSync(fd);
  }
}

/**
 * Tightens every file of the store's family: `databasePath` with its -wal, -shm and -journal files and the copies a
 * corrupt database was moved aside to (`<name>.corrupt-<time>*`), plus `otherPaths` (the journal). Returns the
 * files that could not be tightened, with the reason.
 */
export function tightenStoreFiles(databasePath: string, otherPaths: readonly string[]): string[] {
  const dir = dirname(databasePath);
  const name = basename(databasePath);
  let family: string[] = [];
  try {
    family = readdirSync(dir).filter(
      (entry) => entry === name || entry.startsWith(`${name}-`) || entry.startsWith(`${name}.corrupt-`),
    );
  } catch {
    // the folder cannot be listed: the open that follows reports it
  }
  const failed: string[] = [];
  for (const path of [...family.map((entry) => join(dir, entry)), ...otherPaths]) {
    const problem = tightenFile(path);
    if (problem !== undefined) failed.push(`${path} (${problem})`);
  }
  return failed;
}
