/**
 * The healer's bounds, in one place, so that no input costs the host's event loop more than a few tens of
 * milliseconds (issue 21: "finish any input up to 1 MB within 50 ms"). Sizes are in UTF-16 code units (what
 * `string.length` counts). Each bound was picked from `packages/core-rules/bench/bounded.bench.mjs`: the host-identical
 * compile is quadratic in awaits x locals (4.6 s for 1 MB of `const rN = await ...` on Node 24, and a V8 fatal
 * error at 10 MB on Node 20), Node's type strip costs about 0.1-0.25 us per character, Babel's parser more.
 */

/** A program longer than this (256 KiB) is not checked or repaired at all: it is left to the host, with a reason. */
export const MAX_PROGRAM_CHARS = 256 * 1024;

/** Up to this size the host's own compile (an eager `AsyncFunction`) decides; above it, a lazy parse check does. */
export const EAGER_COMPILE_CHARS = 64 * 1024;

/** Largest program whose TypeScript is stripped (Node's strip or Babel's erase) to reach a verdict. */
export const MAX_STRIP_CHARS = 64 * 1024;

/** Largest text given to Babel's parser (diagnostic positions, program analysis, the cut-point judgement). */
export const MAX_PARSE_CHARS = 64 * 1024;

/**
 * Default work budget of one `healProgram` call, in characters compiled (all attempts together): a repair candidate
 * that would pass it is not compiled. Deterministic (the same input gets the same answer on a loaded machine).
 */
export const DEFAULT_MAX_COMPILED_CHARS = 160 * 1024;
