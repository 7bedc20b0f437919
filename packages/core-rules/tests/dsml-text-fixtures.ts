/**
 * Model texts that hold DeepSeek's DSML tool-call markup, as vLLM and SGLang return them in `message.content` when
 * their tool parser misses it, written from the public reports' exact shapes. Each fixture names its source (read
 * with the search tool over GitHub issues, December 2026). Imported by core-rules' tests, the kit's, and dsh-adapter's
 * stream-seam test; the real-host scenario (apps/dsh-lab) plays `SGLANG_35736` and the empty tool-calls finish.
 */
export const D = '｜DSML｜';

/**
 * sgl-project/sglang #35736 ("DeepSeek-V4 leaks raw DSML when tool_choice="none""): HTTP 200, `finish_reason:
 * "stop"`, no `tool_calls`, and this `message.content`, verbatim (7/7 runs, streaming and not).
 */
export const SGLANG_35736 = [
  `<${D}tool_calls>`,
  `<${D}invoke name="Bash">`,
  `<${D}parameter name="command" string="true">pwd</${D}parameter>`,
  `</${D}invoke>`,
  `</${D}tool_calls>`,
].join('\n');

/**
 * sgl-project/sglang PR #17141 / #17320 (DeepSeek-V3.2: "tool call information is always output as plain text in
 * the content field", `finish_reason` "stop"): V3.2's block name is `function_calls`. The call is the PR's weather
 * example; the parameter shape is V3.2's (string="true").
 */
export const SGLANG_17141_V32 = [
  `<${D}function_calls>`,
  `<${D}invoke name="get_weather">`,
  `<${D}parameter name="location" string="true">Beijing</${D}parameter>`,
  `</${D}invoke>`,
  `</${D}function_calls>`,
].join('\n');

/**
 * TokenRhythm/opensquilla #985 (deepseek-v4-flash 0731, "Four exec_command invocations were surfaced as prose. None
 * executed"): several invokes in one block; the report's own text, first two invokes, as a complete block.
 */
export const OPENSQUILLA_985_TWO_CALLS = [
  `<${D}tool_calls>`,
  `<${D}invoke name="exec_command">`,
  `<${D}parameter name="cmd" string="true">Get-Item -LiteralPath 'D:\\deskop_.nbt' | Select-Object FullName,Length,LastWriteTime</${D}parameter>`,
  `</${D}invoke>`,
  `<${D}invoke name="exec_command">`,
  `<${D}parameter name="cmd" string="true">Get-FileHash -Algorithm SHA256 -LiteralPath 'D:\\deskop_.nbt' | Format-List</${D}parameter>`,
  `</${D}invoke>`,
  `</${D}tool_calls>`,
].join('\n');

/** The same report as posted, with its literal `...` between the invokes: not markup, so never read. */
export const OPENSQUILLA_985_AS_POSTED = OPENSQUILLA_985_TWO_CALLS.replace(
  `</${D}invoke>\n</${D}tool_calls>`,
  `</${D}invoke>\n...\n</${D}tool_calls>`,
);

/**
 * anomalyco/opencode #24566 (DeepSeek-V4-Flash): the opening tag lacks its `>` (`<｜DSML｜tool_calls` then a newline)
 * and a `string="false"` JSON array parameter. Malformed markup: never read.
 */
export const OPENCODE_24566_MALFORMED = [
  `<${D}tool_calls`,
  `<${D}invoke name="question">`,
  `<${D}parameter name="questions" string="false">[{"question": "xxx：", "options": {"label": "xxx", "description": "xxx"}, "header": "xxx"}]</${D}parameter>`,
  `</${D}invoke>`,
  `</${D}tool_calls>`,
].join('\n');

/**
 * anomalyco/opencode #24566, the second comment's shape (a `read` with `string="false"` numbers), complete.
 */
export const OPENCODE_24566_READ = [
  `<${D}tool_calls>`,
  `<${D}invoke name="read">`,
  `<${D}parameter name="filePath" string="true">I:\\hrc\\usermode\\src\\hypercall\\hypercall.cpp</${D}parameter>`,
  `<${D}parameter name="limit" string="false">15</${D}parameter>`,
  `<${D}parameter name="offset" string="false">357</${D}parameter>`,
  `</${D}invoke>`,
  `</${D}tool_calls>`,
].join('\n');

/**
 * vllm-project/vllm PR #54686 ("Fix DSML leaking for DeepSeek-v4 models"): the deterministic probe's one tool,
 * `record_item` (`name` required, `note` optional), and its marker constant `D = "｜DSML｜"`; the text is the call the
 * probe asks the model to write.
 */
export const VLLM_54686_TOOL = {
  name: 'record_item',
  description: 'Record one item.',
  parameters: {
    type: 'object',
    properties: { name: { type: 'string' }, note: { type: 'string' } },
    required: ['name'],
  },
};
export const VLLM_54686_PROBE = [
  `<${D}tool_calls>`,
  `<${D}invoke name="record_item">`,
  `<${D}parameter name="name" string="true">alpha</${D}parameter>`,
  `<${D}parameter name="note" string="true">first</${D}parameter>`,
  `</${D}invoke>`,
  `</${D}tool_calls>`,
].join('\n');

/** A block cut before its closing tag (a `length` finish, or a stream cut short): never read. */
export const CUT_BLOCK = SGLANG_35736.slice(0, SGLANG_35736.lastIndexOf(`</${D}tool_calls>`));
