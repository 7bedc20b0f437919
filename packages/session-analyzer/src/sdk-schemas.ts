/**
 * In Code Mode DSH presents only `run_code` as a tool; the tools a program can call are declared to the model as a
 * TypeScript SDK (`interface ToolArgsMap { ... }`) inside the system prompt, and the log records no JSON Schema for
 * them. This module turns those declarations back into minimal JSON Schemas (property names, which are required,
 * primitive types, string-literal enums) so a counterfactual replay can validate inner calls against what the
 * model was really shown. Anything more complex than a primitive becomes an unconstrained property.
 */
import type { ToolSchema } from '@dsh-tool-normalizer/core-rules';

const TOOL_OPEN = /^ {2}([A-Za-z_$][\w$-]*|"[^"]+"): \{\s*$/;
const TOOL_NO_ARGS = /^ {2}([A-Za-z_$][\w$-]*|"[^"]+"): Record<string, JsonValue>;\s*$/;
const PROPERTY = /^ {4}([A-Za-z_$][\w$]*|"[^"]+")(\?)?: (.*?);?\s*$/;

function unquote(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1) : name;
}

/** A JSON Schema for one TypeScript property type of the SDK; unknown shapes are left unconstrained. */
function schemaOfType(type: string): Record<string, unknown> {
  const text = type.trim();
  if (text === 'string') return { type: 'string' };
  if (text === 'number') return { type: 'number' };
  if (text === 'boolean') return { type: 'boolean' };
  if (/^(string|number|boolean)\[\]$/.test(text)) return { type: 'array', items: schemaOfType(text.slice(0, -2)) };
  if (/^"[^"]*"(\s*\|\s*"[^"]*")*$/.test(text))
    return { enum: text.split('|').map((part) => JSON.parse(part.trim()) as string) };
  return {};
}

function braceDelta(line: string): number {
  let delta = 0;
  for (const char of line) {
    if (char === '{') delta += 1;
    else if (char === '}') delta -= 1;
  }
  return delta;
}

/**
 * The tool schemas declared by the Code-Mode SDK in a DSH system prompt, or an empty list when the prompt has no
 * `interface ToolArgsMap`. Never throws.
 */
export function schemasFromSdk(systemPrompt: string): ToolSchema[] {
  const start = systemPrompt.indexOf('\ninterface ToolArgsMap {');
  if (start < 0) return [];
  const tools: ToolSchema[] = [];
  let current: { name: string; properties: Record<string, unknown>; required: string[] } | undefined;
  let depth = 1;
  const lines = systemPrompt.slice(start + 1).split('\n');
  for (let index = 1; index < lines.length && depth > 0; index++) {
    const line = lines[index] ?? '';
    if (line.trimStart().startsWith('/**') || line.trimStart().startsWith('*')) continue;
    if (depth === 1) {
      const open = TOOL_OPEN.exec(line);
      const empty = TOOL_NO_ARGS.exec(line);
      if (open?.[1]) current = { name: unquote(open[1]), properties: {}, required: [] };
      else if (empty?.[1]) tools.push({ name: unquote(empty[1]), parameters: { type: 'object', properties: {} } });
    } else if (depth === 2 && current) {
      const property = PROPERTY.exec(line);
      if (property?.[1] && property[3] !== undefined) {
        const name = unquote(property[1]);
        const opensObject = property[3].trim().endsWith('{');
        current.properties[name] = opensObject ? {} : schemaOfType(property[3]);
        if (property[2] !== '?') current.required.push(name);
      }
    }
    depth += braceDelta(line);
    if (depth === 1 && current && line.startsWith('  }')) {
      tools.push({
        name: current.name,
        parameters: { type: 'object', properties: current.properties, required: current.required },
      });
      current = undefined;
    }
  }
  return tools;
}
