/**
 * The terminal rendering of a report: what was found first, then plain aligned tables, no colours, so it reads the
 * same in a terminal, a pipe or a CI log. Every text that came from a log is already redacted and bounded.
 */
import { TOKENS_SAVED_DEFINITION } from '@dsh-tool-normalizer/telemetry-store/outcomes';
import {
  BASIS_LABELS,
  censusRows,
  costRows,
  findingsLines,
  int,
  OUTCOME_LABELS,
  percent,
  harnessName,
  shownFile,
} from './format-figures.js';
import { COUNTERFACTUAL_OUTCOMES, type AnalysisReport, type CountRow, type ReplayBasis } from './types.js';

const oneLine = (text: string): string => text.replace(/\s+/g, ' ');
const FAILURES_SHOWN = 30;

function table(headers: string[], body: string[][], rightAligned: boolean[] = []): string[] {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...body.map((row) => (row[column] ?? '').length)),
  );
  const cell = (text: string, column: number) =>
    rightAligned[column] ? text.padStart(widths[column] ?? 0) : text.padEnd(widths[column] ?? 0);
  const line = (row: string[]) => `  ${row.map(cell).join('  ')}`.trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)];
}

function countTable(title: string, rows: CountRow[], total: number, label = 'errors', limit = 12): string[] {
  if (rows.length === 0) return [];
  const shown = rows
    .slice(0, limit)
    .map((row) => [row.key, int(row.count), total > 0 ? percent(row.count / total) : 'n/a']);
  const rest = rows.slice(limit).reduce((sum, row) => sum + row.count, 0);
  if (rest > 0) shown.push([`(${rows.length - limit} more)`, int(rest), percent(rest / total)]);
  return ['', title, ...table(['', label, 'share'], shown, [false, true, true])];
}

export function formatReport(report: AnalysisReport): string {
  const { census, prediction, cost, plugin } = report;
  const out: string[] = [];
  out.push(`DSH session analysis${report.sessionsDir ? ` of ${report.sessionsDir}` : ''}`);
  if (report.interrupted)
    out.push(
      `INTERRUPTED: analysed ${report.filesAnalysed} of ${report.filesSeen} files; the figures cover those only.`,
    );
  out.push('', 'What was found');
  for (const line of findingsLines(report)) out.push(`  ${line}`);

  out.push('', 'Census (measured from the logs)');
  out.push(...table(['', ''], censusRows(census), [false, true]));
  out.push(...countTable('Errors by host code', census.byCode, census.errors));
  out.push(...countTable('Errors by category (core-rules)', census.byCategory, census.errors));
  out.push(...countTable('Errors by tool', census.byTool, census.errors));
  out.push(...countTable('Errors by model', census.byModel, census.errors));
  out.push(...countTable('Sessions by release (log format)', census.byRelease, census.sessions, 'sessions'));

  out.push('', 'Prediction: every failed call replayed through the current core-rules');
  const outcomeCounts = {
    healed: prediction.outcomes.wouldHeal,
    recovered: prediction.outcomes.wouldRecover,
    hint: prediction.outcomes.hintOnly,
    nothing: prediction.outcomes.noRuleApplies,
    unknown: prediction.outcomes.notReplayable,
  };
  out.push(
    ...table(
      ['', 'failures', 'share'],
      COUNTERFACTUAL_OUTCOMES.map((outcome) => [
        OUTCOME_LABELS[outcome],
        int(outcomeCounts[outcome]),
        percent(census.errors ? outcomeCounts[outcome] / census.errors : null),
      ]),
      [false, true, true],
    ),
  );
  out.push(
    ...countTable(
      'Predictions rest on',
      prediction.byBasis.map((row) => ({ key: BASIS_LABELS[row.key as ReplayBasis] ?? row.key, count: row.count })),
      census.errors,
    ),
  );
  out.push(...countTable('Why unknown', prediction.unknownReasons, census.errors));
  if (prediction.byRule.length > 0) out.push(...countTable('By rule', prediction.byRule, census.errors));
  if (prediction.unrelatedRewrites.length > 0)
    out.push(
      ...countTable(
        'Rewrites that would not address the recorded error (not counted as heals)',
        prediction.unrelatedRewrites,
        census.errors,
      ),
    );
  if (prediction.changedSuccesses.count > 0) {
    out.push('', `Successful calls the rules would rewrite: ${int(prediction.changedSuccesses.count)}`);
    out.push(
      ...table(
        ['rule', 'tool', 'where', 'arguments'],
        prediction.changedSuccesses.examples
          .slice(0, 10)
          .map((row) => [
            row.ruleId,
            row.tool,
            `${shownFile(report, row.file)}:${row.line}`,
            oneLine(row.argumentsPreview).slice(0, 50),
          ]),
      ),
    );
  }

  out.push('', 'Cost: context the model re-read on its next request after each failure');
  if (cost.byCategory.length > 0) {
    out.push(
      ...table(
        ['category', 'failures', 'uncached input', 'cache read', 'cache write', 'estimated', 'mock'],
        costRows(cost),
        [false, true, true, true, true, true, true],
      ),
    );
  }
  out.push(
    `  measured total ${int(cost.measured.total)} tokens; tokens saved, predicted (failures the rules would heal or recover): ${int(cost.afterPredictedFixes.total)}`,
    `  tokens saved = ${TOKENS_SAVED_DEFINITION.en}; the live dashboard measures the same quantity`,
  );

  if (census.repeatedFailures.length > 0) {
    out.push('', 'Repeated failed calls (same tool and arguments, key order ignored)');
    out.push(
      ...table(
        ['count', 'sessions', 'tool', 'arguments', 'errors'],
        census.repeatedFailures
          .slice(0, 10)
          .map((row) => [
            int(row.count),
            int(row.sessions),
            row.tool,
            oneLine(row.argumentsPreview).slice(0, 50),
            row.errors.map((error) => `${error.count}x ${oneLine(error.errorPreview).slice(0, 50)}`).join(' | '),
          ]),
        [true, true],
      ),
    );
  }

  if (report.failures.length > 0) {
    out.push(
      '',
      `Failures (first ${Math.min(FAILURES_SHOWN, report.failures.length)} of ${int(census.errors)}; --json and --html list more)`,
    );
    out.push(
      ...table(
        ['where', 'tool', 'code', 'prediction', 'basis', 'error'],
        report.failures
          .slice(0, FAILURES_SHOWN)
          .map((row) => [
            `${shownFile(report, row.file)}:${row.line}`,
            row.tool,
            row.code,
            row.outcome,
            row.basis,
            oneLine(row.errorPreview).slice(0, 50),
          ]),
      ),
    );
  }

  if (plugin.sessions > 0) {
    out.push('', `Sessions that already ran with dsh-tool-normalizer: ${int(plugin.sessions)} (measured)`);
    out.push(
      ...table(
        ['', 'without plugin', 'with plugin'],
        [
          ['tool calls', int(plugin.toolCalls), int(plugin.toolCalls)],
          ['errors the model saw', int(plugin.errorsSeen + plugin.healed), int(plugin.errorsSeen)],
          ['error rate', percent(plugin.errorRateWithout), percent(plugin.errorRateWith)],
        ],
        [false, true, true],
      ),
    );
    out.push(
      `  ${int(plugin.healed)} calls healed or recovered by the plugin; ${int(plugin.hintedErrors)} errors carried its hint`,
    );
  }
  for (const other of report.otherHarnesses ?? []) {
    const healed = other.healedSuccess + other.healedFailed;
    out.push(
      '',
      `Recorded by another harness: ${harnessName(other.harness)} (measured from the store's event log, not from DSH sessions)`,
      `  ${int(healed)} calls healed (${int(other.healedSuccess)} then succeeded, ${int(other.healedFailed)} still failed); ${int(other.passThroughFailed)} failed calls left as sent`,
      `  ${new Date(other.from).toISOString()} to ${new Date(other.to).toISOString()}`,
    );
    out.push(...countTable('Healed by tool', other.healedByTool, healed, 'healed'));
    out.push(...countTable('Healed by rule', other.healedByRule, healed, 'healed'));
  }
  if (report.skipped.length > 0) {
    out.push('', `Skipped (${report.skipped.length})`);
    for (const skip of report.skipped) out.push(`  ${skip.file}: ${skip.reason}`);
  }
  return `${out.join('\n')}\n`;
}
