/**
 * Stack traces in host errors point into the pnpm store and Node internals: long absolute paths that cost
 * tokens and tell the model nothing. `trimStackTrace` drops those frames. The one frame that locates the
 * model's own program (`eval at runWorkerMain …, <anonymous>:L:C`) is kept, shortened to the program's
 * line and column. The program frame's shape and line offset are DSH facts (@dsh-tool-normalizer/dsh-profile).
 */
import { PROGRAM_FRAME, PROGRAM_LINE_OFFSET, RUNTIME_WORKER_FILE } from '@dsh-tool-normalizer/dsh-profile';

const FRAME = /^\s+at /;
const INTERNAL = /node_modules[\\/]|node:internal|\[nodejs\.internal|\(native\)|^\s+at new Promise \(<anonymous>\)/;
/**
 * Longest line read as the program frame. PROGRAM_FRAME backtracks quadratically on a long line that repeats
 * `eval at runWorkerMain`, and error text can carry anything a program wrote; real frames are far shorter.
 */
const MAX_FRAME_CHARS = 1000;

/** Removes internal stack frames from an error message; returns the same string when there is nothing to trim. */
export function trimStackTrace(message: string): string {
  if (typeof message !== 'string' || !message.includes('    at ')) return message;
  const lines = message.split('\n');
  let trimmed = false;
  const kept: string[] = [];
  for (const line of lines) {
    if (!FRAME.test(line)) {
      kept.push(line);
      continue;
    }
    const program = line.length <= MAX_FRAME_CHARS ? PROGRAM_FRAME.exec(line) : null;
    if (program) {
      const programLine = Number(program[2]) - PROGRAM_LINE_OFFSET;
      if (programLine >= 1) {
        kept.push(`${program[1]}at run_code program line ${programLine}, column ${program[3]}`);
        trimmed = true;
        continue;
      }
    }
    if (INTERNAL.test(line) || line.includes(RUNTIME_WORKER_FILE)) {
      trimmed = true;
      continue;
    }
    kept.push(line);
  }
  return trimmed ? kept.join('\n') : message;
}
