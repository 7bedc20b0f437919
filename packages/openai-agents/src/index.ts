/** Public entry of @dsh-tool-normalizer/openai-agents: re-exports only. */
export type * from './types.js';
export { healModel, healModelProvider } from './heal-model.js';
export { dshHostChecks } from '@dsh-tool-normalizer/core-rules';
