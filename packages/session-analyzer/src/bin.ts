#!/usr/bin/env node
/** The package's own command, `dsh-session-analyzer [sessions-dir] [--json] [--html file]`; see `./cli`. */
import { dropExperimentalWarnings, runAnalyzeCli } from './cli.js';

dropExperimentalWarnings();
runAnalyzeCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`analyze: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
