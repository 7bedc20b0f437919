/**
 * Node 20 stand-in for `node:module.stripTypeScriptTypes` in strip-only mode.
 *
 * The host erases TypeScript with amaro (swc) and refuses syntax that needs a transform (enum, runtime
 * namespaces, parameter properties, `<T>x` assertions). Node 20 has no such function, so this file parses
 * the wrapped program with Babel's typescript plugin, refuses the same non-erasable constructs with the
 * host's own messages, and blanks every type-only range with spaces (newlines kept) so the result is
 * plain JavaScript with unchanged positions, ready for the AsyncFunction compile.
 */
import { parse } from '@babel/parser';
import { NON_CHILD_KEYS } from './program-analysis.js';

/** A Babel AST node, read structurally (this package depends on @babel/parser only, not @babel/types). */
interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** Raised for syntax the host's strip-only mode rejects; the message is the host's text. */
export class NonErasableTypeScriptError extends Error {
  override name = 'NonErasableTypeScriptError';
}

/** Keys under which Babel hangs pure type information that erases to nothing. */
const TYPE_ONLY_KEYS = new Set([
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'typeArguments',
  'superTypeParameters',
]);
/** Declarations that exist only in the type world. */
const TYPE_ONLY_DECLARATIONS = new Set([
  'TSTypeAliasDeclaration',
  'TSInterfaceDeclaration',
  'TSDeclareFunction',
  'TSDeclareMethod',
  'TSIndexSignature',
]);

const MESSAGES = {
  enum: 'TypeScript enum is not supported in strip-only mode',
  namespace: 'TypeScript namespace declaration is not supported in strip-only mode',
  parameterProperty: 'TypeScript parameter property is not supported in strip-only mode',
  angleAssertion:
    "The angle-bracket syntax for type assertions, `<T>expr`, is not supported in type strip mode. Instead, use the 'as' syntax: `expr as T`.",
  importEquals: 'TypeScript import equals declaration is not supported in strip-only mode',
} as const;

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
}

/** True when a namespace body declares types only (the host erases those). */
function isTypeOnlyNamespace(node: AstNode): boolean {
  const body = node.body;
  if (!isNode(body)) return true;
  if (body.type === 'TSModuleDeclaration') return node.declare === true || isTypeOnlyNamespace(body);
  const statements = Array.isArray(body.body) ? (body.body as AstNode[]) : [];
  return statements.every((statement) => {
    const inner =
      statement.type === 'ExportNamedDeclaration' && isNode(statement.declaration) ? statement.declaration : statement;
    if (inner.type === 'TSTypeAliasDeclaration' || inner.type === 'TSInterfaceDeclaration') return true;
    if (inner.type === 'TSModuleDeclaration') return inner.declare === true || isTypeOnlyNamespace(inner);
    return inner.declare === true;
  });
}

/** Writes blanks over ranges of a character array, keeping line breaks so positions stay valid. */
class Blanker {
  readonly chars: string[];
  constructor(source: string) {
    this.chars = source.split('');
  }
  blank(start: number, end: number): void {
    for (let index = start; index < end; index++) {
      const char = this.chars[index];
      if (char !== '\n' && char !== '\r') this.chars[index] = ' ';
    }
  }
  /** Blanks a whole statement or class member, leaving `;` so the surrounding grammar still holds. */
  blankStatement(start: number, end: number): void {
    this.blank(start, end);
    if (end > start) this.chars[start] = ';';
  }
  /** Blanks each listed modifier word found in `[start, end)`. */
  blankWords(source: string, start: number, end: number, words: RegExp): void {
    const slice = source.slice(start, end);
    for (const match of slice.matchAll(words)) this.blank(start + match.index, start + match.index + match[0].length);
  }
  toString(): string {
    return this.chars.join('');
  }
}

const MEMBER_MODIFIERS = /\b(?:public|private|protected|readonly|override)\b/g;

/** Erases one class member's TypeScript-only parts (modifiers, `?`/`!` markers). */
function eraseMemberMarkers(source: string, member: AstNode, blanker: Blanker): void {
  const key = member.key;
  if (!isNode(key)) return;
  blanker.blankWords(source, member.start, key.start, MEMBER_MODIFIERS);
  if (member.optional === true || member.definite === true) {
    let index = member.computed === true ? source.indexOf(']', key.end) + 1 : key.end;
    while (index < member.end && /\s/.test(source[index] ?? '')) index++;
    if (source[index] === '?' || source[index] === '!') blanker.blank(index, index + 1);
  }
}

/**
 * Returns `wrapped` with all erasable TypeScript blanked out. Throws Babel's SyntaxError for code that does
 * not parse, and NonErasableTypeScriptError for TypeScript the host's strip-only mode refuses.
 */
export function eraseTypes(wrapped: string): string {
  // `export` is legal inside a namespace body; a misplaced top-level import/export still fails the compile.
  const ast = parse(wrapped, {
    sourceType: 'script',
    plugins: ['typescript'],
    errorRecovery: false,
    allowImportExportEverywhere: true,
  });
  const blanker = new Blanker(wrapped);

  const visit = (node: AstNode, parent: AstNode | undefined): void => {
    switch (node.type) {
      case 'TSEnumDeclaration':
        if (node.declare !== true) throw new NonErasableTypeScriptError(MESSAGES.enum);
        blanker.blankStatement(node.start, node.end);
        return;
      case 'TSModuleDeclaration':
        if (node.declare !== true && !isTypeOnlyNamespace(node))
          throw new NonErasableTypeScriptError(MESSAGES.namespace);
        blanker.blankStatement(node.start, node.end);
        return;
      case 'TSParameterProperty':
        throw new NonErasableTypeScriptError(MESSAGES.parameterProperty);
      case 'TSTypeAssertion': {
        // The host's strip leaves `<const>x` in place (the compile then fails on `<`); other `<T>x` it refuses.
        const asserted = node.typeAnnotation as AstNode;
        const typeName = asserted.typeName as AstNode | undefined;
        if (asserted.type === 'TSTypeReference' && typeName?.name === 'const') return;
        throw new NonErasableTypeScriptError(MESSAGES.angleAssertion);
      }
      case 'TSImportEqualsDeclaration':
        throw new NonErasableTypeScriptError(MESSAGES.importEquals);
      case 'TSAsExpression':
      case 'TSSatisfiesExpression': {
        visit(node.expression as AstNode, node);
        // From the keyword on (the expression may sit in parentheses that must stay).
        const typeStart = (node.typeAnnotation as AstNode).start;
        blanker.blank(
          wrapped.lastIndexOf(node.type === 'TSAsExpression' ? 'as' : 'satisfies', typeStart - 1),
          node.end,
        );
        return;
      }
      case 'TSNonNullExpression':
        visit(node.expression as AstNode, node);
        blanker.blank(node.end - 1, node.end);
        return;
      case 'Identifier': {
        if (node.name === 'this' && parent && Array.isArray(parent.params) && parent.params[0] === node) {
          const next = (parent.params as AstNode[])[1];
          blanker.blank(node.start, next ? next.start : node.end);
          return;
        }
        if (isNode(node.typeAnnotation) || node.optional === true || node.definite === true) {
          blanker.blank(node.start + String(node.name).length, node.end);
        }
        return;
      }
      case 'ClassDeclaration':
      case 'ClassExpression':
        if (node.declare === true) {
          blanker.blankStatement(node.start, node.end);
          return;
        }
        if (node.abstract === true)
          blanker.blankWords(wrapped, node.start, wrapped.indexOf('class', node.start), /\babstract\b/g);
        if (Array.isArray(node.implements) && node.implements.length > 0) {
          const list = node.implements as AstNode[];
          const keyword = wrapped.lastIndexOf('implements', list[0]!.start);
          blanker.blank(keyword, list[list.length - 1]!.end);
        }
        break;
      case 'ClassProperty':
      case 'ClassPrivateProperty':
      case 'ClassMethod':
      case 'ClassPrivateMethod':
      case 'ClassAccessorProperty':
        if (node.declare === true || node.abstract === true) {
          blanker.blankStatement(node.start, node.end);
          return;
        }
        eraseMemberMarkers(wrapped, node, blanker);
        break;
      case 'VariableDeclaration':
      case 'FunctionDeclaration':
        if (node.declare === true) {
          blanker.blankStatement(node.start, node.end);
          return;
        }
        break;
      default:
        if (TYPE_ONLY_DECLARATIONS.has(node.type)) {
          blanker.blankStatement(node.start, node.end);
          return;
        }
    }
    for (const key of Object.keys(node)) {
      if (NON_CHILD_KEYS.has(key)) continue;
      const value = node[key];
      if (TYPE_ONLY_KEYS.has(key) && isNode(value)) {
        blanker.blank(value.start, value.end);
        continue;
      }
      if (key === 'implements') continue;
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) visit(child, node);
      } else if (isNode(value)) {
        visit(value, node);
      }
    }
  };

  visit(ast.program as unknown as AstNode, undefined);
  return blanker.toString();
}
