/**
 * Runs the healer's synchronous work without recording stack traces.
 *
 * A repair tries candidates the host compile rejects, and Babel's TypeScript parser backtracks by throwing: every one
 * of those errors captured a stack trace that nobody reads (the healer keeps only `error.message`, `name` and Babel's
 * `loc`). Capturing and formatting them (Node also decorates a failed type strip with a source snippet) was about a
 * fifth of the memory a failing program allocated, and young-generation GC pauses were the healer's latency tail.
 * `Error.stackTraceLimit` is V8's knob for it; it is restored before returning, and nothing asynchronous runs in
 * between. Where the knob does not exist or cannot be set (another engine, frozen intrinsics), `run` runs as is.
 */
export function withoutStackTraces<T>(run: () => T): T {
  const saved = Error.stackTraceLimit;
  if (typeof saved !== 'number' || saved === 0) return run();
  try {
    Error.stackTraceLimit = 0;
  } catch {
    return run();
  }
  try {
    return run();
  } finally {
    Error.stackTraceLimit = saved;
  }
}
