/**
 * Identifiers (rule ids, option and tool names) with a line-break opportunity between their parts: after `.`, `-`,
 * `_`, `/` and `:`, and inside a camelCase name before its next word. A narrow panel (DSH's Settings dialog leaves
 * the page 136 px) then wraps `run_code.command-to-code` as `run_code.` / `command-to-code`, never mid-part; the
 * text, its copy and its accessible name stay the same (a `<wbr>` adds no character).
 */
import { html, type TemplateResult } from 'lit';

const PART_END = /(?<=[._\-/:])(?=.)|(?<=[a-z0-9])(?=[A-Z])/;

/** `text` as lit content with a `<wbr>` between its parts. */
export function breakable(text: string): TemplateResult {
  const parts = text.split(PART_END);
  return html`${parts.map((part, index) => (index === 0 ? part : html`<wbr />${part}`))}`;
}
