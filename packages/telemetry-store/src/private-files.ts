/**
 * The store's files hold what the user's tools did, so they are the user's alone, like DSH's own session logs: files
 * 0600, folders the store creates 0700. SQLite creates the -wal, -shm and -journal files with the mode of the database
 * file (unix VFS), so the database file is created 0600 before SQLite opens it. Files left looser by an older version
 * are tightened on open. Node only.
 */
import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Creates `dir` and its missing parents 0700; a folder that exists already (e.g. `$DSH_HOME`) keeps its mode. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Creates `path` empty and 0600 when it does not exist (never truncates an existing file). */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
}

/**
 * Sets a file to 0600 when group or others may read or write it. Returns the error code when that failed (a file of
 * another user), undefined when the file is private now or does not exist.
 */
export function tightenFile(path: string): string | undefined {
  try {
    const { mode } = statSync(path);
    if ((mode & 0o077) !== 0) chmodSync(path, PRIVATE_FILE_MODE);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : (code ?? String(error));
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
