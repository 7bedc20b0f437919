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
 * use it are validate-gated (decode-arguments.ts: arguments that are not JSON but DSML parameters, or JSON with a
 * stray DSML tag).
 */

/** The DSML marker: text without it is never read as markup. */
export const DSML = '｜DSML｜';

const TAG = /<\/?｜DSML｜[A-Za-z_]+(?:\s+[A-Za-z_]+="[^"<>]*")*\s*>/g;
const PARAMETER =
  /<｜DSML｜parameter\s+name="([^"<>]+)"(?:\s+string="(true|false)")?\s*>([\s\S]*?)<\/｜DSML｜parameter>/g;

/** `text` with every DSML tag removed (contents kept), or undefined when it holds none. */
export function withoutDsmlTags(text: string): string | undefined {
  if (!text.includes(DSML)) return undefined;
  const stripped = text.replace(TAG, '');
  return stripped === text ? undefined : stripped;
}

/**
 * The arguments a run of DSML parameters stands for (`<｜DSML｜parameter name="command" string="true">pwd</…>` ->
 * `{ command: "pwd" }`), when the text is nothing but such parameters (and invoke / tool_calls wrappers around them).
 * Undefined when anything else is there, a `string="false"` value is not JSON, or a name repeats.
 */
export function dsmlParameters(text: string): Record<string, unknown> | undefined {
  if (!text.includes(DSML)) return undefined;
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
  if (entries.length === 0) return undefined;
  // Only wrappers (invoke, tool_calls) and whitespace may remain.
  if (rest.replace(TAG, '').trim() !== '') return undefined;
  return Object.fromEntries(entries);
}
