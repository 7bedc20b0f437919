/**
 * The static guidance section added to the system prompt. Static on purpose: it never changes per turn, so the
 * provider's prompt cache keeps hitting, and it contains no `{{` because the host interpolates `{{variable}}`.
 */
export const PROMPT_SECTION_NAME = 'tool-normalizer';

/** Tool guidance lives in orders 100-199; this goes after the tools' own sections and after the SDK (150). */
export const PROMPT_SECTION_ORDER = 190;

export const PROMPT_SECTION_TEXT = [
  '# Tool call hygiene',
  '- Send arguments as one JSON object that matches the tool schema; include every required field (bash and run_code both need `description`).',
  '- run_code takes `code` (a plain TypeScript/JavaScript program, no Markdown fences) and `description`; never `command`.',
  '- When only run_code is callable, call other tools inside the program: `await tools.read({ file_path })`.',
  '- Use absolute paths for str_replace_editor, and keep `view_range` inside the file.',
  '- Read a file before editing or overwriting it. A write over a file you never read is not done; when the error shows you the file, resend the write only if you still mean to replace it. If an edit reports the file changed since it was read, read it again and redo the edit against the new content.',
  '- When a tool error ends with a hint, follow the hint instead of repeating the same call. A call that failed the same way twice will not work unchanged: change it, change approach, or ask the user.',
].join('\n');
