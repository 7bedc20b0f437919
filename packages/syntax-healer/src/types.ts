/**
 * Public result types of the syntax healer (design section 4). Kept apart from the implementation so other
 * packages can depend on the shape alone.
 */

/** One repair that was applied to a program, e.g. `{ kind: 'strip-fence' }`. */
export interface Repair {
  kind: string;
  [detail: string]: unknown;
}

/** Why a program could not be (or did not need to be) made compilable. */
export interface Diagnostic {
  kind: string;
  message: string;
  line?: number;
  column?: number;
}

/**
 * `ok`: the host would compile the returned `code`. `changed`: `code` differs from the input.
 * An unrepairable program comes back unchanged with `ok: false` and a diagnostic.
 */
export interface HealResult {
  ok: boolean;
  changed: boolean;
  code: string;
  repairs: Repair[];
  diagnostic?: Diagnostic;
}

export interface HealOptions {
  /** Upper bound on host-equivalent compile attempts for one call (bounded worst case). */
  maxCompileAttempts?: number;
  /** A failing program longer than this many characters is diagnosed but not repaired (default 256 KiB). */
  maxRepairChars?: number;
}
