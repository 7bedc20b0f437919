/**
 * DeepSeek's DSML tool-call markup: the reading lives in the syntax healer (`@dsh-tool-normalizer/syntax-healer`,
 * src/dsml.ts), which also strips that markup from around a leaked `run_code` program, so the engine's rules and the
 * healer read one grammar. Core-rules imports the healer, not the other way round, so the module sits there and is
 * re-exported here for the rules (decode-arguments.ts, kit.ts, text-calls.ts), from the `./dsml` entry, which loads
 * neither the healer nor Babel (the engine loads those only when a program is healed: healer.ts).
 */
export {
  DSML,
  type DsmlBlock,
  type DsmlCall,
  dsmlParameters,
  dsmlToolCalls,
  withoutDsmlTags,
} from '@dsh-tool-normalizer/syntax-healer/dsml';
