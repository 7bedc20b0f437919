/**
 * The JSONL journal beside the database: the stored (redacted) events appended after each commit, rotated past its
 * size. It is never read back and never the source of a count, so a failed append only loses journal lines: it warns
 * once per run of failures and is tried again on the next commit (a full disk that gets space back is written again).
 * Node only.
 */
import { appendLines, removeOrphanTemps, rotateLog, truncateLog } from './log-file.js';
import { serializeEvent } from './log-format.js';
import { isNotRegularError, makePrivateDir } from './private-files.js';
import type { TelemetryEvent } from './schema.js';
import { errorCode } from './store-options.js';

export class Journal {
  /** False while appends fail (until one succeeds again). */
  healthy = true;

  constructor(
    readonly path: string,
    private readonly dir: string,
    private readonly maxBytes: number,
    private readonly warn: (message: string) => void,
  ) {
    // A process killed during a rotation leaves its temp copy of the journal behind: gone at the next open.
    removeOrphanTemps(path);
  }

  async append(events: readonly TelemetryEvent[]): Promise<void> {
    if (events.length === 0) return;
    try {
      makePrivateDir(this.dir);
      const size = await appendLines(this.path, events.map(serializeEvent).join(''));
      if (size > this.maxBytes) await rotateLog(this.path, Math.floor(this.maxBytes / 2));
      this.healthy = true;
    } catch (error) {
      this.failed(error);
    }
  }

  /** Empties the journal and deletes other processes' rotation temp copies (what `clear()` erases). */
  async truncate(): Promise<void> {
    removeOrphanTemps(this.path, true);
    try {
      await truncateLog(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.failed(error);
    }
  }

  private failed(error: unknown): void {
    if (!this.healthy) return;
    this.healthy = false;
    if (isNotRegularError(error)) {
      this.warn(
        `the telemetry journal ${this.path} is a symbolic link or not a regular file: the store never follows or writes one, so the journal is not written while it is there (the database still counts); remove it to get the journal back`,
      );
      return;
    }
    this.warn(
      `the telemetry journal ${this.path} could not be written (${errorCode(error)}); the database still counts, and the journal is tried again on the next write`,
    );
  }
}
