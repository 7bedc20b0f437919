/** Public entry of @dsh-tool-normalizer/core-rules: re-exports only. */
export type * from './types.js';
