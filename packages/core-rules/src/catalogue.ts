/**
 * The catalogue: every rule the engine has (stable id, stage, result category, the switch that enables it, the file
 * that implements it, a one-line description), every switch (stable id, the config description, the options card's
 * label and hint) and every result category (stable id, dashboard label, whether it is a known mechanical failure
 * class). It is the typed source of truth: `RuleId`, `SwitchId` and `CategoryId` are derived from these rows; every
 * receipt and recovery plan carries one of these ids; the engine gates each rule by its row's switch; the switch
 * list (`TOGGLE_KEYS`), the plugin's config schema, its live options and the options card's rows, the dashboard's
 * rule cards and the README tables are generated from them. To add a rule, append one row here (and a new switch,
 * if it needs one, below), write the rule in the file the row names, and register it where that file's stage runs
 * (normalize.ts `ARGUMENT_RULES` for argument rules); tests/catalogue.test.ts fails on anything missing.
 */
import type { Receipt, RuleToggles } from './types.js';

/**
 * The rule switches, in the order the configuration documents them. `description` is the config schema's text (and
 * the README's options table); `label` and `hint` are the English options card (the Chinese card is typed against
 * these ids, so a new switch without its translation does not compile). Every switch is on by default.
 */
export const switchCatalogue = Object.freeze([
  {
    id: 'autoWrapRunCode',
    description: 'Repair run_code calls: {command}/{cmd} to {code}, missing description, fenced or broken programs.',
    label: 'Repair run_code calls',
    hint: 'Rewrites {command}/{cmd} to {code}, adds a missing description, repairs fenced or broken programs.',
  },
  {
    id: 'autoBridgeDirectTools',
    description: 'Code Mode: turn a direct call to a visible tool into a run_code call.',
    label: 'Bridge direct tool calls in Code Mode',
    hint: 'A direct call to a visible tool becomes a run_code call instead of an unknown-tool error.',
  },
  {
    id: 'autoObserveFiles',
    description:
      'Edit of an unread file: read it, then retry once. Write (or editor insert/create) over an unread file: read it and show it to the model with the error, never retried (only with errorHints on). A stale edit is re-read, never re-applied.',
    label: 'Read unread files before editing',
    hint: 'An edit of an unread file reads it, then retries once; a write over one shows the file with the error.',
  },
  {
    id: 'autoClampRanges',
    description: 'Clamp a str_replace_editor view_range that runs past the end of the file.',
    label: 'Clamp view ranges',
    hint: 'A str_replace_editor view_range that runs past the end of the file is clamped to the file.',
  },
  {
    id: 'errorHints',
    description: 'Append one actionable hint to errors nobody could heal.',
    label: 'Error hints',
    hint: 'Appends one actionable hint to an error nobody could heal.',
  },
  {
    id: 'breakLoops',
    description:
      'Count identical failures per session (same tool, arguments and error code): the 2nd gets a hint naming what must change, from the 3rd the hint says to change approach or ask the user.',
    label: 'Break failure loops',
    hint: 'An identical failure sent again gets a hint naming what must change; from the third, to change approach.',
  },
] as const satisfies readonly { id: string; description: string; label: string; hint: string }[]);

/** The name of one rule switch. */
export type SwitchId = (typeof switchCatalogue)[number]['id'];

export const categoryCatalogue = Object.freeze([
  { id: 'ok', label: 'Succeeded', known: false },
  { id: 'invalid-args', label: 'Invalid arguments', known: true },
  { id: 'code-mode-direct-call', label: 'Code Mode direct call', known: true },
  { id: 'unknown-tool', label: 'Unknown tool', known: true },
  { id: 'code-syntax', label: 'Program does not compile', known: true },
  { id: 'inner-invalid-args', label: 'Inner call: invalid arguments', known: true },
  { id: 'inner-unknown-binding', label: 'Inner call: no such tool', known: true },
  { id: 'fs-not-observed', label: 'File not read before writing', known: true },
  { id: 'fs-stale-version', label: 'File changed since read', known: true },
  { id: 'editor-path', label: 'Editor: relative path', known: true },
  { id: 'editor-range', label: 'Editor: view_range', known: true },
  { id: 'read-range', label: 'Read: offset past end', known: true },
  { id: 'fs-edit-anchor', label: 'Edit anchor not found or ambiguous', known: false },
  { id: 'inner-tool-error', label: 'Inner call failed', known: false },
  { id: 'code-runtime', label: 'Program failed at run time', known: false },
  { id: 'aborted', label: 'Cancelled', known: false },
  { id: 'other', label: 'Other error', known: false },
] as const satisfies readonly { id: string; label: string; known: boolean }[]);

/** A stable result category id. */
export type CategoryId = (typeof categoryCatalogue)[number]['id'];

export const ruleCatalogue = Object.freeze([
  {
    id: 'args.unwrap-double-encoded',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'decode-arguments.ts#decodeArguments',
    title: 'Unwrap double-encoded arguments',
    description: 'Arguments sent as a JSON string inside a JSON string are decoded when the object passes the schema.',
  },
  {
    id: 'args.unwrap-fenced-json',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'decode-arguments.ts#decodeArguments',
    title: 'Unwrap fenced JSON arguments',
    description: 'Arguments wrapped in a ```json fence are decoded when the object passes the schema.',
  },
  {
    id: 'args.rename-alias',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/arguments.ts#renameAliasKeys',
    title: 'Read keys as the schema names them',
    description:
      "An undeclared key is read as the key of the schema it stands for, at every depth (nested objects, each item of a list of objects, the one anyOf/oneOf branch that reads): the schema's own key in another case style (branch_name -> branchName) or a synonym of an absent required key (cmd -> command, path -> file_path, directory -> path, from/to -> source/destination). Two candidates for one key is no reading: nothing is renamed when another undeclared key could be the same key.",
  },
  {
    id: 'args.fill-description',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/arguments.ts#fillDescription',
    title: 'Fill a missing description',
    description:
      "A missing or blank required display description (bash, subagent) is derived from the call's other arguments, after redacting obvious secrets.",
  },
  {
    id: 'run_code.command-to-code',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/run-code.ts#normalizeRunCode',
    title: 'command -> code',
    description:
      'run_code sent its text as command/cmd/script: a program (compiles like the host, cannot run as shell) becomes code; a shell command becomes a program that dispatches it through tools.bash.',
  },
  {
    id: 'run_code.fill-description',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/run-code.ts#normalizeRunCode',
    title: 'Fill run_code description',
    description:
      "A missing or blank run_code description comes from the program's opening comment, else from the tools it calls.",
  },
  {
    id: 'run_code.heal-syntax',
    stage: 'normalize',
    category: 'code-syntax',
    option: 'autoWrapRunCode',
    implementation: 'rules/run-code.ts#normalizeRunCode',
    title: 'Repair program syntax',
    description:
      'Markdown fences and mechanical syntax breakage are repaired by the syntax healer, verified like the host compiles; cut-off content is never invented.',
  },
  {
    id: 'run_code.inner-fill-description',
    stage: 'normalize',
    category: 'inner-invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/inner-calls.ts#planInnerFills',
    title: 'Fill inner-call description',
    description:
      'A tools.x({...}) literal lacking a required description gets one spliced in; every other byte of the program is kept.',
  },
  {
    id: 'run_code.inner-rename-alias',
    stage: 'normalize',
    category: 'inner-invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/inner-calls.ts#planInnerFills',
    title: 'Rename inner-call alias key',
    description:
      'A tools.x({...}) literal sending a required key under an alias (read({path}) for file_path) gets the key renamed in the program before it runs, one-to-one only; every other byte is kept.',
  },
  {
    id: 'code.bridge-direct-call',
    stage: 'normalize',
    category: 'code-mode-direct-call',
    option: 'autoBridgeDirectTools',
    implementation: 'rules/run-code.ts#dispatchProgram',
    title: 'Bridge Code Mode direct calls',
    description:
      'In Code Mode a direct call to a tool visible only inside run_code becomes a run_code program dispatching exactly that call.',
  },
  {
    id: 'editor.absolute-path',
    stage: 'normalize',
    category: 'editor-path',
    option: 'autoClampRanges',
    implementation: 'rules/editor.ts#absoluteEditorPath',
    title: 'Absolute editor paths',
    description:
      'A relative str_replace_editor path is resolved against the session cwd; never outside it and never without a cwd.',
  },
  {
    id: 'editor.view-range-shape',
    stage: 'normalize',
    category: 'editor-range',
    option: 'autoClampRanges',
    implementation: 'rules/editor.ts#reshapeViewRange',
    title: 'Reshape view_range',
    description:
      'Exact integer strings become numbers, "1,20"/"1-20"/"12"/{start,end} become pairs, [n] becomes [n, n], a start of 0 becomes 1, inverted pairs are swapped; -1 stays; a negative start, a padded (" 5") or zero-led ("010") number is never changed.',
  },
  {
    id: 'args.repair-near-json',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'decode-arguments.ts#readNearJson',
    title: 'Repair near-JSON arguments',
    description:
      'Argument text with trailing commas, single quotes, unquoted keys or a raw newline in a string is read with jsonrepair only when every string keeps its exact characters and the result passes the schema; cut-off text, comments, non-JSON backslash escapes, quotes inside single-quoted values, duplicate keys and text over 256 KB are refused.',
  },
  {
    id: 'args.drop-null-optional',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/arguments.ts#dropNullOptionals',
    title: 'Drop null optionals',
    description:
      'null sent for an optional parameter whose schema does not take null is dropped, so the host uses its default.',
  },
  {
    id: 'args.coerce-scalar',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/arguments.ts#coerceScalars',
    title: 'Lossless scalar forms',
    description:
      'A string that is exactly the canonical text of the declared type ("10" for an integer, "true" for a boolean, "[...]" for a list; no padding, no leading zeros) becomes that value.',
  },
  {
    id: 'args.strip-dsml-markup',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'dsml.ts#dsmlParameters',
    title: 'DSML markup in arguments',
    description:
      "Argument text that is not JSON because DeepSeek's DSML markup leaked into it (vLLM/SGLang parser misses): DSML parameters become the object they name, stray DSML tags around one JSON object are dropped; valid JSON is never touched.",
  },
  {
    id: 'args.strip-edge-nul',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/arguments.ts#stripEdgeNuls',
    title: 'NUL bytes around a command or path',
    description:
      'NUL bytes at the start or end of a bash command or a file path (which no system call accepts) are dropped; a NUL inside the text is left to the host.',
  },
  {
    id: 'args.wrap-scalar-in-list',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/arguments.ts#wrapScalarInList',
    title: 'One value for a list',
    description:
      'A single value where the schema wants a list ("queries": "rust async runtime") becomes the list of that value, and one object where a list of objects is wanted the list of it, at every depth; text that reads as a JSON list is parsed instead.',
  },
  {
    id: 'args.parse-object-text',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'rules/arguments.ts#parseObjectText',
    title: 'Structured value sent as JSON text',
    description:
      'An object or a list sent as JSON text, or as one fenced JSON value, where the schema wants one (meta sent as the text {"name": ...}) becomes that value, at every depth, when the text is exactly one JSON value of that kind; prose stays.',
  },
  {
    id: 'call.dsml-text-to-call',
    stage: 'normalize',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'text-calls.ts#dsmlTextCalls',
    title: 'DSML tool call left in the message text',
    description:
      "A whole DeepSeek DSML tool-call block left in the model's text with no tool call (vLLM/SGLang parser misses) becomes the call it names, only when the block is complete, the tool exists under one name and the arguments pass every check; the block is removed from the text, nothing else changes.",
  },
  {
    id: 'call.strip-name-prefix',
    stage: 'normalize',
    category: 'unknown-tool',
    option: 'autoBridgeDirectTools',
    implementation: 'tools.ts#unprefixedName',
    title: 'Strip provider name prefixes',
    description:
      'A tool name sent with a provider prefix (functions.read, default_api.bash) is called by its registered name.',
  },
  {
    id: 'recover.observe-then-retry',
    stage: 'recover',
    category: 'fs-not-observed',
    option: 'autoObserveFiles',
    implementation: 'recovery.ts#planRecovery',
    title: 'Observe, then retry',
    description:
      'After FS_NOT_OBSERVED on edit or str_replace_editor (whose anchor proves the model knew the content) the file is read with a tool the agent can see, then the same call is retried once.',
  },
  {
    id: 'recover.stale-refresh',
    stage: 'recover',
    category: 'fs-stale-version',
    option: 'autoObserveFiles',
    implementation: 'recovery.ts#planRecovery',
    title: 'Refresh a stale file',
    description:
      'After FS_STALE_VERSION on an anchored edit the file is re-read but the edit is never re-applied; the model is told to re-read. A write, insert or create is not refreshed (a blind resend would overwrite content the model has not seen).',
  },
  {
    id: 'recover.view-range-clamp',
    stage: 'recover',
    category: 'editor-range',
    option: 'autoClampRanges',
    implementation: 'recovery.ts#clampViewRange',
    title: 'Clamp view_range to the file',
    description: 'A view_range past the end is retried once, clamped to the line count the error reports.',
  },
  {
    id: 'recover.unknown-tool-alias',
    stage: 'recover',
    category: 'unknown-tool',
    option: 'autoBridgeDirectTools',
    implementation: 'tool-names.ts#resolveToolAlias',
    title: 'Unknown tool alias',
    description:
      'A name registered nowhere with exactly one obvious target whose schema the arguments fit is retried as that tool.',
  },
  {
    id: 'recover.retry-repaired-args',
    stage: 'recover',
    category: 'invalid-args',
    option: 'autoWrapRunCode',
    implementation: 'recovery.ts#planRecovery',
    title: 'Retry with repaired arguments',
    description:
      'A call rejected for its arguments (nothing ran), e.g. an inner Code Mode sub-call, is retried once with the repair.',
  },
  {
    id: 'hint.error-hints',
    stage: 'hint',
    category: 'other',
    option: 'errorHints',
    implementation: 'hints.ts#hintFor',
    title: 'Actionable error hints',
    description:
      'An error nobody healed keeps its exact text and gains one sentence: the missing fields, a ready-to-paste reissue, or where a program broke.',
  },
  {
    id: 'recover.observe-before-write',
    stage: 'recover',
    category: 'fs-not-observed',
    option: 'autoObserveFiles',
    implementation: 'recovery.ts#planRecovery',
    title: 'Show the file before a write',
    description:
      "After FS_NOT_OBSERVED on write or str_replace_editor insert/create the file is read through the host (a real observation) but the call is never retried: the model gets the original error, the file's current content (bounded, as read shows it) and a hint to resend it if it still means to. Only with errorHints on; with hints off nothing is read or shown.",
  },
  {
    id: 'hint.repeat-failure',
    stage: 'hint',
    category: 'other',
    option: 'breakLoops',
    implementation: 'repeats.ts#repeatHint',
    title: 'Break retry loops',
    description:
      "Identical failures (same tool, canonical arguments, error code) are counted per session: the 2nd keeps the host's error and names what must change; from the 3rd the model is told to change approach or ask the user.",
  },
] as const satisfies readonly {
  id: string;
  stage: 'normalize' | 'recover' | 'hint';
  category: CategoryId;
  option: SwitchId;
  /** `file#export` under src/: where the rule is written (tests/catalogue.test.ts checks it exists). */
  implementation: `${string}.ts#${string}`;
  title: string;
  description: string;
}[]);

/** A stable rule id: every receipt and recovery plan names one. */
export type RuleId = (typeof ruleCatalogue)[number]['id'];

const categoryOfRule = new Map<string, CategoryId>(ruleCatalogue.map((rule) => [rule.id, rule.category]));

const switchOfRule = new Map<string, SwitchId>(ruleCatalogue.map((rule) => [rule.id, rule.option]));

/** The switch that turns `ruleId` on and off. */
export function switchOf(ruleId: RuleId): SwitchId {
  const id = switchOfRule.get(ruleId);
  if (id === undefined) throw new Error(`core-rules: ${ruleId} is not in the rule catalogue`);
  return id;
}

/** Whether `ruleId` may run under the (resolved) switches: its catalogue row's switch is on. */
export function ruleOn(toggles: RuleToggles, ruleId: RuleId): boolean {
  return toggles[switchOf(ruleId)];
}

/** The category a rule's receipts and plans carry. */
export function categoryOf(ruleId: RuleId): CategoryId {
  return categoryOfRule.get(ruleId) ?? 'other';
}

/** A receipt for `ruleId`, with the category the catalogue gives the rule. */
export function receipt(ruleId: RuleId, why: string, before: string, after: string): Receipt {
  return { ruleId, category: categoryOf(ruleId), why, before, after };
}
