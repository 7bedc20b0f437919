/**
 * The text of `tn-heal`'s report and its built-in example, kept apart from the CLI entry (which reads
 * files and stdin) so they can be tested without spawning a process.
 */
import { stripBackend } from './host-compile.js';
import type { HealResult, Repair } from './types.js';

/** The built-in example: a fenced program with a Python triple quote that calls tools.bash. */
export const EXAMPLE = [
  'Here is the program:',
  '',
  '```js',
  'const script = """',
  'set -e',
  'echo "checking disk usage"',
  'df -h /',
  '""";',
  "const result = await tools.bash({ command: script, description: 'Check disk usage' });",
  'return result.stdout.text;',
  '```',
  '',
].join('\n');

export const USAGE = `usage: tn-heal [--json] [--example] [file]
  Heals a DSH run_code program read from <file> or stdin and prints a report.
  --example  heal the built-in example (also the default when stdin is a terminal)
  --json     print the HealResult as JSON`;

function describeRepair(repair: Repair): string {
  const details = Object.entries(repair)
    .filter(([key]) => key !== 'kind')
    .map(([key, value]) => `${key} ${JSON.stringify(value)}`);
  return details.length > 0 ? `${repair.kind} (${details.join(', ')})` : repair.kind;
}

/** A readable report: ok, changed, repairs, diagnostic, then the code (and the input when it changed). */
export function report(input: string, result: HealResult, source: string): string {
  const lines = [
    `source:     ${source}`,
    `verified:   host compile step reproduced with ${stripBackend()}`,
    `ok:         ${result.ok}`,
    `changed:    ${result.changed}`,
    `repairs:    ${result.repairs.length > 0 ? result.repairs.map(describeRepair).join('; ') : 'none'}`,
  ];
  if (result.diagnostic) {
    const { kind, message, line, column } = result.diagnostic;
    const at = line !== undefined ? ` at line ${line}${column !== undefined ? `, column ${column}` : ''}` : '';
    lines.push(`diagnostic: ${kind}${at}: ${message}`);
  }
  if (result.changed) lines.push('', '--- program as sent ---', input);
  lines.push('', result.changed ? '--- healed program ---' : '--- program (unchanged) ---', result.code);
  return lines.join('\n') + '\n';
}
