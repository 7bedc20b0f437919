/** Public entry of @dsh-tool-normalizer/syntax-healer: re-exports only. */
export type * from './types.js';
export { healProgram, DEFAULT_MAX_COMPILE_ATTEMPTS, DEFAULT_MAX_REPAIR_CHARS } from './heal.js';
export { compilesLikeHost, stripBackend, type CompileVerdict, type StripBackend } from './host-compile.js';
export * from './program-analysis.js';
export { RUN_CODE } from './tool-name.js';
export { MAX_PARSE_CHARS, MAX_PROGRAM_CHARS } from './limits.js';
export {
  DSML,
  type DsmlBlock,
  type DsmlCall,
  dsmlParameters,
  dsmlToolCalls,
  toolMarkupTagEnd,
  withoutDsmlTags,
} from './dsml.js';
