/**
 * The public shapes of the AI SDK healing: its options and the report it hands to `onReport`. A report has
 * the fields a `telemetry-store` event takes, except the outcome, which is only known once the tool has run.
 */
import type { CategoryId, KitOptions, Receipt, RuleId } from '@dsh-tool-normalizer/core-rules';

/** What happened to one tool call the healing looked at. Arguments are raw (not redacted): redact before you show or store them. */
export interface RepairReport {
  /**
   * The seam: `repair` (`repairToolCall`: the SDK could not parse the call), `refine` (`experimental_refineToolInput`:
   * it parsed) or `text` (`dsmlTextMiddleware`: a DSML block in the model's text; one report per call it became, or
   * one refusal with `tool` empty).
   */
  seam: 'repair' | 'refine' | 'text';
  /** The SDK's `toolCallId` (empty on the refine seam, which the SDK calls with the input only; the new call's id on the text seam). */
  callId: string;
  /** The tool that runs (the repaired name), or the name the model sent when nothing was repaired. */
  tool: string;
  /** The name the model sent. */
  requestedTool: string;
  /** The failure class: `unknown-tool`, `invalid-args` or `code-syntax` (core-rules' category ids). */
  category: CategoryId;
  /** True when a repaired call was handed back to the SDK; false when the call went on as sent. */
  repaired: boolean;
  ruleIds: RuleId[];
  receipts: Receipt[];
  /** One line per receipt: why it fired. */
  changes: string[];
  /** The arguments the model sent (text on the repair seam, the parsed input on the refine seam, the call's markup, shortened, on the text seam). */
  before: unknown;
  /** The repaired arguments (only when `repaired`). */
  after?: Record<string, unknown>;
  /** Why nothing was repaired (only when not `repaired`). */
  reason?: string;
  /** The SDK error that asked for the repair: `AI_NoSuchToolError` or `AI_InvalidToolInputError` (repair seam only). */
  error?: string;
}

/** Options of `healToolCalls`, `createToolCallRepair` and `createToolInputRefinement`. */
export interface HealingOptions {
  /**
   * Called for every call the repair seam saw, and for every call the refine seam repaired or found failing
   * a check it could not repair. Exceptions it throws are swallowed.
   */
  onReport?: (report: RepairReport) => void;
  /** Rule families on or off (core-rules' switches; default all on). */
  toggles?: KitOptions['toggles'];
  /** Working directory for `str_replace_editor` relative paths (only resolved when given, with the DSH profile). */
  cwd?: string;
  /**
   * The host's checks beyond each tool's schema (a host profile). Default: DeepSeek Harness's (`dshHostChecks`),
   * which only concern tools named `bash`, `run_code` and `str_replace_editor` (a blank description, a relative
   * editor path, a malformed `view_range`); pass `() => []` for none.
   */
  hostChecks?: KitOptions['hostChecks'];
  /**
   * Tools that take a program, with the healer: `{ fields: { run_js: 'code' }, healProgram }`, `healProgram`
   * imported from `@dsh-tool-normalizer/ai-sdk/programs`. Only then is Babel's parser part of your bundle.
   */
  programs?: KitOptions['programs'];
}

/** @deprecated The options of `createToolCallRepair`: now `HealingOptions`. */
export type ToolCallRepairOptions = HealingOptions;
