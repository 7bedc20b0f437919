#!/usr/bin/env node
/**
 * The package's own command, `dsh-session-analyzer [sessions-dir] [--json] [--html file]`; see `./cli`. Node
 * releases that mark built-in zstd as experimental print an ExperimentalWarning on its first use: the command's
 * stderr carries its own messages only, so that one warning type is dropped (every other warning still prints).
 */
const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const option = rest[0];
  const type =
    warning instanceof Error
      ? warning.name
      : typeof option === 'string'
        ? option
        : (option as { type?: string } | undefined)?.type;
  if (type === 'ExperimentalWarning') return;
  emitWarning(warning, ...rest);
}) as typeof process.emitWarning;

const { runAnalyzeCli } = await import('./cli.js');
runAnalyzeCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`analyze: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
