/**
 * Adds session analyses up into the report: census, counterfactual, cost and the before/after view of sessions
 * that already ran with the plugin. Holds only counters and a capped table of repeated failures, so memory does
 * not grow with the number of sessions.
 */
import {
  buildEvent,
  computeStats,
  Counters,
  RingBuffer,
  type TelemetryEvent,
} from '@dsh-tool-normalizer/telemetry-store/query';
import {
  COUNTERFACTUAL_OUTCOMES,
  type AnalysisReport,
  type CountRow,
  type CounterfactualOutcome,
  type SessionAnalysis,
} from './types.js';

/** Distinct failed-call identities tracked for "most repeated"; beyond it new identities are not tracked. */
const MAX_IDENTITIES = 20_000;
const TOP_ROWS = 20;
/** Failure events kept for the dashboard's recent-events table. */
const RECENT_EVENTS = 500;
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
  private readonly byRule = new Map<string, number>();
  private readonly repeated = new Map<
    string,
    { tool: string; argumentsPreview: string; errorPreview: string; count: number }
  >();
  private readonly outcomes = emptyOutcomes();
  private readonly outcomesByCategory = new Map<string, Record<CounterfactualOutcome, number>>();
  private readonly cost = new Map<string, { failures: number; measured: number; estimated: number }>();
  private failuresWithoutNextRequest = 0;
  private avoidableTokens = 0;
  private readonly plugin = { sessions: 0, toolCalls: 0, errorsSeen: 0, healed: 0, hintedErrors: 0 };
  private readonly counters = new Counters(0, { maxTools: 200, maxCategories: 100 });
  private readonly recent = new RingBuffer<TelemetryEvent>(RECENT_EVENTS);
  private eventCount = 0;
  private firstAt = Number.POSITIVE_INFINITY;

  add(session: SessionAnalysis): void {
    this.sessions += 1;
    this.toolCalls += session.toolCalls;
    this.toolResults += session.toolResults;
    this.errors += session.errors;
    this.subCalls += session.subCalls;
    this.subCallErrors += session.subCallErrors;
    if (session.errors > 0) this.sessionsWithErrors += 1;
    if (!session.toolsRecorded) this.sessionsWithoutToolList += 1;
    for (const [tool, count] of Object.entries(session.successesByTool))
      for (let index = 0; index < count; index++) this.counters.add(tool, 'ok', 'passthrough', 0);
    for (const failure of session.failures) {
      bump(this.byCode, failure.code ?? NO_CODE);
      bump(this.byCategory, failure.category);
      bump(this.byTool, failure.tool);
      bump(this.byModel, failure.model ?? NO_MODEL);
      this.outcomes[failure.outcome] += 1;
      const perCategory = this.outcomesByCategory.get(failure.category) ?? emptyOutcomes();
      perCategory[failure.outcome] += 1;
      this.outcomesByCategory.set(failure.category, perCategory);
      if (failure.ruleId && failure.outcome !== 'nothing' && failure.outcome !== 'unknown')
        bump(this.byRule, failure.ruleId);
      const cost = this.cost.get(failure.category) ?? { failures: 0, measured: 0, estimated: 0 };
      cost.failures += 1;
      if (failure.costSource === 'measured') cost.measured += failure.costTokens;
      else if (failure.costSource === 'estimated') cost.estimated += failure.costTokens;
      else this.failuresWithoutNextRequest += 1;
      this.cost.set(failure.category, cost);
      if (failure.outcome === 'healed' || failure.outcome === 'recovered') this.avoidableTokens += failure.costTokens;
      const predictedHeal = failure.outcome === 'healed' || failure.outcome === 'recovered';
      const saved = predictedHeal ? failure.costTokens : 0;
      this.counters.add(failure.tool, failure.category, predictedHeal ? 'healed-success' : 'passthrough-failed', saved);
      this.eventCount += 1;
      const event = buildEvent(
        {
          callId: failure.callId,
          tool: failure.tool,
          category: failure.category,
          outcome: predictedHeal ? 'healed-success' : 'passthrough-failed',
          ruleIds: failure.ruleId ? [failure.ruleId] : [],
          before: failure.argumentsPreview,
          changes: [`analyzer: ${failure.outcome}${failure.innerTool ? ` (inner ${failure.innerTool})` : ''}`],
          error: failure.errorPreview,
          tokensSaved: saved,
          ...(failure.model ? { model: failure.model } : {}),
        },
        `analysis-${this.eventCount}`,
        failure.at ?? 0,
      );
      this.recent.push(event);
      if (failure.at !== undefined) this.firstAt = Math.min(this.firstAt, failure.at);
      const seen = this.repeated.get(failure.identity);
      if (seen) seen.count += 1;
      else if (this.repeated.size < MAX_IDENTITIES) {
        this.repeated.set(failure.identity, {
          tool: failure.tool,
          argumentsPreview: failure.argumentsPreview,
          errorPreview: failure.errorPreview,
          count: 1,
        });
      }
    }
    if (session.plugin) {
      this.plugin.sessions += 1;
      this.plugin.toolCalls += session.toolCalls;
      this.plugin.errorsSeen += session.errors;
      this.plugin.healed += session.plugin.healedCallIds.length;
      this.plugin.hintedErrors += session.plugin.hintedErrors;
    }
  }

  build(meta: {
    sessionsDir: string | undefined;
    interrupted: boolean;
    filesSeen: number;
    filesAnalysed: number;
    skipped: { file: string; reason: string }[];
    now: number;
  }): AnalysisReport {
    const costRows = [...this.cost].map(([category, cost]) => ({
      category,
      failures: cost.failures,
      tokens: cost.measured + cost.estimated,
      measuredTokens: cost.measured,
      estimatedTokens: cost.estimated,
    }));
    costRows.sort((a, b) => b.tokens - a.tokens || a.category.localeCompare(b.category));
    const measuredTokens = costRows.reduce((sum, row) => sum + row.measuredTokens, 0);
    const estimatedTokens = costRows.reduce((sum, row) => sum + row.estimatedTokens, 0);
    const avoided = this.outcomes.healed + this.outcomes.recovered;
    this.counters.since = Number.isFinite(this.firstAt) ? this.firstAt : meta.now;
    const stats = computeStats({
      counters: this.counters,
      recent: this.recent.newestFirst(),
      query: { limit: RECENT_EVENTS },
      now: meta.now,
      // An analysis has no store: nothing failed to be written, so the dashboard shows no storage notice.
      storage: {
        logging: true,
        persistPassthrough: true,
        rejectedInputs: 0,
        skippedLines: meta.skipped.length,
        dropped: 0,
        prunedEvents: 0,
        storedEvents: 0,
      },
    });
    return {
      stats,
      v: 1,
      generatedAt: meta.now,
      sessionsDir: meta.sessionsDir,
      interrupted: meta.interrupted,
      filesSeen: meta.filesSeen,
      filesAnalysed: meta.filesAnalysed,
      skipped: meta.skipped,
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
        repeatedFailures: [...this.repeated.values()]
          .filter((row) => row.count > 1)
          .sort((a, b) => b.count - a.count)
          .slice(0, TOP_ROWS),
      },
      counterfactual: {
        outcomes: { ...this.outcomes },
        byCategory: [...this.outcomesByCategory]
          .map(([category, counts]) => ({ category, ...counts }))
          .sort(
            (a, b) =>
              COUNTERFACTUAL_OUTCOMES.reduce((sum, key) => sum + b[key] - a[key], 0) ||
              a.category.localeCompare(b.category),
          ),
        byRule: rows(this.byRule),
        wouldBeErrorRate: rate(this.errors - avoided, this.toolCalls),
      },
      cost: {
        tokens: measuredTokens + estimatedTokens,
        measuredTokens,
        estimatedTokens,
        failuresWithoutNextRequest: this.failuresWithoutNextRequest,
        avoidableTokens: this.avoidableTokens,
        byCategory: costRows,
      },
      plugin: {
        ...this.plugin,
        errorRateWith: rate(this.plugin.errorsSeen, this.plugin.toolCalls),
        errorRateWithout: rate(this.plugin.errorsSeen + this.plugin.healed, this.plugin.toolCalls),
      },
    };
  }
}
