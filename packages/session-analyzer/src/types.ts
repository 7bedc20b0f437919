import type { StatsPayload } from '@dsh-tool-normalizer/telemetry-store/query';

/**
 * The analyzer's data model: what one session log yields (`SessionAnalysis`), what a replay of a failed call
 * through core-rules says (`CounterfactualOutcome`), and the aggregated report every output format renders
 * (`AnalysisReport`). Everything here is plain JSON so `--json` prints it as is.
 */

/**
 * What the current rules would have done with a failed call:
 * - `healed`: repaired before dispatch (`normalizeCall` changes it), so the host would have run the repair;
 * - `recovered`: a safe recovery after the error (`planRecovery` answers with a retried call's result);
 * - `hint`: the error stays, with one added hint sentence (including a refresh that keeps the original error);
 * - `nothing`: no rule applies;
 * - `unknown`: the log does not record the tools the model was shown, so no honest replay is possible.
 */
export type CounterfactualOutcome = 'healed' | 'recovered' | 'hint' | 'nothing' | 'unknown';

export const COUNTERFACTUAL_OUTCOMES: readonly CounterfactualOutcome[] = [
  'healed',
  'recovered',
  'hint',
  'nothing',
  'unknown',
];

/** One tool call that came back as an error, with its replay and its cost. */
export interface FailureRecord {
  callId: string;
  tool: string;
  /** The host's error code (`error.code` in the log), or undefined for the host's plain `Error`s. */
  code: string | undefined;
  /** core-rules category of the failure. */
  category: string;
  model: string | undefined;
  outcome: CounterfactualOutcome;
  /** The rule that would have acted (a catalogue id), when one would. */
  ruleId: string | undefined;
  /** For a failed run_code program: the inner sub-call whose failure was replayed. */
  innerTool: string | undefined;
  /** Tokens the model re-read on its next request, shared among the failures of the same step. */
  costTokens: number;
  /** `measured`: from the usage DSH recorded; `estimated`: no usage recorded, approximated; `none`: no next request. */
  costSource: 'measured' | 'estimated' | 'none';
  /** A key for counting identical failed calls (tool + exact arguments text); not redacted: never shown. */
  identity: string;
  /** Epoch ms of the result, when the log records times. */
  at: number | undefined;
  /** Redacted, bounded previews for display. */
  argumentsPreview: string;
  errorPreview: string;
}

/** What the plugin (already installed when the session ran) left in the log. */
export interface PluginEvidence {
  /** Calls whose streamed arguments differ from the call that ran: repaired before dispatch. */
  repairedCalls: number;
  /** Error results ending in a `Hint:` line the plugin appended. */
  hintedErrors: number;
  /** Nested calls the plugin dispatched for a recovery (`<callId>:heal:<n>` sub-calls). */
  healSubCalls: number;
  /** Receipts in the plugin's event log joined to this session's call ids, by outcome. */
  receipts: { healedSuccess: number; healedFailed: number };
  /** Call ids the plugin repaired or recovered with success (from the log and its receipts). */
  healedCallIds: string[];
}

export interface SessionAnalysis {
  file: string;
  sessionId: string;
  cwd: string | undefined;
  mode: 'native' | 'code' | 'both' | 'unknown';
  /** False when the log records no tool list (normalized fixtures write `{{tools}}`). */
  toolsRecorded: boolean;
  models: string[];
  toolCalls: number;
  /** `tool/result` events read (either shape DSH writes; a content rewrite of an earlier result is not counted). */
  toolResults: number;
  /** Successful results per tool name (the name that ran). */
  successesByTool: Record<string, number>;
  errors: number;
  /** Inner Code-Mode sub-calls (`tool/code-dispatch`) and how many failed. */
  subCalls: number;
  subCallErrors: number;
  failures: FailureRecord[];
  /** Set when the plugin left evidence in this session. */
  plugin: PluginEvidence | undefined;
}

export interface CountRow {
  key: string;
  count: number;
}

export interface CostRow {
  category: string;
  failures: number;
  tokens: number;
  measuredTokens: number;
  estimatedTokens: number;
}

export interface AnalysisReport {
  /** 1: the report's format version. */
  v: 1;
  generatedAt: number;
  sessionsDir: string | undefined;
  /** True when Ctrl-C stopped the run: the report covers the files analysed so far. */
  interrupted: boolean;
  filesSeen: number;
  filesAnalysed: number;
  skipped: { file: string; reason: string }[];
  census: {
    sessions: number;
    toolCalls: number;
    /** `tool/result` events read; a call the session ended before answering has none. */
    toolResults: number;
    errors: number;
    errorRate: number | null;
    sessionsWithErrors: number;
    sessionsWithoutToolList: number;
    subCalls: number;
    subCallErrors: number;
    byCode: CountRow[];
    byCategory: CountRow[];
    byTool: CountRow[];
    byModel: CountRow[];
    repeatedFailures: { tool: string; argumentsPreview: string; errorPreview: string; count: number }[];
  };
  counterfactual: {
    /** Failures by outcome. */
    outcomes: Record<CounterfactualOutcome, number>;
    byCategory: {
      category: string;
      healed: number;
      recovered: number;
      hint: number;
      nothing: number;
      unknown: number;
    }[];
    byRule: CountRow[];
    /** (errors − healed − recovered) / tool calls: the rate the model would have seen with the current rules. */
    wouldBeErrorRate: number | null;
  };
  cost: {
    tokens: number;
    measuredTokens: number;
    estimatedTokens: number;
    failuresWithoutNextRequest: number;
    /** Tokens re-read after failures the rules would have healed or recovered. */
    avoidableTokens: number;
    byCategory: CostRow[];
  };
  plugin: {
    sessions: number;
    toolCalls: number;
    /** Errors the model saw in those sessions. */
    errorsSeen: number;
    /** Calls the plugin healed or recovered (they would have been errors without it). */
    healed: number;
    hintedErrors: number;
    errorRateWith: number | null;
    errorRateWithout: number | null;
  };
  /**
   * The same analysis as a `<tn-dashboard>` stats payload: every tool call counted once; a failure the rules would
   * heal or recover counts as `healed-success` (a prediction), any other failure as `passthrough-failed`.
   * `tokensSaved` is the context re-read after those failures.
   */
  stats: StatsPayload;
}
