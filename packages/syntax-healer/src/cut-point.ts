/**
 * Is the end of a truncated program a place where the statement written last is really finished?
 *
 * Automatic semicolon insertion makes many line ends LOOK complete: `const cmd = 'rm -rf ' + base` may have gone on
 * with `+ '/cache'` on the next line, `await tools.bash(apply)` with `.then(() => rollout)`, `if (a) { … }` with
 * `else { … }`. So a cut is closed only where the last statement ends with an explicit `;`, or is a block statement
 * whose closing `}` is present and that nothing else may follow (`else`, `catch`, `finally`). The program is read
 * with its closing delimiters appended, by Babel (a full parse, so interface bodies, class bodies and object
 * literals are told apart from blocks of statements).
 */
import { parse } from '@babel/parser';
import { MAX_PARSE_CHARS } from './limits.js';
import { type AstNode as AnyNode, childNodes, isNode } from './program-analysis.js';

/** A node of a parse without error recovery: every node has its offsets. */
type AstNode = AnyNode & { start: number; end: number };

const WRAP_PREFIX = 'async function __dsh_program__() {\n';
const WRAP_SUFFIX = '\n}';

const isPlacedNode = isNode as (value: unknown) => value is AstNode;
const childrenOf = childNodes as (node: AstNode) => AstNode[];

/** The statement list a node holds, if it is a block of statements. */
function statementsOf(node: AstNode): AstNode[] | undefined {
  if (node.type === 'BlockStatement' || node.type === 'StaticBlock') return node.body as AstNode[];
  if (node.type === 'SwitchCase') return node.consequent as AstNode[];
  return undefined;
}

/** What may still follow a statement that looks finished (`else` after an if, `finally` after a catch). */
function optionalContinuation(statement: AstNode): string | undefined {
  switch (statement.type) {
    case 'IfStatement':
      return isPlacedNode(statement.alternate) ? optionalContinuation(statement.alternate) : 'an `else` branch';
    case 'TryStatement':
      return isPlacedNode(statement.finalizer) ? undefined : 'a `finally` block';
    case 'ForStatement':
    case 'ForInStatement':
    case 'ForOfStatement':
    case 'WhileStatement':
    case 'LabeledStatement':
    case 'WithStatement':
      return optionalContinuation(statement.body as AstNode);
    default:
      return undefined;
  }
}

/** Statements that end with their own `}` and are then complete (no `;` and no continuation possible). */
function isFinishedBlockStatement(statement: AstNode): boolean {
  switch (statement.type) {
    case 'BlockStatement':
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
    case 'SwitchStatement':
    case 'TSInterfaceDeclaration':
    case 'TSModuleDeclaration':
    case 'TSEnumDeclaration':
      return true;
    case 'IfStatement':
      return isPlacedNode(statement.alternate) && isFinishedBlockStatement(statement.alternate);
    case 'TryStatement':
      return isPlacedNode(statement.finalizer);
    case 'ForStatement':
    case 'ForInStatement':
    case 'ForOfStatement':
    case 'WhileStatement':
    case 'LabeledStatement':
    case 'WithStatement':
      return isFinishedBlockStatement(statement.body as AstNode);
    default:
      return false;
  }
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line++;
  return line;
}

/**
 * Why closing the program right after offset `cutEnd` (the end of its last token) could drop part of a statement,
 * or undefined when the statement written last is finished. `closed` is the program with the delimiters the
 * truncation repair would append.
 */
export function unfinishedStatementAtCut(closed: string, cutEnd: number): string | undefined {
  if (closed.length > MAX_PARSE_CHARS) return 'the program is too large to judge where it was cut';
  const wrapped = WRAP_PREFIX + closed + WRAP_SUFFIX;
  const cut = WRAP_PREFIX.length + cutEnd;
  let ast: { program: { body: AstNode[] } };
  try {
    ast = parse(wrapped, {
      sourceType: 'script',
      plugins: ['typescript'],
      errorRecovery: false,
      allowImportExportEverywhere: true,
    }) as unknown as typeof ast;
  } catch {
    return 'closing the open brackets there does not give a complete program, so what followed the cut was required';
  }
  const programLine = (offset: number): number => lineOf(wrapped, offset) - 1;

  const judge = (statement: AstNode): string | undefined => {
    const follows = optionalContinuation(statement);
    if (follows) return `the statement at line ${programLine(statement.start)} may have gone on with ${follows}`;
    if (wrapped[statement.end - 1] === ';' || isFinishedBlockStatement(statement)) return undefined;
    return `the statement at line ${programLine(statement.start)} does not end with \`;\`, so the next line may have continued it`;
  };

  /** Walks down from a node that contains the cut strictly inside it to the statement that ends at the cut. */
  const descend = (node: AstNode): string | undefined => {
    const statements = statementsOf(node);
    if (statements) {
      for (const statement of statements) {
        if (statement.end === cut) return judge(statement);
        if (statement.start < cut && cut < statement.end) return descend(statement);
      }
      return 'right after the opening of a block, before any statement in it was finished';
    }
    const enclosing = refusedEnclosing(node, cut);
    if (enclosing) return `inside ${enclosing[0]} that starts at line ${programLine(node.start)}: ${enclosing[1]}`;
    for (const child of childrenOf(node)) {
      // A switch case ends with its last statement: the cut may be at its very end.
      if (child.type === 'SwitchCase' && child.start < cut && cut <= child.end)
        return descend({ ...child, end: cut + 1 });
      if (child.start < cut && cut < child.end) return descend(child);
      if (child.end === cut) break;
    }
    return `inside ${describe(node)} that started at line ${programLine(node.start)}, whose next line may have continued it`;
  };

  const main = ast.program.body[0];
  const body = main && isPlacedNode(main.body) ? main.body : undefined;
  if (!body) return 'the program could not be read';
  return descend(body);
}

const LOOPS = new Set(['WhileStatement', 'DoWhileStatement', 'ForStatement', 'ForInStatement', 'ForOfStatement']);

/**
 * Why a cut strictly inside `node` (a construct that is not itself a list of statements) may not be closed, or
 * undefined when closing there drops nothing that could be required. Only plain statement nesting is allowed:
 * a labelled statement, a `switch`, a function declaration's body, the `else` block of an `if` and the `finally`
 * block of a `try`. Everything else is refused: a loop body (its remaining statements may be its exit or its
 * progress: a `break`, an `i++`), an `if` block (an `else` may follow), a `try` or `catch` block (a `finally` may
 * follow), and any expression (an argument list, an array, an object literal, a class body, a function passed as
 * an argument or assigned: the code after the cut may be a required argument such as a timer's delay).
 */
function refusedEnclosing(node: AstNode, cut: number): [what: string, why: string] | undefined {
  if (LOOPS.has(node.type)) return ['a loop', 'the rest of its body may be its exit or its progress'];
  switch (node.type) {
    case 'LabeledStatement':
    case 'SwitchStatement':
    case 'SwitchCase':
    case 'FunctionDeclaration':
      return undefined;
    case 'IfStatement': {
      const alternate = node.alternate;
      return isNode(alternate) && (alternate as AstNode).start < cut
        ? undefined
        : ['an `if` block', 'an `else` branch may follow'];
    }
    case 'TryStatement': {
      const finalizer = node.finalizer;
      return isNode(finalizer) && (finalizer as AstNode).start < cut
        ? undefined
        : ['a `try` statement', 'a `catch` or `finally` may follow'];
    }
    default:
      return [
        describe(innermostConstruct(node, cut)),
        'the code after the cut may be required (an argument, a delay, a member)',
      ];
  }
}

/** The innermost argument list, array, object, class or function around the cut, for the refusal's wording. */
function innermostConstruct(node: AstNode, cut: number): AstNode {
  let found = node;
  for (let current: AstNode | undefined = node; current; ) {
    if (SPECIFIC.has(current.type)) found = current;
    current = childrenOf(current).find((child) => child.start < cut && cut < child.end);
  }
  return found;
}

const SPECIFIC = new Set([
  'CallExpression',
  'NewExpression',
  'ArrayExpression',
  'ObjectExpression',
  'ClassBody',
  'ArrowFunctionExpression',
  'FunctionExpression',
  'TSInterfaceBody',
  'TSTypeLiteral',
]);

function describe(node: AstNode): string {
  switch (node.type) {
    case 'TSInterfaceBody':
    case 'TSInterfaceDeclaration':
      return 'an interface';
    case 'TSTypeLiteral':
    case 'TSTypeAliasDeclaration':
      return 'a type';
    case 'ClassBody':
    case 'ClassDeclaration':
    case 'ClassExpression':
      return 'a class body';
    case 'ObjectExpression':
      return 'an object literal';
    case 'ArrayExpression':
      return 'an array';
    case 'CallExpression':
    case 'NewExpression':
      return 'an argument list';
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
      return 'a function used as a value';
    case 'ExpressionStatement':
    case 'VariableDeclaration':
    case 'ReturnStatement':
    case 'ThrowStatement':
      return 'an expression (an argument list, an object literal or a function passed as a value)';
    default:
      return 'a statement';
  }
}
