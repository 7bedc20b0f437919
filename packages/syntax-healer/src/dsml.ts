/**
 * DeepSeek's DSML tool-call markup, as vLLM and SGLang leak it into OpenAI-compatible responses when their tool
 * parser misses it (public reports: vllm-project/vllm #53227, #48931, #45877, #48367; sgl-project/sglang #35736;
 * charmbracelet/crush #2776). The shapes, with the fullwidth bars DeepSeek's template uses:
 *
 *   <｜DSML｜tool_calls>                       (also function_calls)
 *   <｜DSML｜invoke name="Bash">
 *   <｜DSML｜parameter name="command" string="true">pwd</｜DSML｜parameter>
 *   </｜DSML｜invoke>
 *   </｜DSML｜tool_calls>
 *
 * `string="true"` holds raw text, `string="false"` a JSON value. This module only reads the markup; the rules that
 * use it are validate-gated (core-rules' decode-arguments.ts: arguments that are not JSON but DSML parameters, or JSON
 * with a stray DSML tag; kit.ts and dsh-adapter's stream seam: a whole block left in the message text,
 * `dsmlToolCalls`; this package's leaked-markup.ts: the same tags left around a `run_code` program). It lives in the
 * syntax healer because core-rules imports the healer: core-rules/src/dsml.ts re-exports it.
 */

/** The DSML marker: text without it is never read as markup. */
export const DSML = '｜DSML｜';

/** One DSML tag, opening or closing, with its attributes: the grammar every reading of the markup uses. */
const TAG_SOURCE = '<\\/?｜DSML｜[A-Za-z_]+(?:\\s+[A-Za-z_]+="[^"<>]*")*\\s*>';
const TAG = new RegExp(TAG_SOURCE, 'g');

/**
 * A tool-call markup tag that leaks around a program's text: a DSML tag, or the XML forms of other chat templates
 * (Qwen3-Coder's `<tool_call>`, `<function=run_code>`, `<parameter=code>`; `<invoke name="…">`, `<parameter name="…">`,
 * `<function_calls>`), a reasoning `<think>`/`</think>` (sgl-project/sglang #35736, #36285; QwenLM/qwen-code
 * #10692), and DeepSeek's end-of-call special tokens.
 */
/**
 * DeepSeek's end-of-call special tokens (`<｜tool▁call▁end｜>`, `<｜tool▁calls▁end｜>`, and their ASCII spellings
 * `<|tool_call_end|>`), the end of a turn (`<｜end▁of▁sentence｜>`, `<|im_end|>`), left after the arguments when a
 * server's parser misses them (sgl-project/sglang #5224 shows the sequence).
 */
const SPECIAL_TOKEN = '<[｜|](?:tool[▁_]calls?[▁_]end|end[▁_]of[▁_]sentence|im_end)[｜|]>';
const TOOL_MARKUP_TAG = new RegExp(
  `(?:${TAG_SOURCE}|<\\/?(?:tool_call|tool_calls|function_calls|invoke|function|parameter|arg_value|think)(?:=[\\w.-]+)?(?:\\s+[A-Za-z_]+="[^"<>]*")*\\s*>|${SPECIAL_TOKEN})`,
  'y',
);

/** The end of the tool-call markup tag that starts exactly at `index` in `text`, or -1 when none does. */
export function toolMarkupTagEnd(text: string, index: number): number {
  TOOL_MARKUP_TAG.lastIndex = index;
  return TOOL_MARKUP_TAG.test(text) ? TOOL_MARKUP_TAG.lastIndex : -1;
}

const PARAMETER =
  /<｜DSML｜parameter\s+name="([^"<>]+)"(?:\s+string="(true|false)")?\s*>([\s\S]*?)<\/｜DSML｜parameter>/g;

/** `text` with every DSML tag removed (contents kept), or undefined when it holds none. */
export function withoutDsmlTags(text: string): string | undefined {
  if (!text.includes(DSML)) return undefined;
  const stripped = text.replace(TAG, '');
  return stripped === text ? undefined : stripped;
}

/** Parameters read from a DSML run: the values by name, and what was left between them. */
function readParameters(text: string): { args: Record<string, unknown>; rest: string } | undefined {
  const entries: [string, unknown][] = [];
  const names = new Set<string>();
  let rest = '';
  let last = 0;
  for (const match of text.matchAll(PARAMETER)) {
    rest += text.slice(last, match.index);
    last = (match.index ?? 0) + match[0].length;
    const [, name, literal, value] = match as unknown as [string, string, string | undefined, string];
    if (names.has(name)) return undefined;
    names.add(name);
    if (literal === 'false') {
      try {
        entries.push([name, JSON.parse(value) as unknown]);
      } catch {
        return undefined;
      }
    } else entries.push([name, value]);
  }
  rest += text.slice(last);
  return { args: Object.fromEntries(entries), rest };
}

/**
 * The arguments a run of DSML parameters stands for (`<｜DSML｜parameter name="command" string="true">pwd</…>` ->
 * `{ command: "pwd" }`), when the text is nothing but such parameters (and invoke / tool_calls wrappers around them).
 * Undefined when anything else is there, a `string="false"` value is not JSON, or a name repeats.
 */
export function dsmlParameters(text: string): Record<string, unknown> | undefined {
  if (!text.includes(DSML)) return undefined;
  const read = readParameters(text);
  if (!read || Object.keys(read.args).length === 0) return undefined;
  // Only wrappers (invoke, tool_calls) and whitespace may remain.
  if (read.rest.replace(TAG, '').trim() !== '') return undefined;
  return read.args;
}

/** One call a DSML block in a message's text stands for: the name as the model wrote it, and its arguments. */
export interface DsmlCall {
  name: string;
  args: Record<string, unknown>;
  /** The call's own `<｜DSML｜invoke …>…</｜DSML｜invoke>` text. */
  markup: string;
}

/** A whole DSML block found in a message's text: its calls, and the text with the block removed. */
export interface DsmlBlock {
  calls: DsmlCall[];
  /** The text with exactly the block's characters removed (everything around it kept byte for byte). */
  text: string;
}

/** The block names DeepSeek's templates use: V4 `tool_calls`, V3.2 `function_calls`. */
const BLOCK_NAMES = ['tool_calls', 'function_calls'] as const;
const INVOKE = /<｜DSML｜invoke\s+name="([^"<>]+)"\s*>([\s\S]*?)<\/｜DSML｜invoke>/g;

/**
 * The calls of the one complete DSML block in `text` (a model's message content, when the server's tool parser
 * missed it), or undefined. Strict on purpose: exactly one `<｜DSML｜tool_calls>` (or `function_calls`) block with
 * its closing tag (a cut block is never read), nothing inside it but invokes and whitespace, nothing inside an
 * invoke but parameters and whitespace, no repeated parameter name, every `string="false"` value JSON. Whether
 * the calls may run is the caller's validate-gated decision.
 */
export function dsmlToolCalls(text: string): DsmlBlock | undefined {
  if (typeof text !== 'string' || !text.includes(DSML)) return undefined;
  let found: { start: number; end: number; body: string } | undefined;
  for (const name of BLOCK_NAMES) {
    const open = `<${DSML}${name}>`;
    const close = `</${DSML}${name}>`;
    const start = text.indexOf(open);
    if (start < 0) continue;
    const bodyStart = start + open.length;
    const closeAt = text.indexOf(close, bodyStart);
    // A second block (of either name) or a cut one: not read.
    if (found || closeAt < 0 || text.indexOf(open, bodyStart) >= 0) return undefined;
    found = { start, end: closeAt + close.length, body: text.slice(bodyStart, closeAt) };
  }
  if (!found) return undefined;
  const outside = text.slice(0, found.start) + text.slice(found.end);
  // Any other DSML tag outside the block (a stray or second wrapper, a bare invoke) makes it ambiguous.
  if (outside.includes(DSML)) return undefined;
  const calls: DsmlCall[] = [];
  let between = '';
  let last = 0;
  for (const match of found.body.matchAll(INVOKE)) {
    between += found.body.slice(last, match.index);
    last = (match.index ?? 0) + match[0].length;
    const [markup, name, inner] = match as unknown as [string, string, string];
    const read = readParameters(inner);
    if (read?.rest.trim() !== '') return undefined;
    calls.push({ name, args: read.args, markup });
  }
  between += found.body.slice(last);
  if (calls.length === 0 || between.trim() !== '') return undefined;
  return { calls, text: outside };
}
