/**
 * Small text helpers shared by the rules: bounded previews for receipts, and the short display
 * descriptions the engine writes when a required `description` is missing (derived from the call's own
 * arguments, never invented content).
 */

/** A bounded one-piece preview keeping the head and the tail of long text. */
export function preview(value: unknown, max = 160): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = '(absent)';
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = '(unserialisable)';
    }
  }
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) * 0.6);
  const tail = max - 1 - head;
  return `${text.slice(0, head)}…${text.slice(text.length - tail)}`;
}

/** First line of `text`, whitespace-collapsed and cut to `max` characters. */
export function firstLine(text: string, max = 60): string {
  const line = (text.slice(0, 1000).trim().split('\n', 1)[0] ?? '').replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** Description of a shell command: `Run: git status`. */
export function describeCommand(command: string): string {
  const line = firstLine(command);
  return line ? `Run: ${line}` : 'Run a shell command';
}

/** Description of a program from the tools it calls: `Run program calling read, bash`. */
export function describeProgram(toolNamesCalled: readonly string[]): string {
  const unique = [...new Set(toolNamesCalled)];
  if (unique.length === 0) return 'Run a TypeScript program';
  const shown = unique.slice(0, 3).join(', ');
  return `Run program calling ${shown}${unique.length > 3 ? ' and more' : ''}`;
}

/** A display description for a call of `tool` with `args`, for a required `description` the model left out. */
export function describeCall(tool: string, args: Record<string, unknown>): string {
  if (typeof args.command === 'string' && tool === 'bash') return describeCommand(args.command);
  if (typeof args.prompt === 'string') {
    const words = firstLine(args.prompt, 200).split(' ').slice(0, 5).join(' ');
    if (words) return words;
  }
  const target = [args.file_path, args.path, args.pattern].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return target ? `Call ${tool} on ${firstLine(target)}` : `Call ${tool}`;
}
