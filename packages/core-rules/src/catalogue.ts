/**
 * The rule catalogue: every rule the engine has, with its stable id, result category, one-line
 * description and the config switch that enables it. The dashboard's rule cards and the README table are
 * generated from this list, and every receipt or plan carries one of these ids.
 */
import type { RuleInfo } from './types.js';

export const ruleCatalogue: readonly RuleInfo[] = Object.freeze([
  { id: 'args.unwrap-double-encoded', stage: 'normalize', category: 'invalid-args', option: 'autoWrapRunCode', title: 'Unwrap double-encoded arguments', description: 'Arguments sent as a JSON string inside a JSON string are decoded when the object passes the schema.' },
  { id: 'args.unwrap-fenced-json', stage: 'normalize', category: 'invalid-args', option: 'autoWrapRunCode', title: 'Unwrap fenced JSON arguments', description: 'Arguments wrapped in a ```json fence are decoded when the object passes the schema.' },
  { id: 'args.rename-alias', stage: 'normalize', category: 'invalid-args', option: 'autoWrapRunCode', title: 'Rename alias keys', description: 'A required key sent under a well-known alias (cmd -> command, path -> file_path) is renamed when exactly one alias is present.' },
  { id: 'args.fill-description', stage: 'normalize', category: 'invalid-args', option: 'autoWrapRunCode', title: 'Fill a missing description', description: 'A required display description (bash, subagent) is derived from the call\'s other arguments.' },
  { id: 'run_code.command-to-code', stage: 'normalize', category: 'invalid-args', option: 'autoWrapRunCode', title: 'command -> code', description: 'run_code sent a shell command as command/cmd/script: it becomes a program that dispatches it through tools.bash.' },
  { id: 'run_code.fill-description', stage: 'normalize', category: 'invalid-args', option: 'autoWrapRunCode', title: 'Fill run_code description', description: 'A missing or blank run_code description is derived from the program.' },
  { id: 'run_code.heal-syntax', stage: 'normalize', category: 'code-syntax', option: 'autoWrapRunCode', title: 'Repair program syntax', description: 'Markdown fences and mechanical syntax breakage are repaired by the syntax healer, verified like the host compiles; cut-off content is never invented.' },
  { id: 'run_code.inner-fill-description', stage: 'normalize', category: 'inner-invalid-args', option: 'autoWrapRunCode', title: 'Fill inner-call description', description: 'A tools.x({...}) literal lacking a required description gets one spliced in; every other byte of the program is kept.' },
  { id: 'code.bridge-direct-call', stage: 'normalize', category: 'code-mode-direct-call', option: 'autoBridgeDirectTools', title: 'Bridge Code Mode direct calls', description: 'In Code Mode a direct call to a tool visible only inside run_code becomes a run_code program dispatching exactly that call.' },
  { id: 'editor.absolute-path', stage: 'normalize', category: 'editor-path', option: 'autoClampRanges', title: 'Absolute editor paths', description: 'A relative str_replace_editor path is resolved against the session cwd; never outside it and never without a cwd.' },
  { id: 'editor.view-range-shape', stage: 'normalize', category: 'editor-range', option: 'autoClampRanges', title: 'Reshape view_range', description: 'Numeric strings become numbers, [n] becomes [n, n], start < 1 becomes 1, inverted pairs are swapped; -1 stays.' },
  { id: 'recover.observe-then-retry', stage: 'recover', category: 'fs-not-observed', option: 'autoObserveFiles', title: 'Observe, then retry', description: 'After FS_NOT_OBSERVED the file is read with a tool the agent can see, then the same call is retried once.' },
  { id: 'recover.stale-refresh', stage: 'recover', category: 'fs-stale-version', option: 'autoObserveFiles', title: 'Refresh a stale file', description: 'After FS_STALE_VERSION the file is re-read but the write is never re-applied; the model is told to re-read.' },
  { id: 'recover.view-range-clamp', stage: 'recover', category: 'editor-range', option: 'autoClampRanges', title: 'Clamp view_range to the file', description: 'A view_range past the end is retried once, clamped to the line count the error reports.' },
  { id: 'recover.unknown-tool-alias', stage: 'recover', category: 'unknown-tool', option: 'autoBridgeDirectTools', title: 'Unknown tool alias', description: 'A name registered nowhere with exactly one obvious target whose schema the arguments fit is retried as that tool.' },
  { id: 'recover.retry-repaired-args', stage: 'recover', category: 'invalid-args', option: 'autoWrapRunCode', title: 'Retry with repaired arguments', description: 'A call rejected for its arguments (nothing ran), e.g. an inner Code Mode sub-call, is retried once with the repair.' },
  { id: 'hint.error-hints', stage: 'hint', category: 'other', option: 'errorHints', title: 'Actionable error hints', description: 'An error nobody healed keeps its exact text and gains one sentence: the missing fields, a ready-to-paste reissue, or where a program broke.' },
]);
