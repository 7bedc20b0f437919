/**
 * The figures both report formats print (terminal table and HTML page), written once so the two never drift: number
 * and percentage formatting, and the census rows.
 */
import type { AnalysisReport } from './types.js';

export const percent = (value: number | null): string => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);
export const int = (value: number): string => value.toLocaleString('en-US');

/** The census as label/value rows, in report order. */
export function censusRows(census: AnalysisReport['census']): [string, string][] {
  return [
    ['sessions', int(census.sessions)],
    ['tool calls', int(census.toolCalls)],
    ['tool results', int(census.toolResults)],
    ['errors', int(census.errors)],
    ['error rate', percent(census.errorRate)],
    ['sessions with >= 1 error', int(census.sessionsWithErrors)],
    ['Code-Mode sub-calls (failed)', `${int(census.subCalls)} (${int(census.subCallErrors)})`],
    ['sessions without a recorded tool list', int(census.sessionsWithoutToolList)],
  ];
}
