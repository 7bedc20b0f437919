/**
 * Inner Code-Mode calls: a `tools.<name>({...})` object literal in a run_code program that lacks a property
 * the tool's schema requires and the engine can fill (bash's `description`) gets one, spliced in at the
 * exact position so every other byte of the program stays as written. The program is parsed with Babel,
 * never scanned with regular expressions.
 *
 * The valid path must not pay for a parse, so `mayNeedInnerFill` first counts, with plain string searches,
 * calls of tools that have fillable required keys and mentions of those key names (one regular-expression pass). Only when there are
 * more calls than key names can a call be missing one, and only then is the program parsed. (A program that
 * mentions `description` elsewhere can slip past this gate; the runtime recovery plan still retries such a
 * sub-call with the field filled.)
 */
import { parse } from '@babel/parser';
import { fillableKeys, findTool, requiredKeys, RUN_CODE } from '../tools.js';
import { describeCall, describeCommand } from '../text.js';
import type { Environment, ToolSchema } from '../types.js';

interface AstNode {
  type: string;
  start?: number | null;
  end?: number | null;
  [key: string]: unknown;
}

/** Longest program the engine parses for inner-call repairs (bounded work). */
const MAX_PARSED_CHARS = 512 * 1024;

const SKIPPED_KEYS = new Set(['loc', 'start', 'end', 'extra', 'leadingComments', 'trailingComments', 'innerComments', 'comments', 'tokens']);

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
}

/** Parses a run_code program body the way Babel sees it (TypeScript, top-level await and return allowed). */
export function parseProgram(code: string): AstNode | undefined {
  if (code.length > MAX_PARSED_CHARS) return undefined;
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

/** Every node of the tree, depth first, without recursion. */
function* walk(root: AstNode): Generator<AstNode> {
  const stack: AstNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as AstNode;
    yield node;
    for (const key of Object.keys(node)) {
      if (SKIPPED_KEYS.has(key)) continue;
      const child = node[key];
      if (Array.isArray(child)) {
        for (let index = child.length - 1; index >= 0; index--) if (isNode(child[index])) stack.push(child[index] as AstNode);
      } else if (isNode(child)) stack.push(child);
    }
  }
}

function staticString(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === 'StringLiteral') return node.value as string;
  if (node.type === 'TemplateLiteral' && Array.isArray(node.expressions) && node.expressions.length === 0) {
    const quasi = (node.quasis as AstNode[])[0];
    const cooked = (quasi?.value as { cooked?: string } | undefined)?.cooked;
    return typeof cooked === 'string' ? cooked : undefined;
  }
  return undefined;
}

/** The tool name of a `tools.x(...)` / `tools["x"](...)` call, else undefined. */
function calledToolName(node: AstNode): string | undefined {
  if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return undefined;
  const callee = node.callee;
  if (!isNode(callee) || (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression')) return undefined;
  const object = callee.object;
  if (!isNode(object) || object.type !== 'Identifier' || object.name !== 'tools') return undefined;
  const property = callee.property;
  if (!callee.computed) return isNode(property) && property.type === 'Identifier' ? (property.name as string) : undefined;
  return staticString(property);
}

/** Names of the tools a parsed program calls, in source order. */
export function calledTools(program: AstNode): string[] {
  const calls: { name: string; start: number }[] = [];
  for (const node of walk(program)) {
    const name = calledToolName(node);
    if (name !== undefined) calls.push({ name, start: node.start ?? 0 });
  }
  return calls.sort((left, right) => left.start - right.start).map((call) => call.name);
}

function propertyKey(property: AstNode): string | undefined {
  if (property.type !== 'ObjectProperty' && property.type !== 'ObjectMethod') return undefined;
  const key = property.key;
  if (!isNode(key)) return undefined;
  if (!property.computed && key.type === 'Identifier') return key.name as string;
  if (key.type === 'StringLiteral') return key.value as string;
  if (key.type === 'NumericLiteral') return String(key.value);
  return undefined;
}

/** One missing-field insertion to splice into the program text. */
export interface InnerInsertion {
  tool: string;
  keys: string[];
  offset: number;
  text: string;
  line: number;
}

function descriptionFor(tool: ToolSchema, object: AstNode): string {
  const literals: Record<string, unknown> = {};
  for (const property of object.properties as AstNode[]) {
    const key = propertyKey(property);
    const value = staticString(property.value);
    if (key !== undefined && value !== undefined) literals[key] = value;
  }
  if (tool.name === 'bash') return describeCommand(typeof literals.command === 'string' ? literals.command : '');
  return describeCall(tool.name, literals);
}

/** Plans the insertions for every inner call whose object literal lacks only fillable required keys. */
export function planInnerInsertions(program: AstNode, env: Environment): InnerInsertion[] {
  const insertions: InnerInsertion[] = [];
  for (const node of walk(program)) {
    const name = calledToolName(node);
    if (name === undefined || name === RUN_CODE) continue;
    const tool = findTool(env, name);
    const fillable = tool ? fillableKeys(tool) : [];
    if (!tool || fillable.length === 0) continue;
    const argument = (node.arguments as AstNode[])[0];
    if (!isNode(argument) || argument.type !== 'ObjectExpression') continue;
    const properties = argument.properties as AstNode[];
    const keys: string[] = [];
    let opaque = false;
    for (const property of properties) {
      const key = propertyKey(property);
      if (key === undefined) opaque = true;
      else keys.push(key);
    }
    if (opaque) continue;
    const missing = requiredKeys(tool).filter((key) => !keys.includes(key));
    if (missing.length === 0 || !missing.every((key) => fillable.includes(key))) continue;
    const assignment = missing.map((key) => `${key}: ${JSON.stringify(descriptionFor(tool, argument))}`).join(', ');
    const last = properties[properties.length - 1];
    const line = (argument.loc as { start?: { line?: number } } | undefined)?.start?.line ?? 1;
    if (last && typeof last.end === 'number') insertions.push({ tool: name, keys: missing, offset: last.end, text: `, ${assignment}`, line });
    else if (typeof argument.start === 'number') insertions.push({ tool: name, keys: missing, offset: argument.start + 1, text: ` ${assignment} `, line });
  }
  return insertions.sort((left, right) => left.offset - right.offset);
}

/** Applies insertions (sorted by offset) to the program text; every other byte is kept. */
export function applyInsertions(code: string, insertions: readonly InnerInsertion[]): string {
  let result = '';
  let cursor = 0;
  for (const insertion of insertions) {
    result += code.slice(cursor, insertion.offset) + insertion.text;
    cursor = insertion.offset;
  }
  return result + code.slice(cursor);
}

interface FillableIndex {
  /** One pattern matching a call site of a tool with fillable keys (group 1) or a mention of such a key (group 2). */
  pattern: RegExp | undefined;
}

/** The gate pattern for the tools in `env`, cached per tools array. */
const fillableByTools = new WeakMap<readonly ToolSchema[], FillableIndex>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function fillableIndex(env: Environment): FillableIndex {
  let index = fillableByTools.get(env.tools);
  if (!index) {
    const tools = new Set<string>();
    const keys = new Set<string>();
    for (const tool of env.tools) {
      const fillable = tool && typeof tool.name === 'string' && tool.name !== RUN_CODE ? fillableKeys(tool) : [];
      if (fillable.length === 0) continue;
      tools.add(tool.name);
      for (const key of fillable) keys.add(key);
    }
    const names = [...tools].sort((left, right) => right.length - left.length).map(escapeRegExp).join('|');
    const mentions = [...keys].map(escapeRegExp).join('|');
    index = {
      pattern: tools.size === 0 ? undefined : new RegExp(`\\btools\\s*(?:\\?\\.|\\.|\\[\\s*["'\`])\\s*(${names})(?![\\w$])|(${mentions})`, 'g'),
    };
    fillableByTools.set(env.tools, index);
  }
  return index;
}

/**
 * Could some call of a tool with fillable keys lack one? One pass of one pattern counts such calls and
 * mentions of the keys; only more calls than mentions send the program to the parser (see the file header).
 */
export function mayNeedInnerFill(code: string, env: Environment): boolean {
  const { pattern } = fillableIndex(env);
  if (!pattern) return false;
  let calls = 0;
  let mentions = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(code); match; match = pattern.exec(code)) {
    if (match[1] !== undefined) calls++;
    else mentions++;
  }
  return calls > mentions;
}
