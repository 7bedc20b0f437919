#!/usr/bin/env node
/**
 * `tn-heal`: heal one run_code program from a file or stdin and print what happened — the quickest way
 * to see the healer work. With no file and an interactive terminal (or `--example`) it heals a built-in
 * example: a fenced program with a Python triple quote that calls tools.bash. `--json` prints the raw
 * HealResult. Exit status: 0 when the result compiles like the host, 1 when not, 2 on a usage error.
 */
import { readFileSync } from 'node:fs';
import { EXAMPLE, report, USAGE } from './cli-report.js';
import { healProgram } from './heal.js';

function main(argv: string[]): number {
  const flags = new Set(argv.filter((arg) => arg.startsWith('--')));
  const files = argv.filter((arg) => !arg.startsWith('--'));
  if (
    flags.has('--help') ||
    files.length > 1 ||
    [...flags].some((flag) => !['--json', '--example', '--help'].includes(flag))
  ) {
    process.stderr.write(USAGE + '\n');
    return flags.has('--help') ? 0 : 2;
  }
  let input: string;
  let source: string;
  if (files[0] !== undefined) {
    try {
      input = readFileSync(files[0], 'utf8');
    } catch (error) {
      process.stderr.write(
        `tn-heal: cannot read ${files[0]}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 2;
    }
    source = files[0];
  } else if (flags.has('--example') || process.stdin.isTTY) {
    input = EXAMPLE;
    source = 'built-in example (a fenced program with a Python triple quote)';
  } else {
    input = readFileSync(0, 'utf8');
    source = 'stdin';
    if (input === '') {
      input = EXAMPLE;
      source = 'built-in example (stdin was empty)';
    }
  }
  const result = healProgram(input);
  process.stdout.write(flags.has('--json') ? JSON.stringify(result, null, 2) + '\n' : report(input, result, source));
  return result.ok ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
