/**
 * DSH session log formats: the session header's `version`, the file DSH writes it to, and which releases write it.
 * The analyzer labels every log by this table; the lab reads format 0 files. Sources: docs/host-facts.md
 * ("Session log formats"), the repository, path and commit named per entry.
 */

export interface LogFormatFacts {
  /** The session header's `version` (undefined for headers without one). */
  version: number | undefined;
  /** The file name under `$DSH_HOME/sessions/<cwd-slug>/<session-id>/` (undefined when no source names it). */
  fileName: string | undefined;
  /** Which DSH release(s) write this format, in words. */
  releases: string;
  source: string;
}

/** Format 0: rc.8 (measured, apps/dsh-lab) and 0.1.1-rc.2 (upstream @ b150a551b8, by hand). */
export const LOG_FORMAT_0: LogFormatFacts = {
  version: 0,
  fileName: 'session.jsonl.zstd',
  releases: 'DSH 0.1.0-rc.8 / 0.1.1-rc.2',
  source: 'logs the installed DSH 0.1.0-rc.8 writes (apps/dsh-lab); deepseek-ai/deepseek-harness @ abfc7b7ed12c',
};

/** Format 3: 0.1.5, `session.v3.jsonl.zstd`, the rendered prompt as a `system/message` surface node. */
export const LOG_FORMAT_3: LogFormatFacts = {
  version: 3,
  fileName: 'session.v3.jsonl.zstd',
  releases: 'DSH 0.1.5',
  source:
    'zsagi1368/deepseek-harness-zDSH @ 30f71de5f3360c607ce8eaa5262c0cac5df7f1fb, packages/core/session/src/types.ts',
};

/** Format 4: 0.1.7 and 0.2.x, producer-owned message sources (`{kind: 'plugin:<id>'}`). */
export const LOG_FORMAT_4: LogFormatFacts = {
  version: 4,
  fileName: undefined,
  releases: 'DSH 0.1.7 / 0.2.x',
  source: 'zq0929/deepseek-harness @ 5593cc250aae228449197efd2413192165e3377f, packages/core/session/src/types.ts',
};

/** Headers without a version and format 1: June-July 2026 dev builds before rc.8, with rc.8's event shapes. */
export const LOG_FORMAT_DEV: readonly LogFormatFacts[] = [undefined, 1].map((version) => ({
  version,
  fileName: 'session.jsonl.zstd',
  releases: 'DSH dev build before 0.1.0-rc.8',
  source: 'the shared real-log set (/work/shared/dsh-sessions, deepseek-ai/deepseek-harness history)',
}));

/** Every format the analyzer knows, by header version. */
export const LOG_FORMATS: readonly LogFormatFacts[] = [...LOG_FORMAT_DEV, LOG_FORMAT_0, LOG_FORMAT_3, LOG_FORMAT_4];

/** The facts of log format `version`, or undefined for a format no known release writes. */
export function logFormat(version: number | undefined): LogFormatFacts | undefined {
  return LOG_FORMATS.find((format) => format.version === version);
}
