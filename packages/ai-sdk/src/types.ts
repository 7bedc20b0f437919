/**
 * The public shapes of the AI SDK repair: its options and the report it hands to `onReport` for every call the
 * SDK asked it to repair. A report has the fields a `telemetry-store` event takes, except the outcome, which is
 * only known once the tool has run.
 */
import type { Receipt, RuleToggles } from '@dsh-tool-normalizer/core-rules';

/** One repair the package itself made (near-JSON reading, unknown name, program syntax): same shape as core-rules' receipts. */
export interface RepairReceipt {
  ruleId: string;
  category: string;
  why: string;
  before: string;
  after: string;
}

/** What happened to one tool call the SDK could not parse. Arguments are raw (not redacted): redact before you show or store them. */
export interface RepairReport {
  /** The SDK's `toolCallId`. */
  callId: string;
  /** The tool that runs (the repaired name), or the name the model sent when nothing was repaired. */
  tool: string;
  /** The name the model sent. */
  requestedTool: string;
  /** The failure class: `unknown-tool`, `invalid-args` or `code-syntax` (core-rules' category ids). */
  category: string;
  /** True when a repaired call was handed back to the SDK; false when `null` was (the SDK's own error runs). */
  repaired: boolean;
  ruleIds: string[];
  receipts: (Receipt | RepairReceipt)[];
  /** One line per receipt: why it fired. */
  changes: string[];
  /** The arguments text the model sent. */
  before: string;
  /** The repaired arguments (only when `repaired`). */
  after?: Record<string, unknown>;
  /** Why nothing was repaired (only when not `repaired`). */
  reason?: string;
  /** The SDK error that asked for the repair: `AI_NoSuchToolError` or `AI_InvalidToolInputError`. */
  error: string;
}

export interface ToolCallRepairOptions {
  /** Called once per call the SDK asked to repair, repaired or not. Exceptions it throws are swallowed. */
  onReport?: (report: RepairReport) => void;
  /** Rule families on or off (core-rules' switches; default all on). */
  toggles?: Partial<RuleToggles>;
  /**
   * Tools that take a program: tool name -> the argument that holds it. The program is repaired with the syntax
   * healer, checked as the body of a strict async function (how DeepSeek Harness compiles `run_code`).
   */
  programs?: Record<string, string>;
  /** Working directory for `str_replace_editor` relative paths (only resolved when given). */
  cwd?: string;
}
