/** Public entry of @dsh-tool-normalizer/ai-sdk: re-exports only. */
export type * from './types.js';
export type { HealingSeams, ToolInputRefinement } from './repair.js';
export { type DsmlTextOptions, dsmlTextMiddleware } from './dsml-text.js';
export { createToolCallRepair, createToolInputRefinement, healToolCalls } from './repair.js';
export { dshHostChecks } from '@dsh-tool-normalizer/core-rules';
