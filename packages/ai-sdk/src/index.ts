/** Public entry of @dsh-tool-normalizer/ai-sdk: re-exports only. */
export type * from './types.js';
export { createToolCallRepair } from './repair.js';
export { readNearJson, type NearJsonReading } from './near-json.js';
