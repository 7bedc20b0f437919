/**
 * The public shapes of the Agents SDK healing: its options and the report it hands to `onReport`. A report has
 * the fields a `telemetry-store` event takes, except the outcome, which is only known once the tool has run.
 */
import type { CategoryId, KitOptions, Receipt, RuleId } from '@dsh-tool-normalizer/core-rules';

/** What happened to one function call of a model response that failed a check. Arguments are raw (not redacted). */
export interface HealReport {
  /** The call's `callId`, as the model sent it (a healed call keeps it). */
  callId: string;
  /** The tool that runs (the repaired name), or the name the model sent when nothing was repaired. */
  tool: string;
  /** The name the model sent. */
  requestedTool: string;
  /** The failure class: `unknown-tool`, `invalid-args` or `code-syntax` (core-rules' category ids). */
  category: CategoryId;
  /** True when the response carries the repaired call; false when the call went on as sent. */
  repaired: boolean;
  ruleIds: RuleId[];
  receipts: Receipt[];
  /** One line per receipt: why it fired. */
  changes: string[];
  /** The argument text the model sent. */
  before: string;
  /** The repaired arguments (only when `repaired`). */
  after?: Record<string, unknown>;
  /** Why nothing was repaired (only when not `repaired`). */
  reason?: string;
}

/** Options of `healModel` and `healModelProvider`. */
export interface HealingOptions {
  /** Called for every function call that failed a check: repaired or not. Exceptions it throws are swallowed. */
  onReport?: (report: HealReport) => void;
  /** Rule families on or off (core-rules' switches; default all on). */
  toggles?: KitOptions['toggles'];
  /** Working directory for `str_replace_editor` relative paths (only resolved when given, with the DSH profile). */
  cwd?: string;
  /**
   * The host's checks beyond each tool's schema (a host profile). Default: DeepSeek Harness's (`dshHostChecks`),
   * which only concern tools named `bash`, `run_code` and `str_replace_editor`; pass `() => []` for none.
   */
  hostChecks?: KitOptions['hostChecks'];
  /** Tools that take a program, with the healer: `{ fields: { run_js: 'code' }, healProgram }` (from the syntax healer). */
  programs?: KitOptions['programs'];
}
