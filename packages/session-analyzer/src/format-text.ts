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
  isoTime,
  shownFile,
  storeOnly,
} from './format-figures.js';
import { visibleText } from './visible-text.js';
import { COUNTERFACTUAL_OUTCOMES, type AnalysisReport, type CountRow, type ReplayBasis } from './types.js';

const oneLine = (text: string): string => text.replace(/\s+/g, ' ');
const FAILURES_SHOWN = 30;
/** Every line of the terminal report fits this many columns (tables shrink their text columns to fit). */
export const TERMINAL_COLUMNS = 100;
const MIN_COLUMN = 8;
const MIN_PATH_COLUMN = 48;

/** `text` cut to `width` characters with `…`: at its end, or at its start (a path's tail says the most). */
function cut(text: string, width: number, keepTail: boolean): string {
  if (text.length <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  return keepTail ? `…${text.slice(text.length - width + 1)}` : `${text.slice(0, width - 1)}…`;
}

interface TextColumn {
  header: string;
  right?: boolean;
  /** A file path: cut at its start when too wide (the session folder and line stay), and shrunk last. */
  path?: boolean;
}

/**
 * A plain aligned table that fits {@link TERMINAL_COLUMNS}: every cell is made visible first (control characters
 * escaped), then the widest text columns shrink until the table fits; numbers are never cut.
 */
function table(
  columns: (TextColumn | string)[],
  body: string[][],
  rightAligned: boolean[] = [],
  details?: string[],
): string[] {
  const specs: TextColumn[] = columns.map((column, index) =>
    typeof column === 'string' ? { header: column, right: rightAligned[index] ?? false } : column,
  );
  const rows = body.map((row) => row.map((cell) => visibleText(oneLine(cell))));
  const widths = specs.map((spec, column) =>
    Math.max(spec.header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const total = () => 2 + widths.reduce((sum, width) => sum + width, 0) + 2 * (widths.length - 1);
  while (total() > TERMINAL_COLUMNS) {
    let widest = -1;
    specs.forEach((spec, column) => {
      const least = Math.max(spec.path ? MIN_PATH_COLUMN : MIN_COLUMN, spec.header.length);
      if (spec.right || (widths[column] ?? 0) <= least) return;
      if (widest < 0 || (widths[column] ?? 0) > (widths[widest] ?? 0)) widest = column;
    });
    if (widest < 0) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  const cell = (text: string, column: number) => {
    const spec = specs[column] as TextColumn;
    const width = widths[column] ?? 0;
    const shown = cut(text, width, spec.path === true);
    return spec.right ? shown.padStart(width) : shown.padEnd(width);
  };
  const line = (row: string[]) => `  ${row.map(cell).join('  ')}`.trimEnd();
  const detail = (index: number) => {
    const text = details?.[index];
    return text ? [`      ${cut(visibleText(oneLine(text)), TERMINAL_COLUMNS - 6, false)}`] : [];
  };
  return [
    line(specs.map((spec) => spec.header)),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.flatMap((row, index) => [line(row), ...detail(index)]),
  ];
}

/** A sentence wrapped at word boundaries to {@link TERMINAL_COLUMNS}, its continuation lines indented further. */
function wrap(text: string, indent = '  ', next = '    '): string[] {
  const room = TERMINAL_COLUMNS - next.length;
  // a word longer than a line (a path) is split across lines rather than left to overflow
  const words = visibleText(oneLine(text))
    .split(' ')
    .flatMap((word) => (word.length <= room ? [word] : (word.match(new RegExp(`.{1,${room}}`, 'g')) ?? [word])));
  const lines: string[] = [];
  let current = indent;
  for (const word of words) {
    const start = current === indent || current === next;
    if (!start && current.length + 1 + word.length > TERMINAL_COLUMNS) {
      lines.push(current);
      current = next + word;
    } else current += (start ? '' : ' ') + word;
  }
  lines.push(current);
  return lines;
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
  const onlyStore = storeOnly(report);
  const title = onlyStore ? 'Telemetry store analysis (no DSH session logs read)' : 'DSH session analysis';
  out.push(`${title}${report.sessionsDir ? ` of ${report.sessionsDir}` : ''}`);
  if (report.interrupted)
    out.push(
      ...wrap(
        `INTERRUPTED: analysed ${report.filesAnalysed} of ${report.filesSeen} files; the figures cover those only.`,
        '',
        '  ',
      ),
    );
  out.push('', 'What was found');
  for (const line of findingsLines(report)) out.push(...wrap(line));

  if (!onlyStore) {
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
          [{ header: 'where', path: true }, { header: 'tool' }, { header: 'rule' }],
          prediction.changedSuccesses.examples
            .slice(0, 10)
            .map((row) => [`${shownFile(report, row.file)}:${row.line}`, row.tool, row.ruleId]),
          [],
          prediction.changedSuccesses.examples
            .slice(0, 10)
            .map(
              (row) =>
                `${row.change}${row.undeclared.length > 0 ? ` (${row.undeclared.join(', ')}: not in the session's schema)` : ''}`,
            ),
        ),
      );
    }

    out.push('', 'Cost: context the model re-read on its next request after each failure');
    if (cost.byCategory.length > 0) {
      out.push(
        ...table(
          ['category', 'failures', 'uncached', 'cache read', 'cache write', 'estimated', 'mock'],
          costRows(cost),
          [false, true, true, true, true, true, true],
        ),
      );
    }
    out.push(
      ...wrap(
        `measured total ${int(cost.measured.total)} tokens; tokens saved, predicted (failures the rules would heal or recover): ${int(cost.afterPredictedFixes.total)}`,
      ),
      ...wrap(`tokens saved = ${TOKENS_SAVED_DEFINITION.en}; the live dashboard measures the same quantity`),
    );

    if (census.repeatedFailures.length > 0) {
      out.push('', 'Repeated failed calls (same tool and arguments, key order ignored)');
      out.push(
        ...table(
          [{ header: 'count', right: true }, { header: 'sessions', right: true }, 'tool', 'arguments'],
          census.repeatedFailures
            .slice(0, 10)
            .map((row) => [int(row.count), int(row.sessions), row.tool, row.argumentsPreview]),
          [],
          census.repeatedFailures
            .slice(0, 10)
            .map((row) => row.errors.map((error) => `${error.count}x ${error.errorPreview}`).join(' | ')),
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
          [{ header: 'where', path: true }, 'tool', 'code', 'prediction'],
          report.failures
            .slice(0, FAILURES_SHOWN)
            .map((row) => [`${shownFile(report, row.file)}:${row.line}`, row.tool, row.code, row.outcome]),
          [],
          report.failures.slice(0, FAILURES_SHOWN).map((row) => `error: ${row.errorPreview}`),
        ),
      );
    }
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
      ...wrap(
        `${int(plugin.healed)} calls healed or recovered by the plugin; ${int(plugin.hintedErrors)} errors carried its hint`,
      ),
    );
  }
  if (report.store?.read && report.store.harnessCalls.length > 0) {
    out.push('', "Calls other harnesses counted in the store's database (measured, every outcome)");
    out.push(
      ...table(
        ['harness', 'outcome', { header: 'calls', right: true }],
        report.store.harnessCalls.map((row) => [harnessName(row.harness), row.outcome, int(row.calls)]),
      ),
    );
  }
  for (const other of report.otherHarnesses ?? []) {
    const healed = other.healedSuccess + other.healedFailed;
    out.push(
      '',
      ...wrap(
        `Recorded by another harness: ${harnessName(other.harness)} (measured from the store's event log, not from DSH sessions)`,
        '',
        '  ',
      ),
      ...wrap(
        `${int(healed)} calls healed (${int(other.healedSuccess)} then succeeded, ${int(other.healedFailed)} still failed); ${int(other.passThroughFailed)} failed calls left as sent`,
      ),
      ...wrap(`${isoTime(other.from)} to ${isoTime(other.to)}`),
    );
    out.push(...countTable('Healed by tool', other.healedByTool, healed, 'healed'));
    out.push(...countTable('Healed by rule', other.healedByRule, healed, 'healed'));
  }
  if (report.skipped.length > 0) {
    out.push('', `Skipped (${report.skipped.length})`);
    for (const skip of report.skipped) out.push(...wrap(`${skip.file}: ${skip.reason}`));
  }
  // Every line is made visible once more: whatever a log held, no control character reaches the terminal.
  return `${out.map(visibleText).join('\n')}\n`;
}
