/** Public entry of @dsh-tool-normalizer/syntax-healer: re-exports only. */
export type * from './types.js';
