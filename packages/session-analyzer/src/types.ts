/**
 * The analyzer's data model: what one session log yields (`SessionAnalysis`), what a replay of a failed call
 * through core-rules predicts (`CounterfactualOutcome`), and the aggregated report every output format renders
 * (`AnalysisReport`). Everything here is plain JSON so `--json` prints it as is. Predictions and measurements are
 * kept apart by name: nothing in a report is called "healed" or "saved" as if it had happened.
 */

/**
 * What the current rules would do with a failed call (a prediction, per failure):
 * - `healed`: a repair before dispatch that addresses the recorded error (see `replayFailure`'s cause check);
 * - `recovered`: a safe recovery after the error (`planRecovery` answers with a retried call's result);
 * - `hint`: the error stays, with one added hint sentence (including a refresh that keeps the original error);
 * - `nothing`: no rule addresses this error;
 * - `unknown`: the log lacks what an honest replay needs (see `FailureRecord.basis`).
 */
export type CounterfactualOutcome = 'healed' | 'recovered' | 'hint' | 'nothing' | 'unknown';

export const COUNTERFACTUAL_OUTCOMES: readonly CounterfactualOutcome[] = [
  'healed',
  'recovered',
  'hint',
  'nothing',
  'unknown',
];

/**
 * What a failure's prediction rests on: the tools the log recorded; the known tool schemas of the release that
 * wrote the log (it recorded none); the error class alone (a host decision no repair changes); or nothing (unknown).
 */
export type ReplayBasis = 'recorded-tools' | 'release-schemas' | 'error-class' | 'none';

/**
 * The context the model re-read on its next request after a failure, split the way providers bill it.
 * `source`: `measured` from the provider usage DSH recorded; `mock` from a DSH test mock's usage (not money, kept
 * out of the measured totals); `estimated` where no usage was recorded (4 characters per token); `new-user-turn`
 * when the next request answered a new user message (not charged to the failure); `none` when the session ended.
 */
export interface FailureCost {
  source: 'measured' | 'mock' | 'estimated' | 'new-user-turn' | 'none';
  uncachedInput: number;
  cacheRead: number;
  cacheWrite: number;
  /** Tokens of an estimate (source `estimated`). */
  estimated: number;
  /** An estimate that could not include the system prompt or tool schemas (the log replaced them by placeholders). */
  lowerBound: boolean;
}

/** One tool call that came back as an error, with its predicted outcome, its cost and where it is in the log. */
export interface FailureRecord {
  /** The log file (as given to the analyzer) and the 1-based line of the `tool/result`. */
  file: string;
  line: number;
  sessionId: string;
  callId: string;
  tool: string;
  /** The host's error code (`error.code` in the log), or undefined for the host's plain `Error`s. */
  code: string | undefined;
  /** core-rules category of the failure. */
  category: string;
  model: string | undefined;
  outcome: CounterfactualOutcome;
  /** The rule that would act (a catalogue id), when one would. */
  ruleId: string | undefined;
  /** For a failed run_code program: the inner sub-call whose failure was replayed. */
  innerTool: string | undefined;
  basis: ReplayBasis;
  /** The basis in words, e.g. which release's schemas, which error class, or why the outcome is unknown. */
  basisNote: string;
  /** A rule that would rewrite this call although the rewrite does not address the recorded error (not a heal). */
  unrelatedRewrite: string | undefined;
  cost: FailureCost;
  /**
   * Key for grouping repeated failed calls: core-rules' `failureFingerprint` (tool, hashed canonical arguments, error
   * code), the same "identical failure" the plugin's loop hints count; never shown.
   */
  identity: string;
  /** Epoch ms of the result, when the log records real times. */
  at: number | undefined;
  /** Redacted, bounded previews for display. */
  argumentsPreview: string;
  errorPreview: string;
}

/** A call that succeeded but that the current rules would rewrite before dispatch (a risk, reported apart). */
export interface ChangedSuccess {
  file: string;
  line: number;
  sessionId: string;
  callId: string;
  tool: string;
  ruleId: string;
  basis: ReplayBasis;
  argumentsPreview: string;
  /** What the rewrite would change, e.g. `adds "description": "Run cordis_inspect"` (redacted, bounded). */
  change: string;
  /**
   * Properties the rewrite would add that the session's own schema for the tool does not declare: the host accepted
   * the call without them, so the rule touches a call that was valid on the release that wrote the log.
   */
  undeclared: string[];
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
  /** The header's format `version` and the release it points to (see `releaseOfFormat`). */
  format: number | undefined;
  release: string;
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
  /** Inner Code-Mode sub-calls (`tool/code-dispatch` or `tool/ptc-dispatch`) and how many failed. */
  subCalls: number;
  subCallErrors: number;
  failures: FailureRecord[];
  /** Successful calls the rules would rewrite (at most 200 per session are kept; `changedSuccessCount` counts all). */
  changedSuccesses: ChangedSuccess[];
  changedSuccessCount: number;
  /** Of those, rewrites that add a property the session's schema for the tool does not declare. */
  changedSuccessUndeclared: number;
  /** Tool calls and errors per UTC day (`YYYY-MM-DD`), for logs that record real times. */
  byDay: Record<string, { calls: number; errors: number }>;
  /** Set when the plugin left evidence in this session. */
  plugin: PluginEvidence | undefined;
}

export interface CountRow {
  key: string;
  count: number;
}

/** Tokens by how they are billed. */
export interface TokenSplit {
  uncachedInput: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

export interface CostRow extends TokenSplit {
  category: string;
  failures: number;
  /** Failures whose figure is an estimate, and its tokens (not in `total`). */
  estimatedFailures: number;
  estimatedTokens: number;
  /** Failures whose only usage is a test mock's (not in `total`). */
  mockFailures: number;
}

/** A failure as the report lists it: enough to find it in the log (file, session id, line). */
export interface FailureRow {
  file: string;
  line: number;
  sessionId: string;
  callId: string;
  tool: string;
  code: string;
  category: string;
  outcome: CounterfactualOutcome;
  ruleId: string | undefined;
  basis: ReplayBasis;
  basisNote: string;
  costSource: FailureCost['source'];
  costTokens: number;
  argumentsPreview: string;
  errorPreview: string;
}

/** Failed calls with the same tool and the same arguments (object key order ignored). */
export interface RepeatedFailureGroup {
  tool: string;
  argumentsPreview: string;
  count: number;
  sessions: number;
  /** Every distinct error of the group (at most 10 kept), most frequent first. */
  errors: { errorPreview: string; code: string; count: number }[];
  /** Where the group's first failure is. */
  first: { file: string; line: number; sessionId: string };
}

/** The predicted outcomes, named as predictions (never the live plugin's measured counters). */
export interface PredictedOutcomes {
  /** Errors a repair before dispatch would prevent (the repair addresses the recorded error). */
  wouldHeal: number;
  /** Errors a recovery after the error would answer with a retried call's result. */
  wouldRecover: number;
  /** Errors that would stay, with a hint added. */
  hintOnly: number;
  /** Errors no rule addresses. */
  noRuleApplies: number;
  /** Errors the log lacks the facts to predict. */
  notReplayable: number;
}

/**
 * What another harness than DSH (the MCP healing proxy: `mcp`) recorded into the same telemetry store, read from
 * its event log: measured heals, never predicted, and kept apart from every figure computed from DSH's session logs.
 * The log keeps healed and failed calls; successful untouched calls are counted in the store's database only.
 */
export interface HarnessReport {
  harness: string;
  /** Events of this harness in the log (healed and failed calls). */
  events: number;
  healedSuccess: number;
  healedFailed: number;
  /** Calls it left as sent that failed (or that it answered with its own hint). */
  passThroughFailed: number;
  /** Healed calls by tool. */
  healedByTool: CountRow[];
  /** Healed calls by rule id. */
  healedByRule: CountRow[];
  /** Epoch ms of the first and last event. */
  from: number;
  to: number;
}

/** The telemetry store's database, as `analyze` read it (measured, every profile). */
export interface StoreReport {
  dir: string;
  /** False when the database could not be read; `note` says why (no database, no `node:sqlite`, …). */
  read: boolean;
  note?: string;
  /** Calls counted in the database (every profile and harness), and how many of them were healed. */
  calls: number;
  healed: number;
  /** Calls other harnesses counted (`harnessCalls()`), by harness and outcome. */
  harnessCalls: { harness: string; outcome: string; calls: number }[];
  /** The store's last clear: when (ms since the epoch) and how many counted calls it erased. Absent: never cleared. */
  lastClear?: { at: number; erasedCalls: number };
}

export interface AnalysisReport {
  /** 2: the report's format version (1 carried a live-dashboard stats payload; gone). */
  v: 2;
  generatedAt: number;
  sessionsDir: string | undefined;
  /** True when Ctrl-C stopped the run: the report covers the files analysed so far. */
  interrupted: boolean;
  filesSeen: number;
  filesAnalysed: number;
  skipped: { file: string; reason: string }[];
  /** What was found, first: the errors, their cost, how many the rules would settle, how many stay unknown and why. */
  findings: {
    sessions: number;
    toolCalls: number;
    errors: number;
    errorRate: number | null;
    /** Tokens re-read after failures, from recorded provider usage (mock and estimated figures are not in it). */
    measuredCost: TokenSplit;
    predicted: PredictedOutcomes;
    /** Share of the errors whose prediction is unknown, and why. */
    unknownShare: number | null;
    unknownReasons: CountRow[];
    /** (errors − wouldHeal − wouldRecover) / tool calls: a prediction, not a measurement. */
    predictedErrorRate: number | null;
    /** Successful calls the rules would rewrite. */
    changedSuccesses: number;
  };
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
    /** Sessions by the release their log format points to. */
    byRelease: CountRow[];
    /** Calls and errors per UTC day (logs with real times only). */
    byDay: { day: string; calls: number; errors: number }[];
    repeatedFailures: RepeatedFailureGroup[];
  };
  prediction: {
    outcomes: PredictedOutcomes;
    /** Failures by what their prediction rests on. */
    byBasis: CountRow[];
    byCategory: {
      category: string;
      healed: number;
      recovered: number;
      hint: number;
      nothing: number;
      unknown: number;
    }[];
    byRule: CountRow[];
    unknownReasons: CountRow[];
    /** Failures the rules would rewrite without addressing their error (not counted as heals), by rule. */
    unrelatedRewrites: CountRow[];
    changedSuccesses: {
      count: number;
      /**
       * Of `count`, rewrites that add a property the session's own schema for the tool does not declare: the host
       * accepted those calls as they were, so the rule (not the call) is wrong for the release that wrote the log.
       */
      addsUndeclared: number;
      byRule: CountRow[];
      examples: ChangedSuccess[];
    };
    predictedErrorRate: number | null;
  };
  cost: {
    /** From recorded provider usage. */
    measured: TokenSplit & { failures: number };
    /** From DSH test mocks' usage: listed, never summed into the measured cost. */
    mock: { failures: number; tokens: number };
    /** No usage recorded: 4 characters per token; `lowerBound` of them miss the system prompt or tool schemas. */
    estimated: { failures: number; tokens: number; lowerBound: number };
    /** The next request answered a new user message: not charged to the failure. */
    newUserTurn: number;
    /** The session ended after the failure: no next request. */
    noNextRequest: number;
    /** Measured tokens after failures the rules would heal or recover (a prediction of what would not be re-read). */
    afterPredictedFixes: TokenSplit;
    byCategory: CostRow[];
  };
  /** Every failure with its place in the log (at most 5,000 rows; `failuresListed` < errors says more exist). */
  failures: FailureRow[];
  failuresListed: number;
  /** Heals other harnesses (the MCP proxy) recorded in the same store's event log, measured; empty when none. */
  otherHarnesses?: HarnessReport[];
  /** The telemetry store's event log as read: lines skipped as unreadable (not JSON, a time out of range, …). */
  eventLog?: { file: string; skippedLines: number };
  /** What the telemetry store's database holds (read when it exists and this Node has `node:sqlite`). */
  store?: StoreReport;
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
}
