/**
 * `--html report.html`: one self-contained page of the analyzer's own markup (no script, no external resource, no
 * request of any kind, so it opens from `file://` as it does from a server). It opens with what was found, then
 * inline-SVG charts (outcomes, error codes, cost by billing kind, error rate over time), then the detail in
 * collapsible sections: every failure with its file, session and line, repeated calls, rewrites of successful
 * calls, cost, census, skipped files. Predictions are worded as predictions; nothing borrows the live plugin's
 * dashboard cards or words. All log-derived text is escaped here and was redacted before. Works at 420 px.
 */
import { TOKENS_SAVED_DEFINITION } from '@dsh-tool-normalizer/telemetry-store/outcomes';
import {
  BASIS_LABELS,
  censusRows,
  findingsLines,
  int,
  OUTCOME_LABELS,
  OUTCOME_SHORT_LABELS,
  percent,
  shownFile,
  changedSuccessesLine,
  costRows,
  harnessName,
  isoTime,
  storeOnly,
} from './format-figures.js';
import { FAILURE_FILTER_SCRIPT, FAILURE_FILTER_SCRIPT_HASH } from './report-script.js';
import {
  COUNTERFACTUAL_OUTCOMES,
  type AnalysisReport,
  type CounterfactualOutcome,
  type CountRow,
  type ReplayBasis,
} from './types.js';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Escaped text that may break only after `_`, `-` or `/` (a `<wbr>` there; the cells' CSS breaks nowhere else), so a
 * code such as `FS_SANDBOX_DENIED` or a path never splits mid-token. Escaping first is safe: no entity holds those.
 */
const breakable = (text: string): string => escapeHtml(text).replace(/[_/-]/g, '$&<wbr>');

interface Column {
  header: string;
  /** Numbers are right-aligned and never wrapped. */
  numeric?: boolean;
  /** Free text (an error or arguments preview): a token too long for the line breaks as a last resort. */
  prose?: boolean;
  /** A short code (`FS_SANDBOX_DENIED`): kept on one line in a table (a card may still break it after `_`). */
  token?: boolean;
}

/**
 * A table in a horizontally scrolling box, so a wide screen scrolls the table, not the page. With `cards`, below
 * 640 px each row becomes a card of label/value lines (no sideways scroll, no cut header). `rowAttributes` adds
 * (already escaped) attributes to a row, such as the failure filters' `data-*`.
 */
function table(
  columns: Column[],
  rows: string[][],
  cellHtml?: (row: number, column: number) => string | undefined,
  options: { cards?: boolean; rowAttributes?: (row: number) => string } = {},
) {
  const head = columns
    .map((column) => `<th${column.numeric ? ' class="num"' : ''}>${escapeHtml(column.header)}</th>`)
    .join('');
  const body = rows
    .map(
      (row, rowIndex) =>
        `<tr${options.rowAttributes?.(rowIndex) ?? ''}>${row
          .map((cell, column) => {
            const spec = columns[column];
            const html = cellHtml?.(rowIndex, column) ?? (spec?.numeric ? escapeHtml(cell) : breakable(cell));
            const kind = spec?.numeric
              ? ' class="num"'
              : spec?.prose
                ? ' class="prose"'
                : spec?.token
                  ? ' class="token"'
                  : '';
            const label = options.cards && spec?.header ? ` data-label="${escapeHtml(spec.header)}"` : '';
            return `<td${kind}${label}>${html}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('\n');
  return `<div class="scroll"><table${options.cards ? ' class="cards"' : ''}><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

const countRows = (rows: CountRow[], total: number) =>
  rows.map((row) => [row.key, int(row.count), percent(total > 0 ? row.count / total : null)]);

const COUNT_COLUMNS = (label: string): Column[] => [
  { header: label },
  { header: 'errors', numeric: true },
  { header: 'share', numeric: true },
];

interface Bar {
  label: string;
  value: number;
  color: string;
}

const PALETTE = ['#2f6fdf', '#1f9d6b', '#c98a12', '#8a8f98', '#c0392b', '#7b4fc9', '#138a9e', '#b3477d'];

/** Horizontal bars with their labels and values, in a viewBox that scales to the page width. */
function barChart(title: string, bars: Bar[], unit: string): string {
  const width = 400;
  const rowHeight = 22;
  const labelWidth = 170;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const height = bars.length * rowHeight + 4;
  const body = bars
    .map((bar, index) => {
      const y = index * rowHeight + 2;
      const length = Math.round(((width - labelWidth - 70) * bar.value) / max);
      return `<text x="0" y="${y + 14}" class="label">${escapeHtml(bar.label.length > 28 ? `${bar.label.slice(0, 27)}…` : bar.label)}</text>
<rect x="${labelWidth}" y="${y + 3}" width="${Math.max(length, bar.value > 0 ? 2 : 0)}" height="14" fill="${bar.color}"><title>${escapeHtml(`${bar.label}: ${int(bar.value)} ${unit}`)}</title></rect>
<text x="${labelWidth + length + 6}" y="${y + 14}" class="value">${escapeHtml(int(bar.value))}</text>`;
    })
    .join('\n');
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMinYMin meet">${body}</svg></figure>`;
}

/** One stacked bar of the measured cost by billing kind, with a legend. */
function costChart(report: AnalysisReport): string {
  const { measured } = report.cost;
  const parts: Bar[] = [
    { label: 'uncached input', value: measured.uncachedInput, color: PALETTE[0] as string },
    { label: 'cache read', value: measured.cacheRead, color: PALETTE[1] as string },
    { label: 'cache write', value: measured.cacheWrite, color: PALETTE[2] as string },
  ];
  const width = 400;
  const total = Math.max(1, measured.total);
  let x = 0;
  const rects = parts
    .map((part) => {
      const length = (width * part.value) / total;
      const rect = `<rect x="${x.toFixed(1)}" y="0" width="${length.toFixed(1)}" height="18" fill="${part.color}"><title>${escapeHtml(`${part.label}: ${int(part.value)} tokens`)}</title></rect>`;
      x += length;
      return rect;
    })
    .join('');
  const legend = parts
    .map(
      (part, index) =>
        `<rect x="0" y="${28 + index * 18}" width="10" height="10" fill="${part.color}"></rect><text x="16" y="${37 + index * 18}" class="label">${escapeHtml(`${part.label}: ${int(part.value)} (${percent(part.value / total)})`)}</text>`,
    )
    .join('');
  const title = `Measured cost after failures: ${int(measured.total)} tokens by billing kind`;
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${width} 86" width="100%" preserveAspectRatio="xMinYMin meet">${rects}${legend}</svg></figure>`;
}

/** Error rate per day (logs with real times), as columns; a line of text when no log records real times. */
function timelineChart(report: AnalysisReport): string {
  const days = report.census.byDay.filter((day) => day.calls > 0);
  const title = 'Measured error rate per day (logs with real times)';
  if (days.length === 0)
    return `<figure><figcaption>${escapeHtml(title)}</figcaption><p class="note">No log records real times (normalized fixtures zero them).</p></figure>`;
  const width = 400;
  const height = 120;
  const slot = width / days.length;
  const max = Math.max(0.01, ...days.map((day) => day.errors / day.calls));
  const columns = days
    .map((day, index) => {
      const value = day.errors / day.calls;
      const barHeight = Math.round(((height - 30) * value) / max);
      return `<rect x="${(index * slot + slot * 0.15).toFixed(1)}" y="${height - 16 - barHeight}" width="${Math.max(1, slot * 0.7).toFixed(1)}" height="${barHeight}" fill="${PALETTE[4]}"><title>${escapeHtml(`${day.day}: ${percent(value)} (${int(day.errors)} of ${int(day.calls)} calls)`)}</title></rect>`;
    })
    .join('');
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMinYMin meet">${columns}
<text x="0" y="${height - 2}" class="label">${escapeHtml(first)}</text><text x="${width}" y="${height - 2}" class="label" text-anchor="end">${escapeHtml(last)}</text>
<text x="0" y="10" class="label">max ${escapeHtml(percent(max))}</text></svg></figure>`;
}

/** A `file://` link to a log, when its path is absolute. */
function fileLink(file: string, shown: string, line: number): string {
  const text = `${breakable(shown)}:${line}`;
  if (!file.startsWith('/')) return text;
  const href = `file://${file.split('/').map(encodeURIComponent).join('/')}`;
  return `<a href="${escapeHtml(href)}">${text}</a>`;
}

function section(title: string, body: string, open = false): string {
  return `<details${open ? ' open' : ''}><summary><h2>${escapeHtml(title)}</h2></summary>${body}</details>`;
}

/** The distinct values of one filter, most frequent first, as `<option>`s (escaped). */
function filterOptions(values: string[], label: (value: string) => string = (value) => value): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(
      ([value, count]) =>
        `<option value="${escapeHtml(value)}">${escapeHtml(`${label(value)} (${int(count)})`)}</option>`,
    )
    .join('');
}

/** Every failure with its file, session and line: filtered by code, tool and prediction, paged (see report-script). */
function failuresSection(report: AnalysisReport): string {
  const shown = (file: string) => shownFile(report, file);
  const rows = report.failures;
  const filter = (name: string, label: string, options: string) =>
    `<label>${escapeHtml(label)} <select name="${name}"><option value="">all</option>${options}</select></label>`;
  const controls = `<div class="controls" hidden>${filter('code', 'code', filterOptions(rows.map((row) => row.code)))}${filter(
    'tool',
    'tool',
    filterOptions(rows.map((row) => row.tool)),
  )}${filter(
    'outcome',
    'prediction',
    filterOptions(
      rows.map((row) => row.outcome),
      (outcome) => OUTCOME_SHORT_LABELS[outcome as CounterfactualOutcome] ?? outcome,
    ),
  )}<button type="button" class="prev">previous</button><button type="button" class="next">next</button> <output class="count" aria-live="polite"></output></div>`;
  const body = table(
    [
      { header: 'where (file:line)' },
      { header: 'session' },
      { header: 'tool' },
      { header: 'code', token: true },
      { header: 'prediction' },
      { header: 'rests on', prose: true },
      { header: 'tokens', numeric: true },
      { header: 'error', prose: true },
    ],
    rows.map((row) => [
      `${shown(row.file)}:${row.line}`,
      row.sessionId,
      row.tool,
      row.code,
      `${OUTCOME_LABELS[row.outcome]}${row.ruleId ? ` (${row.ruleId})` : ''}`,
      row.basisNote,
      row.costSource === 'measured' ? int(row.costTokens) : `${int(row.costTokens)} ${row.costSource}`,
      row.errorPreview,
    ]),
    (rowIndex, column) => {
      const row = rows[rowIndex];
      return column === 0 && row ? fileLink(row.file, shown(row.file), row.line) : undefined;
    },
    {
      cards: true,
      rowAttributes: (rowIndex) => {
        const row = rows[rowIndex];
        return row
          ? ` data-code="${escapeHtml(row.code)}" data-tool="${escapeHtml(row.tool)}" data-outcome="${escapeHtml(row.outcome)}"`
          : '';
      },
    },
  );
  const title = `Failures (${int(report.failuresListed)}${report.failuresListed < report.census.errors ? ` of ${int(report.census.errors)}` : ''}), each with its log file, session and line`;
  return `<details id="failures"><summary><h2>${escapeHtml(title)}</h2></summary>${controls}${body}</details>`;
}

/** The page. */
export function renderHtml(report: AnalysisReport): string {
  const { census, prediction, cost, plugin } = report;
  const onlyStore = storeOnly(report);
  const outcomes = prediction.outcomes;
  const shown = (file: string) => shownFile(report, file);
  const outcomeCounts = {
    healed: outcomes.wouldHeal,
    recovered: outcomes.wouldRecover,
    hint: outcomes.hintOnly,
    nothing: outcomes.noRuleApplies,
    unknown: outcomes.notReplayable,
  };
  const found = findingsLines(report)
    .map((line) => `<li>${escapeHtml(line)}</li>`)
    .join('\n');
  const charts = onlyStore
    ? ''
    : [
        barChart(
          'Predicted outcome of each failure (a replay, not a measurement)',
          COUNTERFACTUAL_OUTCOMES.map((outcome, index) => ({
            label: OUTCOME_SHORT_LABELS[outcome],
            value: outcomeCounts[outcome],
            color: PALETTE[index] as string,
          })),
          'failures',
        ),
        barChart(
          'Measured errors by host code',
          census.byCode.slice(0, 10).map((row, index) => ({
            label: row.key,
            value: row.count,
            color: PALETTE[index % PALETTE.length] as string,
          })),
          'errors',
        ),
        costChart(report),
        timelineChart(report),
      ].join('\n');

  const sections: string[] = [];
  sections.push(failuresSection(report));
  sections.push(
    section(
      'Prediction detail',
      `${table(
        [{ header: 'prediction rests on' }, { header: 'errors', numeric: true }, { header: 'share', numeric: true }],
        countRows(
          prediction.byBasis.map((row) => ({ key: BASIS_LABELS[row.key as ReplayBasis] ?? row.key, count: row.count })),
          census.errors,
        ),
      )}
<h3>Why unknown</h3>${table(COUNT_COLUMNS('reason'), countRows(prediction.unknownReasons, census.errors))}
<h3>By category</h3>${table(
        [
          { header: 'category' },
          { header: 'would heal', numeric: true },
          { header: 'would recover', numeric: true },
          { header: 'hint only', numeric: true },
          { header: 'no rule', numeric: true },
          { header: 'unknown', numeric: true },
        ],
        prediction.byCategory.map((row) => [
          row.category,
          int(row.healed),
          int(row.recovered),
          int(row.hint),
          int(row.nothing),
          int(row.unknown),
        ]),
      )}
<h3>By rule</h3>${table(COUNT_COLUMNS('rule'), countRows(prediction.byRule, census.errors))}
<h3>Rewrites that would not address the recorded error (not counted as heals)</h3>${table(
        COUNT_COLUMNS('rule'),
        countRows(prediction.unrelatedRewrites, census.errors),
      )}`,
    ),
  );
  sections.push(
    section(
      `Successful calls the rules would rewrite (${int(prediction.changedSuccesses.count)})`,
      `<p class="note">A rewrite of a call that worked is a risk, not a heal. ${escapeHtml(changedSuccessesLine(report))}</p>${table(
        [{ header: 'rule' }, { header: 'calls', numeric: true }],
        prediction.changedSuccesses.byRule.map((row) => [row.key, int(row.count)]),
      )}${table(
        [
          { header: 'where (file:line)' },
          { header: 'session' },
          { header: 'tool' },
          { header: 'rule' },
          { header: 'what would change', prose: true },
          { header: 'arguments', prose: true },
        ],
        prediction.changedSuccesses.examples.map((row) => [
          `${shown(row.file)}:${row.line}`,
          row.sessionId,
          row.tool,
          row.ruleId,
          `${row.change}${row.undeclared.length > 0 ? ` (${row.undeclared.join(', ')}: not declared by this session's schema)` : ''}`,
          row.argumentsPreview,
        ]),
        (rowIndex, column) => {
          const row = prediction.changedSuccesses.examples[rowIndex];
          return column === 0 && row ? fileLink(row.file, shown(row.file), row.line) : undefined;
        },
        { cards: true },
      )}`,
    ),
  );
  sections.push(
    section(
      'Repeated failed calls (same tool and arguments, key order ignored)',
      table(
        [
          { header: 'count', numeric: true },
          { header: 'sessions', numeric: true },
          { header: 'tool' },
          { header: 'arguments', prose: true },
          { header: 'every error of the group', prose: true },
          { header: 'first at' },
        ],
        census.repeatedFailures.map((row) => [
          int(row.count),
          int(row.sessions),
          row.tool,
          row.argumentsPreview,
          row.errors.map((error) => `${error.count}× [${error.code}] ${error.errorPreview}`).join('\n'),
          `${shown(row.first.file)}:${row.first.line}`,
        ]),
        (rowIndex, column) => {
          const row = census.repeatedFailures[rowIndex];
          if (!row) return undefined;
          if (column === 4)
            return row.errors
              .map((error) => `${escapeHtml(`${error.count}× [${error.code}] ${error.errorPreview}`)}`)
              .join('<br>');
          return column === 5 ? fileLink(row.first.file, shown(row.first.file), row.first.line) : undefined;
        },
        { cards: true },
      ),
    ),
  );
  sections.push(
    section(
      'Cost by category',
      `<p class="note">Context the model re-read on its next request after each failure, split as providers bill it. Test-mock usage and estimates are listed apart, never added to the measured figures; a request that answered a new user message is not charged to the failures before it.</p>${table(
        [
          { header: 'category' },
          { header: 'failures', numeric: true },
          { header: 'uncached input', numeric: true },
          { header: 'cache read', numeric: true },
          { header: 'cache write', numeric: true },
          { header: 'estimated (failures)', numeric: true },
          { header: 'mock usage', numeric: true },
        ],
        costRows(cost),
      )}<p>Tokens saved, predicted (failures the rules would heal or recover): ${escapeHtml(int(cost.afterPredictedFixes.total))}. Tokens saved = ${escapeHtml(TOKENS_SAVED_DEFINITION.en)}; the live dashboard measures the same quantity.</p>`,
    ),
  );
  sections.push(
    section(
      'Census (measured from the logs)',
      `${table([{ header: '' }, { header: '', numeric: true }], censusRows(census))}
<h3>Errors by host code</h3>${table(COUNT_COLUMNS('code'), countRows(census.byCode, census.errors))}
<h3>Errors by category</h3>${table(COUNT_COLUMNS('category'), countRows(census.byCategory, census.errors))}
<h3>Errors by tool</h3>${table(COUNT_COLUMNS('tool'), countRows(census.byTool, census.errors))}
<h3>Errors by model</h3>${table(COUNT_COLUMNS('model'), countRows(census.byModel, census.errors))}
<h3>Sessions by release (log format)</h3>${table(
        [{ header: 'release' }, { header: 'sessions', numeric: true }, { header: 'share', numeric: true }],
        countRows(census.byRelease, census.sessions),
      )}`,
    ),
  );
  // `analyze --store DIR` read no DSH session log: its DSH sections would all be empty, so the page has none.
  if (onlyStore) sections.length = 0;
  if (report.store?.read && report.store.harnessCalls.length > 0)
    sections.push(
      section(
        "Calls other harnesses counted in the store's database (measured, every outcome)",
        table(
          [{ header: 'harness' }, { header: 'outcome' }, { header: 'calls', numeric: true }],
          report.store.harnessCalls.map((row) => [harnessName(row.harness), row.outcome, int(row.calls)]),
        ),
        true,
      ),
    );
  if (plugin.sessions > 0) {
    sections.push(
      section(
        `Sessions that already ran with the plugin (${int(plugin.sessions)}, measured)`,
        table(
          [{ header: '' }, { header: 'without plugin', numeric: true }, { header: 'with plugin', numeric: true }],
          [
            ['tool calls', int(plugin.toolCalls), int(plugin.toolCalls)],
            ['errors the model saw', int(plugin.errorsSeen + plugin.healed), int(plugin.errorsSeen)],
            ['error rate', percent(plugin.errorRateWithout), percent(plugin.errorRateWith)],
          ],
        ),
        true,
      ),
    );
  }
  for (const other of report.otherHarnesses ?? []) {
    const healed = other.healedSuccess + other.healedFailed;
    const columns = (label: string): Column[] => [
      { header: label },
      { header: 'healed', numeric: true },
      { header: 'share', numeric: true },
    ];
    sections.push(
      section(
        `Recorded by another harness: ${harnessName(other.harness)} (measured, not from DSH sessions)`,
        `<p>${escapeHtml(
          `${int(healed)} calls healed (${int(other.healedSuccess)} then succeeded, ${int(other.healedFailed)} still failed); ${int(other.passThroughFailed)} failed calls left as sent; ${isoTime(other.from)} to ${isoTime(other.to)}. Read from the telemetry store's event log.`,
        )}</p>
<h3>Healed by tool</h3>${table(columns('tool'), countRows(other.healedByTool, healed))}
<h3>Healed by rule</h3>${table(columns('rule'), countRows(other.healedByRule, healed))}`,
        true,
      ),
    );
  }
  if (report.skipped.length > 0) {
    sections.push(
      section(
        `Skipped (${int(report.skipped.length)})`,
        table(
          [{ header: 'file' }, { header: 'reason' }],
          report.skipped.map((skip) => [skip.file, skip.reason]),
        ),
      ),
    );
  }
  const title = `${onlyStore ? 'Telemetry store analysis (no DSH session logs read)' : 'DSH session analysis'}${report.sessionsDir ? `: ${report.sessionsDir}` : ''}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src ${FAILURE_FILTER_SCRIPT_HASH}; base-uri 'none'; form-action 'none'">
<title>${escapeHtml(title)}</title>
<style>
:root { color-scheme: light dark; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1300px; padding: 12px; }
h1 { font-size: 1.3em; overflow-wrap: anywhere; }
h2 { display: inline; font-size: 1.1em; }
summary { cursor: pointer; margin: 14px 0 6px; }
.found { padding-left: 1.2em; }
.found li { margin: 4px 0; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 360px), 1fr)); gap: 12px; }
figure { margin: 0; min-width: 0; }
figcaption { font-weight: 600; margin-bottom: 4px; }
svg .label, svg .value { font: 11px system-ui, sans-serif; fill: currentColor; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 6px 0 14px; }
th, td { border-bottom: 1px solid #8884; padding: 3px 8px; text-align: left; vertical-align: top; }
td { overflow-wrap: normal; word-break: keep-all; min-width: 4em; max-width: 36em; }
td.prose { overflow-wrap: break-word; word-break: normal; }
td.token { white-space: nowrap; }
tr[hidden] { display: none !important; }
.controls { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; margin: 6px 0; }
.controls select { max-width: 100%; }
.controls label { max-width: 100%; }
@media (max-width: 640px) {
  .cards thead { display: none; }
  .cards, .cards tbody, .cards tr, .cards td { display: block; }
  .cards tr { border: 1px solid #8886; border-radius: 6px; margin: 0 0 10px; padding: 4px 8px; }
  .cards td { border: 0; max-width: none; padding: 2px 0; text-align: left; white-space: normal; }
  .cards td::before { content: attr(data-label) ": "; font-weight: 600; }
}
.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; min-width: 0; }
th { white-space: nowrap; }
.note { opacity: 0.8; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${report.interrupted ? `<p><strong>Interrupted: ${escapeHtml(int(report.filesAnalysed))} of ${escapeHtml(int(report.filesSeen))} files analysed; the figures cover those only.</strong></p>` : ''}
<section id="found"><h2>What was found</h2>
<ul class="found">
${found}
</ul>
<p class="note">Measured figures are read from the logs. Predictions replay each failure through the current rules; each one says what it rests on (the tools the log recorded, the known tool schemas of the release that wrote it, or the error class alone).</p>
</section>
<section class="charts">
${charts}
</section>
${sections.join('\n')}
${onlyStore ? '' : `<script>${FAILURE_FILTER_SCRIPT}</script>`}
</body>
</html>
`;
}
