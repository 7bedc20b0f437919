/**
 * Program analysis shared by the healer and the argument engine: parse a run_code program the way Babel
 * reads it (TypeScript, top-level `await` and `return`), walk the tree without recursion, find the
 * `tools.<name>(...)` calls it makes, read static strings and object keys, and apply text edits so that
 * every byte outside an edit stays as written. One place for this job, so both packages agree.
 */
import { parse } from '@babel/parser';

/** A Babel AST node, read structurally (only @babel/parser is a dependency, not @babel/types). */
export interface AstNode {
  type: string;
  start?: number | null;
  end?: number | null;
  loc?: { start?: { line?: number; column?: number } } | null;
  [key: string]: unknown;
}

/** One text edit: replace `[start, end)` with `text` (an insertion has `start === end`). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Longest program parsed for analysis (bounded work). */
export const MAX_ANALYSED_CHARS = 512 * 1024;

/** Keys of a Babel node that never hold child nodes (locations, comments, parser extras). */
export const NON_CHILD_KEYS: ReadonlySet<string> = new Set([
  'loc',
  'start',
  'end',
  'extra',
  'leadingComments',
  'trailingComments',
  'innerComments',
  'comments',
  'tokens',
]);

export function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
}

/** Parses a run_code program body (TypeScript, top-level await and return allowed); undefined when it does not parse or is too long. */
export function parseProgram(code: string): AstNode | undefined {
  if (typeof code !== 'string' || code.length > MAX_ANALYSED_CHARS) return undefined;
  try {
    return parse(code, {
      sourceType: 'script',
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      plugins: ['typescript'],
      errorRecovery: false,
    }) as unknown as AstNode;
  } catch {
    return undefined;
  }
}

/** The child nodes of a node, in source order (locations, comments and parser extras are not children). */
export function childNodes(node: AstNode): AstNode[] {
  const children: AstNode[] = [];
  for (const key of Object.keys(node)) {
    if (NON_CHILD_KEYS.has(key)) continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const child of value) if (isNode(child)) children.push(child);
    } else if (isNode(value)) children.push(value);
  }
  return children;
}

/** Every node of the tree, depth first in source order, without recursion. */
export function* walk(root: AstNode): Generator<AstNode> {
  const stack: AstNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as AstNode;
    yield node;
    const children = childNodes(node);
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as AstNode);
  }
}

/** The value of a string literal or a template literal without substitutions, else undefined. */
export function staticString(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === 'StringLiteral') return node.value as string;
  if (node.type === 'TemplateLiteral' && Array.isArray(node.expressions) && node.expressions.length === 0) {
    const quasi = (node.quasis as AstNode[])[0];
    const cooked = (quasi?.value as { cooked?: string } | undefined)?.cooked;
    return typeof cooked === 'string' ? cooked : undefined;
  }
  return undefined;
}

/** The tool name of a `tools.x(...)` / `tools["x"](...)` / `tools?.x(...)` call, else undefined. */
export function calledToolName(node: AstNode): string | undefined {
  if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return undefined;
  const callee = node.callee;
  if (!isNode(callee) || (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression'))
    return undefined;
  const object = callee.object;
  if (!isNode(object) || object.type !== 'Identifier' || object.name !== 'tools') return undefined;
  const property = callee.property;
  if (!callee.computed)
    return isNode(property) && property.type === 'Identifier' ? (property.name as string) : undefined;
  return staticString(property);
}

/** One `tools.<name>(...)` call site. */
export interface ToolCallSite {
  name: string;
  node: AstNode;
  /** The first argument, when there is one. */
  argument?: AstNode;
}

/** The tool calls of a parsed program, in source order. */
export function toolCallSites(program: AstNode): ToolCallSite[] {
  const sites: ToolCallSite[] = [];
  for (const node of walk(program)) {
    const name = calledToolName(node);
    if (name === undefined) continue;
    const first = (node.arguments as unknown[] | undefined)?.[0];
    sites.push(isNode(first) ? { name, node, argument: first } : { name, node });
  }
  return sites.sort((left, right) => (left.node.start ?? 0) - (right.node.start ?? 0));
}

/** Names of the tools a parsed program calls, in source order. */
export function calledTools(program: AstNode): string[] {
  return toolCallSites(program).map((site) => site.name);
}

/** The static key of an object-literal property (`a`, `"a"`, `1`), else undefined (computed keys, spreads). */
export function propertyKey(property: AstNode): string | undefined {
  if (property.type !== 'ObjectProperty' && property.type !== 'ObjectMethod') return undefined;
  const key = property.key;
  if (!isNode(key)) return undefined;
  if (!property.computed && key.type === 'Identifier') return key.name as string;
  if (key.type === 'StringLiteral') return key.value as string;
  if (key.type === 'NumericLiteral') return String(key.value);
  return undefined;
}

/** The 1-based line a node starts on. */
export function lineOf(node: AstNode): number {
  return node.loc?.start?.line ?? 1;
}

/**
 * Applies non-overlapping edits to `code` (in any order); every byte outside an edit is kept. Returns
 * undefined when two edits overlap or one is out of range.
 */
export function applyEdits(code: string, edits: readonly TextEdit[]): string | undefined {
  const sorted = [...edits].sort((left, right) => left.start - right.start || left.end - right.end);
  let output = '';
  let cursor = 0;
  for (const edit of sorted) {
    if (edit.start < cursor || edit.end < edit.start || edit.end > code.length) return undefined;
    output += code.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return output + code.slice(cursor);
}

/** The text of the comment a program opens with (`// Read files`, `/* ... *\/`), else undefined. */
export function leadingComment(program: AstNode): string | undefined {
  const comments = program.comments as AstNode[] | undefined;
  const first = comments?.[0];
  const body = program.program as AstNode | undefined;
  const firstStatement = (body?.body as AstNode[] | undefined)?.[0];
  if (!first || typeof first.value !== 'string') return undefined;
  if (firstStatement && (firstStatement.start ?? 0) < (first.start ?? 0)) return undefined;
  return first.value;
}
