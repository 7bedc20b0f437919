/**
 * Adds session analyses up into the report: findings first, then census, predictions, cost and the before/after
 * view of sessions that already ran with the plugin. Holds counters, a capped table of repeated failures and a
 * capped list of failure rows, so memory does not grow with the number of sessions.
 */
import {
  type AnalysisReport,
  COUNTERFACTUAL_OUTCOMES,
  type ChangedSuccess,
  type CounterfactualOutcome,
  type CountRow,
  type FailureRecord,
  type FailureRow,
  type PredictedOutcomes,
  type SessionAnalysis,
  type TokenSplit,
} from './types.js';

/** Distinct failed-call identities tracked for "repeated"; beyond it new identities are not tracked. */
const MAX_IDENTITIES = 20_000;
const TOP_ROWS = 20;
const MAX_GROUP_ERRORS = 10;
/** Failure rows listed in the report (each with file, session and line). */
const MAX_FAILURE_ROWS = 5_000;
const MAX_CHANGED_EXAMPLES = 50;
const NO_CODE = '(no code)';
const NO_MODEL = '(not recorded)';

const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function rows(map: Map<string, number>, limit = Number.POSITIVE_INFINITY): CountRow[] {
  return [...map]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
    .slice(0, limit);
}

function emptyOutcomes(): Record<CounterfactualOutcome, number> {
  return { healed: 0, recovered: 0, hint: 0, nothing: 0, unknown: 0 };
}

const emptySplit = (): TokenSplit => ({ uncachedInput: 0, cacheRead: 0, cacheWrite: 0, total: 0 });

function addSplit(split: TokenSplit, failure: FailureRecord): void {
  split.uncachedInput += failure.cost.uncachedInput;
  split.cacheRead += failure.cost.cacheRead;
  split.cacheWrite += failure.cost.cacheWrite;
  split.total += failure.cost.uncachedInput + failure.cost.cacheRead + failure.cost.cacheWrite;
}

/** The outcome counts under their prediction names. */
export function predictedOutcomes(outcomes: Record<CounterfactualOutcome, number>): PredictedOutcomes {
  return {
    wouldHeal: outcomes.healed,
    wouldRecover: outcomes.recovered,
    hintOnly: outcomes.hint,
    noRuleApplies: outcomes.nothing,
    notReplayable: outcomes.unknown,
  };
}

/** The cost figure of a failure as listed: measured or mock tokens, or the estimate. */
export function costTokens(failure: FailureRecord): number {
  const { cost } = failure;
  if (cost.source === 'estimated') return cost.estimated;
  if (cost.source === 'measured' || cost.source === 'mock')
    return cost.uncachedInput + cost.cacheRead + cost.cacheWrite;
  return 0;
}

/** The reason a failure's prediction is unknown, reduced to a short key for counting. */
function unknownReason(failure: FailureRecord): string {
  const note = failure.basisNote;
  if (note.startsWith('unknown tool')) return 'unknown tool, and the log records no tool list';
  if (note.startsWith('no tool/call')) return 'no tool/call event for the result';
  return note.replace(/^the log records no tool list and /, 'no tool list: ');
}

interface Group {
  tool: string;
  argumentsPreview: string;
  count: number;
  sessions: Set<string>;
  errors: Map<string, { code: string; count: number }>;
  first: { file: string; line: number; sessionId: string };
}

export class ReportBuilder {
  private sessions = 0;
  private toolCalls = 0;
  private toolResults = 0;
  private errors = 0;
  private sessionsWithErrors = 0;
  private sessionsWithoutToolList = 0;
  private subCalls = 0;
  private subCallErrors = 0;
  private readonly byCode = new Map<string, number>();
  private readonly byCategory = new Map<string, number>();
  private readonly byTool = new Map<string, number>();
  private readonly byModel = new Map<string, number>();
  private readonly byRelease = new Map<string, number>();
  private readonly byDay = new Map<string, { calls: number; errors: number }>();
  private readonly byRule = new Map<string, number>();
  private readonly byBasis = new Map<string, number>();
  private readonly unknownReasons = new Map<string, number>();
  private readonly unrelatedRewrites = new Map<string, number>();
  private readonly groups = new Map<string, Group>();
  private readonly outcomes = emptyOutcomes();
  private readonly outcomesByCategory = new Map<string, Record<CounterfactualOutcome, number>>();
  private readonly costByCategory = new Map<
    string,
    TokenSplit & { failures: number; estimatedFailures: number; estimatedTokens: number; mockFailures: number }
  >();
  private readonly measured = { ...emptySplit(), failures: 0 };
  private readonly mock = { failures: 0, tokens: 0 };
  private readonly estimated = { failures: 0, tokens: 0, lowerBound: 0 };
  private newUserTurn = 0;
  private noNextRequest = 0;
  private readonly afterPredictedFixes = emptySplit();
  private readonly failureRows: FailureRow[] = [];
  private changedSuccesses = 0;
  private changedUndeclared = 0;
  private readonly changedByRule = new Map<string, number>();
  private readonly changedExamples: ChangedSuccess[] = [];
  private readonly plugin = { sessions: 0, toolCalls: 0, errorsSeen: 0, healed: 0, hintedErrors: 0 };

  add(session: SessionAnalysis): void {
    this.sessions += 1;
    this.toolCalls += session.toolCalls;
    this.toolResults += session.toolResults;
    this.errors += session.errors;
    this.subCalls += session.subCalls;
    this.subCallErrors += session.subCallErrors;
    if (session.errors > 0) this.sessionsWithErrors += 1;
    if (!session.toolsRecorded) this.sessionsWithoutToolList += 1;
    bump(this.byRelease, session.release);
    for (const [day, counts] of Object.entries(session.byDay)) {
      const total = this.byDay.get(day) ?? { calls: 0, errors: 0 };
      total.calls += counts.calls;
      total.errors += counts.errors;
      this.byDay.set(day, total);
    }
    for (const failure of session.failures) this.addFailure(failure);
    this.changedSuccesses += session.changedSuccessCount;
    this.changedUndeclared += session.changedSuccessUndeclared;
    for (const changed of session.changedSuccesses) {
      bump(this.changedByRule, changed.ruleId);
      if (this.changedExamples.length < MAX_CHANGED_EXAMPLES) this.changedExamples.push(changed);
    }
    if (session.plugin) {
      this.plugin.sessions += 1;
      this.plugin.toolCalls += session.toolCalls;
      this.plugin.errorsSeen += session.errors;
      this.plugin.healed += session.plugin.healedCallIds.length;
      this.plugin.hintedErrors += session.plugin.hintedErrors;
    }
  }

  private addFailure(failure: FailureRecord): void {
    bump(this.byCode, failure.code ?? NO_CODE);
    bump(this.byCategory, failure.category);
    bump(this.byTool, failure.tool);
    bump(this.byModel, failure.model ?? NO_MODEL);
    bump(this.byBasis, failure.basis);
    this.outcomes[failure.outcome] += 1;
    if (failure.outcome === 'unknown') bump(this.unknownReasons, unknownReason(failure));
    if (failure.unrelatedRewrite) bump(this.unrelatedRewrites, failure.unrelatedRewrite);
    const perCategory = this.outcomesByCategory.get(failure.category) ?? emptyOutcomes();
    perCategory[failure.outcome] += 1;
    this.outcomesByCategory.set(failure.category, perCategory);
    if (failure.ruleId && failure.outcome !== 'nothing' && failure.outcome !== 'unknown')
      bump(this.byRule, failure.ruleId);
    this.addCost(failure);
    if (this.failureRows.length < MAX_FAILURE_ROWS)
      this.failureRows.push({
        file: failure.file,
        line: failure.line,
        sessionId: failure.sessionId,
        callId: failure.callId,
        tool: failure.tool,
        code: failure.code ?? NO_CODE,
        category: failure.category,
        outcome: failure.outcome,
        ruleId: failure.ruleId,
        basis: failure.basis,
        basisNote: failure.basisNote,
        costSource: failure.cost.source,
        costTokens: costTokens(failure),
        argumentsPreview: failure.argumentsPreview,
        errorPreview: failure.errorPreview,
      });
    let group = this.groups.get(failure.identity);
    if (!group && this.groups.size < MAX_IDENTITIES) {
      group = {
        tool: failure.tool,
        argumentsPreview: failure.argumentsPreview,
        count: 0,
        sessions: new Set(),
        errors: new Map(),
        first: { file: failure.file, line: failure.line, sessionId: failure.sessionId },
      };
      this.groups.set(failure.identity, group);
    }
    if (group) {
      group.count += 1;
      group.sessions.add(`${failure.file}\u0000${failure.sessionId}`);
      const seen = group.errors.get(failure.errorPreview);
      if (seen) seen.count += 1;
      else if (group.errors.size < MAX_GROUP_ERRORS)
        group.errors.set(failure.errorPreview, { code: failure.code ?? NO_CODE, count: 1 });
    }
  }

  private addCost(failure: FailureRecord): void {
    const row = this.costByCategory.get(failure.category) ?? {
      ...emptySplit(),
      failures: 0,
      estimatedFailures: 0,
      estimatedTokens: 0,
      mockFailures: 0,
    };
    row.failures += 1;
    const { cost } = failure;
    if (cost.source === 'measured') {
      addSplit(row, failure);
      addSplit(this.measured, failure);
      this.measured.failures += 1;
      if (failure.outcome === 'healed' || failure.outcome === 'recovered') addSplit(this.afterPredictedFixes, failure);
    } else if (cost.source === 'mock') {
      row.mockFailures += 1;
      this.mock.failures += 1;
      this.mock.tokens += costTokens(failure);
    } else if (cost.source === 'estimated') {
      row.estimatedFailures += 1;
      row.estimatedTokens += cost.estimated;
      this.estimated.failures += 1;
      this.estimated.tokens += cost.estimated;
      if (cost.lowerBound) this.estimated.lowerBound += 1;
    } else if (cost.source === 'new-user-turn') this.newUserTurn += 1;
    else this.noNextRequest += 1;
    this.costByCategory.set(failure.category, row);
  }

  build(meta: {
    sessionsDir: string | undefined;
    interrupted: boolean;
    filesSeen: number;
    filesAnalysed: number;
    skipped: { file: string; reason: string }[];
    now: number;
  }): AnalysisReport {
    const costRows = [...this.costByCategory].map(([category, cost]) => ({ category, ...cost }));
    costRows.sort((a, b) => b.total - a.total || b.failures - a.failures || a.category.localeCompare(b.category));
    const avoided = this.outcomes.healed + this.outcomes.recovered;
    const predicted = predictedOutcomes(this.outcomes);
    const predictedErrorRate = rate(this.errors - avoided, this.toolCalls);
    const unknownReasons = rows(this.unknownReasons);
    const { failures: _measuredFailures, ...measuredSplit } = this.measured;
    return {
      v: 2,
      generatedAt: meta.now,
      sessionsDir: meta.sessionsDir,
      interrupted: meta.interrupted,
      filesSeen: meta.filesSeen,
      filesAnalysed: meta.filesAnalysed,
      skipped: meta.skipped,
      findings: {
        sessions: this.sessions,
        toolCalls: this.toolCalls,
        errors: this.errors,
        errorRate: rate(this.errors, this.toolCalls),
        measuredCost: measuredSplit,
        predicted,
        unknownShare: rate(this.outcomes.unknown, this.errors),
        unknownReasons,
        predictedErrorRate,
        changedSuccesses: this.changedSuccesses,
      },
      census: {
        sessions: this.sessions,
        toolCalls: this.toolCalls,
        toolResults: this.toolResults,
        errors: this.errors,
        errorRate: rate(this.errors, this.toolCalls),
        sessionsWithErrors: this.sessionsWithErrors,
        sessionsWithoutToolList: this.sessionsWithoutToolList,
        subCalls: this.subCalls,
        subCallErrors: this.subCallErrors,
        byCode: rows(this.byCode),
        byCategory: rows(this.byCategory),
        byTool: rows(this.byTool),
        byModel: rows(this.byModel),
        byRelease: rows(this.byRelease),
        byDay: [...this.byDay].map(([day, counts]) => ({ day, ...counts })).sort((a, b) => a.day.localeCompare(b.day)),
        repeatedFailures: [...this.groups.values()]
          .filter((group) => group.count > 1)
          .sort((a, b) => b.count - a.count || b.sessions.size - a.sessions.size)
          .slice(0, TOP_ROWS)
          .map((group) => ({
            tool: group.tool,
            argumentsPreview: group.argumentsPreview,
            count: group.count,
            sessions: group.sessions.size,
            errors: [...group.errors]
              .map(([errorPreview, error]) => ({ errorPreview, ...error }))
              .sort((a, b) => b.count - a.count),
            first: group.first,
          })),
      },
      prediction: {
        outcomes: predicted,
        byBasis: rows(this.byBasis),
        byCategory: [...this.outcomesByCategory]
          .map(([category, counts]) => ({ category, ...counts }))
          .sort(
            (a, b) =>
              COUNTERFACTUAL_OUTCOMES.reduce((sum, key) => sum + b[key] - a[key], 0) ||
              a.category.localeCompare(b.category),
          ),
        byRule: rows(this.byRule),
        unknownReasons,
        unrelatedRewrites: rows(this.unrelatedRewrites),
        changedSuccesses: {
          count: this.changedSuccesses,
          addsUndeclared: this.changedUndeclared,
          byRule: rows(this.changedByRule),
          examples: this.changedExamples,
        },
        predictedErrorRate,
      },
      cost: {
        measured: { ...this.measured },
        mock: { ...this.mock },
        estimated: { ...this.estimated },
        newUserTurn: this.newUserTurn,
        noNextRequest: this.noNextRequest,
        afterPredictedFixes: { ...this.afterPredictedFixes },
        byCategory: costRows,
      },
      failures: this.failureRows,
      failuresListed: this.failureRows.length,
      plugin: {
        ...this.plugin,
        errorRateWith: rate(this.plugin.errorsSeen, this.plugin.toolCalls),
        errorRateWithout: rate(this.plugin.errorsSeen + this.plugin.healed, this.plugin.toolCalls),
      },
    };
  }
}
