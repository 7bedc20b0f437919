/**
 * Turns the demo's two real-host runs (without and with the plugin) into numbers a person can compare: calls,
 * errors the model saw, heals by category, model round-trips and the tokens the model had to re-read because
 * of errors. Token figures use DSH's own token-meter heuristic (about 4 characters per token) on the exact
 * request bodies DSH sent, so nothing is a constant.
 */
import fs from 'node:fs';
import { categoryCatalogue } from '@dsh-tool-normalizer/core-rules';
import { TOKENS_SAVED_DEFINITION } from '@dsh-tool-normalizer/telemetry-store/outcomes';
import type { DemoTask } from './demo-session.js';
import type { SessionRun } from './run-session.js';

export interface DemoRunSummary {
  exitCode: number;
  wallMs: number;
  maxRssKb: number | undefined;
  /** Tool calls the model made (first attempts and retries). */
  calls: number;
  /** Tool messages that began with `Error: `. */
  errorsSeen: number;
  /** Requests of the agent loop (each one re-sends the whole context). */
  roundTrips: number;
  /** Estimated prompt tokens over all round-trips. */
  promptTokens: number;
  /** Estimated prompt tokens of the round-trips that only happened to carry an error back to the model. */
  tokensReReadAfterErrors: number;
  /**
   * Tokens the plugin says it saved, measured with DSH's token meter (`tokensSaved` of its event-log lines
   * written during this run); `undefined` without a plugin event log.
   */
  pluginMeterTokensSaved: number | undefined;
  /** Errors the model saw, by the category of the task whose call failed. */
  errorsByCategory: Record<string, number>;
  runDir: string;
  sessionLogPath: string | undefined;
  eventLogPath: string | undefined;
  databasePath: string | undefined;
}

export interface DemoComparison {
  tasks: number;
  without: DemoRunSummary;
  with: DemoRunSummary | { skipped: string };
  /** First attempts that failed without the plugin and succeeded with it, by category. */
  healsByCategory: Record<string, number>;
  /** First attempts that failed in both runs (what the plugin honestly could not or must not heal). */
  stillFailing: string[];
  /** Each task's first attempt: did the model see an error, without and with the plugin. */
  perTask: { id: string; label: string; category: string; without: TaskOutcome; with: TaskOutcome }[];
}

export type TaskOutcome = 'ok' | 'error' | 'not played' | 'skipped';

function outcomeOf(run: SessionRun | { skipped: string }, id: string): TaskOutcome {
  if ('skipped' in run) return 'skipped';
  const message = run.toolMessages.find((m) => m.callId === id);
  if (!message || message.content === undefined) return 'not played';
  return message.isError ? 'error' : 'ok';
}

/** The numbers of one run. */
export function summarizeRun(run: SessionRun, tasks: readonly DemoTask[]): DemoRunSummary {
  const categoryOf = new Map<string, string>();
  for (const task of tasks) {
    categoryOf.set(task.first.id, task.category);
    if (task.retry) categoryOf.set(task.retry.id, task.category);
  }
  const agentRequests = run.requests.filter((r) => r.isAgent);
  const errorRequests = new Set<number>();
  const errorsByCategory: Record<string, number> = {};
  for (const message of run.toolMessages) {
    if (!message.isError) continue;
    if (message.requestIndex !== undefined) errorRequests.add(message.requestIndex);
    const category = categoryOf.get(message.callId) ?? 'other';
    errorsByCategory[category] = (errorsByCategory[category] ?? 0) + 1;
  }
  const tokensOf = (index: number) => run.requests[index]?.estimatedTokens ?? 0;
  return {
    exitCode: run.exitCode,
    wallMs: run.wallMs,
    maxRssKb: run.maxRssKb,
    calls: run.toolMessages.length,
    errorsSeen: run.toolMessages.filter((m) => m.isError).length,
    roundTrips: agentRequests.length,
    promptTokens: agentRequests.reduce((sum, r) => sum + r.estimatedTokens, 0),
    tokensReReadAfterErrors: [...errorRequests].reduce((sum, index) => sum + tokensOf(index), 0),
    errorsByCategory,
    pluginMeterTokensSaved: pluginMeterTokens(run),
    runDir: run.runDir,
    sessionLogPath: run.sessionLogPath,
    eventLogPath: run.eventLogPath,
    databasePath: run.databasePath,
  };
}

/** Sums `tokensSaved` over the plugin's event-log lines written during the run (unreadable lines are skipped). */
export function pluginMeterTokens(run: Pick<SessionRun, 'eventLogPath' | 'startedAt'>): number | undefined {
  if (!run.eventLogPath) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(run.eventLogPath, 'utf8');
  } catch {
    return undefined;
  }
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const event = JSON.parse(line) as { at?: unknown; tokensSaved?: unknown };
      if (typeof event.at === 'number' && event.at >= run.startedAt && typeof event.tokensSaved === 'number')
        total += event.tokensSaved;
    } catch {
      // a torn line: skip
    }
  }
  return total;
}

/** Compares the baseline run with the plugin run (or records why the plugin run was skipped). */
export function compareRuns(
  tasks: readonly DemoTask[],
  without: SessionRun,
  withPlugin: SessionRun | { skipped: string },
): DemoComparison {
  const healsByCategory: Record<string, number> = {};
  const stillFailing: string[] = [];
  if (!('skipped' in withPlugin)) {
    for (const task of tasks) {
      const before = without.toolMessages.find((m) => m.callId === task.first.id);
      const after = withPlugin.toolMessages.find((m) => m.callId === task.first.id);
      if (!before?.isError) continue;
      if (after && after.content !== undefined && !after.isError)
        healsByCategory[task.category] = (healsByCategory[task.category] ?? 0) + 1;
      else stillFailing.push(`${task.first.id} (${task.category})`);
    }
  }
  const perTask = tasks.map((task) => ({
    id: task.first.id,
    label: task.label,
    category: task.category,
    without: outcomeOf(without, task.first.id),
    with: outcomeOf(withPlugin, task.first.id),
  }));
  return {
    tasks: tasks.length,
    perTask,
    without: summarizeRun(without, tasks),
    with: 'skipped' in withPlugin ? withPlugin : summarizeRun(withPlugin, tasks),
    healsByCategory,
    stillFailing,
  };
}

const thousands = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (kb: number | undefined) => (kb === undefined ? 'n/a' : `${Math.round(kb / 1024)} MiB`);

/** The footnote under the table: the one definition of "tokens saved" (telemetry-store), as the dashboard shows it. */
export const TOKENS_SAVED_FOOTNOTE = `* tokens saved (measured) = ${TOKENS_SAVED_DEFINITION.en}; the dashboard shows the same figure. The prompt-token rows are estimates (about 4 characters per token) of what was sent, not savings.`;

/** The side-by-side table printed by the demo. */
/**
 * What a category of the demo's table means beyond its catalogue label: the error DSH answered and why. Only the
 * categories a demo task can meet; any other is explained by its label alone.
 */
const CATEGORY_MEANING: Record<string, string> = {
  'code-mode-direct-call': 'in Code Mode DSH runs only run_code; the model called a tool (read) directly',
  'code-syntax': "the run_code program failed DSH's compile step",
  'editor-range': "the editor's view_range asked for lines outside the file",
  'fs-edit-anchor': 'the text to replace is not in the file (never retried, by design)',
  'fs-not-observed': 'DSH refuses to edit a file the session has not read first (FS_NOT_OBSERVED)',
  'inner-invalid-args': 'a tools.x({...}) call inside a program had invalid arguments',
  'invalid-args': "the call's arguments did not fit the tool's schema",
};

/** The legend printed under the tables: the words of the report a new reader may not know. */
export function demoLegend(categories: Iterable<string>): string[] {
  const labels = new Map<string, string>(categoryCatalogue.map((row) => [row.id, row.label]));
  const rows: [string, string][] = [['DSH', 'DeepSeek Harness, the real agent host both runs boot']];
  for (const category of [...new Set(categories)].sort()) {
    const label = labels.get(category) ?? category;
    const meaning = CATEGORY_MEANING[category];
    rows.push([category, meaning ? `${label}: ${meaning}` : label]);
  }
  rows.push(
    ['view_range past EOF', "a view_range whose lines run past the file's end (EOF: end of file)"],
    ['healed', 'failed without the plugin, succeeded with it in the same round-trip'],
    ['error, retried', 'the model saw the error and sent a corrected call'],
  );
  const width = Math.max(...rows.map(([term]) => term.length)) + 2;
  return ['What the words mean:', ...rows.flatMap(([term, text]) => wrap(`  ${term.padEnd(width)}`, text))];
}

/** `text` after `head`, wrapped between words at LEGEND_COLUMNS, continuation lines indented under the text. */
const LEGEND_COLUMNS = 100;
function wrap(head: string, text: string): string[] {
  const lines: string[] = [];
  let line = head;
  for (const word of text.split(' ')) {
    if (line.length > head.length && line.length + 1 + word.length > LEGEND_COLUMNS) {
      lines.push(line);
      line = ' '.repeat(head.length) + word;
    } else line += line.length > head.length ? ` ${word}` : word;
  }
  lines.push(line);
  return lines;
}

export function formatComparison(comparison: DemoComparison): string {
  const w = comparison.without;
  const p = 'skipped' in comparison.with ? undefined : comparison.with;
  const rows: [string, string, string][] = [
    ['tool calls made', String(w.calls), p ? String(p.calls) : '-'],
    ['errors the model saw', String(w.errorsSeen), p ? String(p.errorsSeen) : '-'],
    ['model round-trips', String(w.roundTrips), p ? String(p.roundTrips) : '-'],
    ['prompt tokens sent (estimated)', thousands(w.promptTokens), p ? thousands(p.promptTokens) : '-'],
    [
      '  of them re-read after errors',
      thousands(w.tokensReReadAfterErrors),
      p ? thousands(p.tokensReReadAfterErrors) : '-',
    ],
    [
      'tokens saved (measured) *',
      '-',
      p?.pluginMeterTokensSaved !== undefined ? thousands(p.pluginMeterTokensSaved) : '-',
    ],
    ['DSH exit code', String(w.exitCode), p ? String(p.exitCode) : '-'],
    ['wall time, one run (noisy)', seconds(w.wallMs), p ? seconds(p.wallMs) : '-'],
    ['max RSS of DSH', mib(w.maxRssKb), p ? mib(p.maxRssKb) : '-'],
  ];
  const categories = new Set([
    ...Object.keys(w.errorsByCategory),
    ...Object.keys(p?.errorsByCategory ?? {}),
    ...Object.keys(comparison.healsByCategory),
  ]);
  const lines: string[] = [];
  const width = [34, 16, 16];
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(width[0]!) : cell.padStart(width[i]!))).join('');
  lines.push(line(['', 'without plugin', 'with plugin']));
  lines.push('-'.repeat(width.reduce((a, b) => a + b, 0)));
  for (const row of rows) lines.push(line(row));
  lines.push(TOKENS_SAVED_FOOTNOTE);
  lines.push('');
  lines.push(line(['errors seen, by category', 'without plugin', p ? 'with (healed)' : '']));
  lines.push('-'.repeat(width.reduce((a, b) => a + b, 0)));
  for (const category of [...categories].sort()) {
    const healed = comparison.healsByCategory[category] ?? 0;
    lines.push(
      line([
        `  ${category}`,
        String(w.errorsByCategory[category] ?? 0),
        p ? `${p.errorsByCategory[category] ?? 0} (${healed})` : '-',
      ]),
    );
  }
  lines.push('');
  lines.push(line(['first attempt of each task', 'without plugin', p ? 'with plugin' : '']));
  lines.push('-'.repeat(width.reduce((a, b) => a + b, 0)));
  const label = (outcome: TaskOutcome, other?: TaskOutcome) =>
    outcome === 'error' ? 'error, retried' : outcome === 'ok' && other === 'error' ? 'healed' : outcome;
  for (const task of comparison.perTask) {
    lines.push(line([`  ${task.label}`, label(task.without), p ? label(task.with, task.without) : '-']));
  }
  lines.push('', ...demoLegend(categories));
  if (!p) lines.push('', `with-plugin run skipped: ${(comparison.with as { skipped: string }).skipped}`);
  else {
    const healed = Object.values(comparison.healsByCategory).reduce((a, b) => a + b, 0);
    lines.push('', `${healed} of ${comparison.tasks} tasks' first attempts were healed in the same round-trip.`);
    if (comparison.stillFailing.length > 0)
      lines.push(
        `Still failing with the plugin (by design or not yet healable): ${comparison.stillFailing.join(', ')}`,
      );
  }
  return lines.join('\n');
}
