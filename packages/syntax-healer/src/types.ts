/**
 * Public result types of the syntax healer. Kept apart from the implementation so other
 * packages can depend on the shape alone.
 */

/** One repair that was applied to a program, e.g. `{ kind: 'strip-fence' }`. */
export interface Repair {
  kind: string;
  [detail: string]: unknown;
}

/**
 * Every kind of diagnostic `healProgram` returns, so callers (the hint layer) can switch on it with the compiler's
 * help instead of comparing bare strings. `truncated` means the program looks cut off (likely the model's output
 * limit): it carries the line and column of the cut, and nothing was run.
 */
export type DiagnosticKind =
  | 'invalid-input'
  | 'empty-program'
  | 'foreign-fence'
  | 'multiple-fences'
  | 'code-after-fence'
  | 'too-large-to-repair'
  | 'too-large-to-check'
  | 'ambiguous-repair'
  | 'truncated'
  | 'python-string-prefix'
  | 'python-code'
  | 'shell-code'
  | 'json-arguments'
  | 'module-syntax'
  | 'await-outside-async'
  | 'unsupported-typescript'
  | 'typographic-quotes'
  | 'escaped-program'
  | 'html-entities'
  | 'tool-markup'
  | 'surrounding-prose'
  | 'zero-width'
  | 'hash-comment'
  | 'code-left-out'
  | 'syntax-error';

/** Why a program could not be (or did not need to be) made compilable. */
export interface Diagnostic {
  kind: DiagnosticKind;
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
  /** A failing program longer than this many characters is diagnosed but not repaired (default 64 KiB). */
  maxRepairChars?: number;
  /** Work budget: characters compiled over all attempts of one call (default 160 KiB). */
  maxCompiledChars?: number;
}
