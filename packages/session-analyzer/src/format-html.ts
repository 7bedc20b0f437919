/**
 * `--html report.html`: one self-contained page. The stats part is rendered by `<tn-dashboard>` itself (the built
 * bundle of `@dsh-tool-normalizer/dashboard-lit` is inlined and handed the report's stats payload through its
 * public `data` property), so the report looks like the Settings page; census, counterfactual, cost and skipped
 * files follow as plain tables. All log-derived text is escaped here and was redacted before.
 */
import { ruleCatalogue } from '@dsh-tool-normalizer/core-rules';
import { censusRows, int, percent } from './format-figures.js';
import type { AnalysisReport, CountRow } from './types.js';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
/** JSON that is safe inside a `<script>` element (no `</script>`, no HTML comment openers). */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

function table(headers: string[], rows: string[][]): string {
  const head = headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const countRows = (rows: CountRow[], total: number) =>
  rows.map((row) => [row.key, int(row.count), percent(total > 0 ? row.count / total : null)]);

/** The page. `dashboardBundle` is the text of dashboard-lit's `dist/tn-dashboard.js`. */
export function renderHtml(report: AnalysisReport, dashboardBundle: string): string {
  const { census, counterfactual, cost, plugin } = report;
  const outcomes = counterfactual.outcomes;
  const share = (count: number) => percent(census.errors > 0 ? count / census.errors : null);
  const rules = ruleCatalogue.map((rule) => ({
    id: rule.id,
    category: rule.category,
    title: rule.title,
    description: rule.description,
    option: rule.option,
    enabled: true,
  }));
  const sections: string[] = [];
  sections.push(`<section><h2>Census</h2>${table(['', ''], censusRows(census))}
<h3>Errors by host code</h3>${table(['code', 'errors', 'share'], countRows(census.byCode, census.errors))}
<h3>Errors by category</h3>${table(['category', 'errors', 'share'], countRows(census.byCategory, census.errors))}
<h3>Errors by tool</h3>${table(['tool', 'errors', 'share'], countRows(census.byTool, census.errors))}
<h3>Errors by model</h3>${table(['model', 'errors', 'share'], countRows(census.byModel, census.errors))}
<h3>Most repeated identical failed calls</h3>${table(
    ['count', 'tool', 'arguments', 'error'],
    census.repeatedFailures.map((row) => [int(row.count), row.tool, row.argumentsPreview, row.errorPreview]),
  )}
</section>`);
  sections.push(`<section><h2>Counterfactual</h2><p>Every failed call replayed through the current core-rules with the tools its session presented.
Error rate now ${escapeHtml(percent(census.errorRate))}; with the current rules ${escapeHtml(percent(counterfactual.wouldBeErrorRate))}.</p>
${table(
  ['outcome', 'failures', 'share'],
  [
    ['healed before dispatch', int(outcomes.healed), share(outcomes.healed)],
    ['recoverable after the error', int(outcomes.recovered), share(outcomes.recovered)],
    ['hint only', int(outcomes.hint), share(outcomes.hint)],
    ['nothing', int(outcomes.nothing), share(outcomes.nothing)],
    ['not replayable (no tool list in the log)', int(outcomes.unknown), share(outcomes.unknown)],
  ],
)}
<h3>By category</h3>${table(
    ['category', 'healed', 'recovered', 'hint', 'nothing', 'unknown'],
    counterfactual.byCategory.map((row) => [
      row.category,
      int(row.healed),
      int(row.recovered),
      int(row.hint),
      int(row.nothing),
      int(row.unknown),
    ]),
  )}
<h3>By rule</h3>${table(
    ['rule', 'failures'],
    counterfactual.byRule.map((row) => [row.key, int(row.count)]),
  )}
</section>`);
  sections.push(`<section><h2>Cost</h2><p>Context the model re-read on its next request after each failure: ${escapeHtml(int(cost.tokens))} tokens
(${escapeHtml(int(cost.measuredTokens))} from recorded usage, ${escapeHtml(int(cost.estimatedTokens))} estimated at 4 characters per token).
After failures the rules would heal or recover: ${escapeHtml(int(cost.avoidableTokens))} tokens.</p>
${table(
  ['category', 'failures', 'tokens', 'of which estimated'],
  cost.byCategory.map((row) => [row.category, int(row.failures), int(row.tokens), int(row.estimatedTokens)]),
)}
</section>`);
  if (plugin.sessions > 0) {
    sections.push(
      `<section><h2>Sessions that already ran with the plugin (${escapeHtml(int(plugin.sessions))})</h2>${table(
        ['', 'without plugin', 'with plugin'],
        [
          ['tool calls', int(plugin.toolCalls), int(plugin.toolCalls)],
          ['errors the model saw', int(plugin.errorsSeen + plugin.healed), int(plugin.errorsSeen)],
          ['error rate', percent(plugin.errorRateWithout), percent(plugin.errorRateWith)],
        ],
      )}</section>`,
    );
  }
  if (report.skipped.length > 0) {
    sections.push(
      `<section><h2>Skipped (${escapeHtml(int(report.skipped.length))})</h2>${table(
        ['file', 'reason'],
        report.skipped.map((skip) => [skip.file, skip.reason]),
      )}</section>`,
    );
  }
  const title = `DSH session analysis${report.sessionsDir ? `: ${report.sessionsDir}` : ''}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 16px; color-scheme: light dark; }
table { border-collapse: collapse; margin: 6px 0 14px; }
th, td { border-bottom: 1px solid #8884; padding: 3px 10px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
td:not(:first-child) { font-variant-numeric: tabular-nums; }
.note { opacity: 0.8; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${report.interrupted ? `<p><strong>Interrupted: ${escapeHtml(int(report.filesAnalysed))} of ${escapeHtml(int(report.filesSeen))} files analysed; the figures cover those only.</strong></p>` : ''}
<p class="note">The dashboard below shows the analysis as if the plugin had run: "healed" counts are predictions (failures the current rules would heal or recover), "tokens saved" is the context re-read after those failures.</p>
<tn-dashboard id="dashboard" theme="auto" refresh="0" clear-src=""></tn-dashboard>
${sections.join('\n')}
<script type="application/json" id="analysis-stats">${scriptJson({ ...report.stats, rules })}</script>
<script type="module">${dashboardBundle.replace(/<\/script/gi, '<\\/script')}</script>
<script type="module">
const payload = JSON.parse(document.getElementById('analysis-stats').textContent);
await customElements.whenDefined('tn-dashboard');
document.getElementById('dashboard').data = payload;
</script>
</body>
</html>
`;
}
