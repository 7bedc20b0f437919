/**
 * The terminal rendering of a report: plain aligned tables, no colours, so it reads the same in a terminal, a
 * pipe or a CI log. Every text that came from a log is already redacted and bounded in the report.
 */
import { censusRows, int, percent } from './format-figures.js';
import type { AnalysisReport, CountRow } from './types.js';

const oneLine = (text: string): string => text.replace(/\s+/g, ' ');

function table(headers: string[], body: string[][], rightAligned: boolean[] = []): string[] {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...body.map((row) => (row[column] ?? '').length)),
  );
  const cell = (text: string, column: number) =>
    rightAligned[column] ? text.padStart(widths[column] ?? 0) : text.padEnd(widths[column] ?? 0);
  const line = (row: string[]) => `  ${row.map(cell).join('  ')}`.trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)];
}

function countTable(title: string, rows: CountRow[], total: number, limit = 12): string[] {
  if (rows.length === 0) return [];
  const shown = rows
    .slice(0, limit)
    .map((row) => [row.key, int(row.count), total > 0 ? percent(row.count / total) : 'n/a']);
  const rest = rows.slice(limit).reduce((sum, row) => sum + row.count, 0);
  if (rest > 0) shown.push([`(${rows.length - limit} more)`, int(rest), percent(rest / total)]);
  return ['', title, ...table(['', 'errors', 'share'], shown, [false, true, true])];
}

export function formatReport(report: AnalysisReport): string {
  const { census, counterfactual, cost, plugin } = report;
  const out: string[] = [];
  out.push(`DSH session analysis${report.sessionsDir ? ` of ${report.sessionsDir}` : ''}`);
  if (report.interrupted)
    out.push(
      `INTERRUPTED: analysed ${report.filesAnalysed} of ${report.filesSeen} files; the figures cover those only.`,
    );
  out.push('', 'Census');
  out.push(...table(['', ''], censusRows(census), [false, true]));
  out.push(...countTable('Errors by host code', census.byCode, census.errors));
  out.push(...countTable('Errors by category (core-rules)', census.byCategory, census.errors));
  out.push(...countTable('Errors by tool', census.byTool, census.errors));
  out.push(...countTable('Errors by model', census.byModel, census.errors));
  if (census.repeatedFailures.length > 0) {
    out.push('', 'Most repeated identical failed calls');
    out.push(
      ...table(
        ['count', 'tool', 'arguments', 'error'],
        census.repeatedFailures
          .slice(0, 10)
          .map((row) => [
            int(row.count),
            row.tool,
            oneLine(row.argumentsPreview).slice(0, 60),
            oneLine(row.errorPreview).slice(0, 60),
          ]),
        [true],
      ),
    );
  }
  const outcomes = counterfactual.outcomes;
  out.push('', 'Counterfactual: every failed call replayed through the current core-rules');
  out.push(
    ...table(
      ['', 'failures', 'share'],
      [
        [
          'healed before dispatch',
          int(outcomes.healed),
          percent(census.errors ? outcomes.healed / census.errors : null),
        ],
        [
          'recoverable after the error',
          int(outcomes.recovered),
          percent(census.errors ? outcomes.recovered / census.errors : null),
        ],
        ['hint only', int(outcomes.hint), percent(census.errors ? outcomes.hint / census.errors : null)],
        ['nothing', int(outcomes.nothing), percent(census.errors ? outcomes.nothing / census.errors : null)],
        [
          'not replayable (no tool list in the log)',
          int(outcomes.unknown),
          percent(census.errors ? outcomes.unknown / census.errors : null),
        ],
      ],
      [false, true, true],
    ),
  );
  out.push(
    `  error rate now ${percent(census.errorRate)}; with the current rules it would be ${percent(counterfactual.wouldBeErrorRate)}`,
  );
  if (counterfactual.byCategory.length > 0) {
    out.push('', 'Counterfactual by category');
    out.push(
      ...table(
        ['category', 'healed', 'recovered', 'hint', 'nothing', 'unknown'],
        counterfactual.byCategory.map((row) => [
          row.category,
          int(row.healed),
          int(row.recovered),
          int(row.hint),
          int(row.nothing),
          int(row.unknown),
        ]),
        [false, true, true, true, true, true],
      ),
    );
  }
  out.push('', 'Cost: context the model re-read on its next request after each failure');
  if (cost.byCategory.length > 0) {
    out.push(
      ...table(
        ['category', 'failures', 'tokens', 'of which estimated'],
        cost.byCategory.map((row) => [row.category, int(row.failures), int(row.tokens), int(row.estimatedTokens)]),
        [false, true, true, true],
      ),
    );
  }
  out.push(
    `  total ${int(cost.tokens)} tokens (${int(cost.measuredTokens)} from recorded usage, ${int(cost.estimatedTokens)} estimated at 4 characters per token where no usage was recorded)`,
  );
  out.push(`  re-read after failures the rules would heal or recover: ${int(cost.avoidableTokens)} tokens`);
  if (cost.failuresWithoutNextRequest > 0)
    out.push(
      `  ${int(cost.failuresWithoutNextRequest)} failures had no next model request (session ended): no cost counted`,
    );
  if (plugin.sessions > 0) {
    out.push('', `Sessions that already ran with dsh-tool-normalizer: ${int(plugin.sessions)}`);
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
  if (report.skipped.length > 0) {
    out.push('', `Skipped (${report.skipped.length})`);
    for (const skip of report.skipped) out.push(`  ${skip.file}: ${skip.reason}`);
  }
  return `${out.join('\n')}\n`;
}
