/**
 * The figures and words both report formats print (terminal table and HTML page), written once so the two never
 * drift: number formats, the census rows, the findings sentences, the outcome and basis labels. Every prediction is
 * worded as one ("would", "predicted"); measured figures say where they come from.
 */
import { HARNESSES } from '@dsh-tool-normalizer/telemetry-store/query';
import type { AnalysisReport, CounterfactualOutcome, ReplayBasis } from './types.js';

/** How a harness name is shown: `mcp` is the MCP healing proxy; any other name as it is. */
export function harnessName(harness: string): string {
  return harness === HARNESSES.mcp ? 'MCP healing proxy (mcp)' : harness;
}

export const percent = (value: number | null): string => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);
export const int = (value: number): string => value.toLocaleString('en-US');

/** A log's path as shown: relative to the analysed folder when it lies inside it. */
export function shownFile(report: AnalysisReport, file: string): string {
  const dir = report.sessionsDir;
  return dir && file.startsWith(`${dir}/`) ? file.slice(dir.length + 1) : file;
}

/** Outcome labels: predictions, never the live plugin's words. */
export const OUTCOME_LABELS: Record<CounterfactualOutcome, string> = {
  healed: 'would be healed before dispatch',
  recovered: 'would be recovered after the error',
  hint: 'would get a hint only',
  nothing: 'no rule applies',
  unknown: 'unknown (the log lacks the facts)',
};

/** The same outcomes in a few words, for chart labels. */
export const OUTCOME_SHORT_LABELS: Record<CounterfactualOutcome, string> = {
  healed: 'would heal',
  recovered: 'would recover',
  hint: 'hint only',
  nothing: 'no rule applies',
  unknown: 'unknown',
};

export const BASIS_LABELS: Record<ReplayBasis, string> = {
  'recorded-tools': 'tools recorded in the log',
  'release-schemas': "the release's known tool schemas",
  'error-class': 'the error class alone',
  none: 'nothing (unknown)',
};

/** The census as label/value rows, in report order. */
export function censusRows(census: AnalysisReport['census']): [string, string][] {
  return [
    ['sessions', int(census.sessions)],
    ['tool calls', int(census.toolCalls)],
    ['tool results', int(census.toolResults)],
    ['errors', int(census.errors)],
    ['error rate (measured)', percent(census.errorRate)],
    ['sessions with >= 1 error', int(census.sessionsWithErrors)],
    ['Code-Mode sub-calls (failed)', `${int(census.subCalls)} (${int(census.subCallErrors)})`],
    ['sessions without a recorded tool list', int(census.sessionsWithoutToolList)],
  ];
}

/** The opening sentences: what was found, its cost, what the rules would settle, what stays unknown and why. */
export function findingsLines(report: AnalysisReport): string[] {
  if (storeOnly(report)) return storeLines(report);
  const { findings, cost } = report;
  const { predicted } = findings;
  const share = (count: number) => percent(findings.errors > 0 ? count / findings.errors : null);
  const measured = findings.measuredCost;
  const lines = [
    `${int(findings.errors)} of ${int(findings.toolCalls)} tool calls failed (${percent(findings.errorRate)}, measured), in ${int(report.census.sessionsWithErrors)} of ${int(findings.sessions)} sessions.`,
    `Cost: the model re-read ${int(measured.total)} tokens on the request after those failures (recorded usage of ${int(cost.measured.failures)} failures): ${int(measured.uncachedInput)} uncached input, ${int(measured.cacheRead)} cache read (billed lower), ${int(measured.cacheWrite)} cache write.`,
  ];
  const apart: string[] = [];
  if (cost.mock.failures > 0) apart.push(`${int(cost.mock.failures)} with test-mock usage (not money, not counted)`);
  if (cost.estimated.failures > 0)
    apart.push(
      `${int(cost.estimated.failures)} estimated at 4 characters per token (${int(cost.estimated.tokens)} tokens${cost.estimated.lowerBound > 0 ? `; ${int(cost.estimated.lowerBound)} of them lower bounds, the log hides the system prompt or tools` : ''})`,
    );
  if (cost.newUserTurn > 0)
    apart.push(`${int(cost.newUserTurn)} followed by a new user message (that request is not charged to them)`);
  if (cost.noNextRequest > 0) apart.push(`${int(cost.noNextRequest)} ended the session`);
  if (apart.length > 0) lines.push(`Not in that figure: ${apart.join('; ')}.`);
  lines.push(
    `Predicted with the current rules (a replay of each failure, not a measurement): ${int(predicted.wouldHeal)} (${share(predicted.wouldHeal)}) would be healed before dispatch, ${int(predicted.wouldRecover)} (${share(predicted.wouldRecover)}) recovered after the error, ${int(predicted.hintOnly)} would get a hint only, ${int(predicted.noRuleApplies)} have no rule.`,
  );
  const reasons = findings.unknownReasons.map((row) => `${int(row.count)} ${row.key}`).join('; ');
  lines.push(
    `Unknown: ${int(predicted.notReplayable)} (${percent(findings.unknownShare)})${reasons ? `: ${reasons}` : ''}.`,
  );
  lines.push(
    `Predicted error rate with the current rules: ${percent(findings.predictedErrorRate)} (measured now: ${percent(findings.errorRate)}).`,
  );
  if (findings.changedSuccesses > 0) lines.push(changedSuccessesLine(report));
  lines.push(...storeLines(report));
  return lines;
}

/** What the rules would do to calls that worked, and why: a rewrite of a valid call is a risk, not a heal. */
export function changedSuccessesLine(report: AnalysisReport): string {
  const { count, addsUndeclared, byRule, examples } = report.prediction.changedSuccesses;
  const rules = byRule.map((row) => `${int(row.count)} by ${row.key}`).join(', ');
  let line = `${int(count)} calls that succeeded would be rewritten by the rules (a risk; listed below): ${rules}.`;
  if (addsUndeclared > 0) {
    const added = [...new Set(examples.flatMap((example) => example.undeclared))].map((key) => `"${key}"`).join(', ');
    line += ` ${addsUndeclared === count ? 'Each' : `${int(addsUndeclared)} of them`} would get a property (${added}) that the session's own schema for the tool does not declare: the host accepted these calls as they were (a release whose tool takes no such property), so the rule, not the call, is what is wrong there.`;
  }
  return line;
}

/** A time as ISO 8601, or a note when it is no date (a hostile or broken log must not stop the report). */
export function isoTime(at: number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? `(no valid time: ${String(at)})` : date.toISOString();
}

/** How many logs were skipped over the per-session bound (memory follows the largest session, not the folder). */
export function overBoundCount(report: AnalysisReport): number {
  return report.skipped.filter((skip) => skip.reason.startsWith('over the per-session bound')).length;
}

/** The sentences about the telemetry store and its event log: what it counted, its last clear, lines skipped. */
export function storeLines(report: AnalysisReport): string[] {
  const lines: string[] = [];
  const over = overBoundCount(report);
  if (over > 0)
    lines.push(
      `${int(over)} session logs were skipped over the per-session bound (too large once expanded, or too many calls without a result); see Skipped.`,
    );
  const { store, eventLog } = report;
  if (store?.read) {
    lines.push(
      `The telemetry store (${store.dir}) counted ${int(store.calls)} calls, ${int(store.healed)} of them healed (measured, every profile and harness).`,
    );
    lines.push(
      store.lastClear
        ? `The store was last cleared at ${isoTime(store.lastClear.at)}, erasing ${int(store.lastClear.erasedCalls)} calls.`
        : 'The store records no clear.',
    );
  } else if (store?.note) lines.push(`The telemetry store (${store.dir}): ${store.note}.`);
  if (eventLog && eventLog.skippedLines > 0)
    lines.push(`${int(eventLog.skippedLines)} unreadable lines of the event log ${eventLog.file} were skipped.`);
  return lines;
}

/** True when the report read no DSH session log (`analyze --store DIR`): its DSH tables would all be empty. */
export const storeOnly = (report: AnalysisReport): boolean => report.filesSeen === 0;

/** The cost-by-category table's cells, one row per category (the terminal and HTML reports show the same). */
export function costRows(cost: AnalysisReport['cost']): string[][] {
  return cost.byCategory.map((row) => [
    row.category,
    int(row.failures),
    int(row.uncachedInput),
    int(row.cacheRead),
    int(row.cacheWrite),
    `${int(row.estimatedTokens)} (${int(row.estimatedFailures)})`,
    int(row.mockFailures),
  ]);
}
