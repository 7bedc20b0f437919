/**
 * The text repairs (Python triple quotes, template-literal escapes, raw newlines in strings, a cut-off tail),
 * each a pure transform that proposes ONE candidate program.
 * A candidate is only a proposal: `healProgram` keeps it only if the host compile accepts it.
 * Every transform edits the fewest bytes it can and keeps all others.
 */
import { unfinishedStatementAtCut } from './cut-point.js';
import { lex, type Bracket, type LexResult } from './lexer.js';
import { applyEdits, type TextEdit } from './program-analysis.js';
import { pythonStringToTemplate } from './python-strings.js';
import type { Diagnostic, Repair } from './types.js';

export type RepairOutcome =
  /** `alternatives`: other readings of the same class (all are compiled; two that compile mean no repair). */
  | { kind: 'candidate'; code: string; repair: Repair; alternatives?: readonly string[] }
  /** The class applies, but repairing would change what the program means: refuse, with the reason. */
  | { kind: 'refused'; diagnostic: Diagnostic }
  | { kind: 'not-applicable' };

const NOT_APPLICABLE: RepairOutcome = { kind: 'not-applicable' };

/** 1-based line and column of an offset. */
export function positionOf(code: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = code.indexOf('\n'); index !== -1 && index < offset; index = code.indexOf('\n', index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** A candidate from non-overlapping edits; edits that overlap (never expected) propose nothing rather than garbled text. */
function candidate(code: string, edits: readonly TextEdit[], repair: Repair): RepairOutcome {
  const edited = applyEdits(code, edits);
  return edited === undefined ? NOT_APPLICABLE : { kind: 'candidate', code: edited, repair };
}

/**
 * Class 2: Python triple-quoted strings become template literals with the same value. A prefixed one
 * (f"""…""", r'''…''') is Python, not a JavaScript string: it is refused, never turned into a tagged
 * template call of `f`.
 */
export function repairTripleQuotes(code: string): RepairOutcome {
  if (code.indexOf('"""') === -1 && code.indexOf("'''") === -1) return NOT_APPLICABLE;
  const scan = lex(code, { tripleQuotes: true, onlyLastToken: true });
  if (scan.tripleQuotes.length === 0) return NOT_APPLICABLE;
  const prefixed = scan.tripleQuotes.find((triple) => triple.prefix !== '');
  if (prefixed) {
    return {
      kind: 'refused',
      diagnostic: {
        kind: 'python-string-prefix',
        message: `A Python ${prefixed.prefix}${prefixed.quote}…${prefixed.quote} string is not JavaScript; write a template literal (\`…\${expr}…\`) instead. The program was not run.`,
        ...positionOf(code, prefixed.start - prefixed.prefix.length),
      },
    };
  }
  const edits: TextEdit[] = [];
  for (const triple of scan.tripleQuotes) {
    // The template must hold Python's VALUE: backslashes are read differently (see python-strings.ts).
    const body = pythonStringToTemplate(code.slice(triple.start + 3, triple.end - 3));
    if (body === undefined) return NOT_APPLICABLE;
    edits.push({ start: triple.start, end: triple.end, text: '`' + body + '`' });
  }
  return candidate(code, edits, {
    kind: 'python-triple-quote',
    count: edits.length,
    line: positionOf(code, scan.tripleQuotes[0]!.start).line,
  });
}

/**
 * Class 3: Markdown/shell backticks and shell `${…}` inside template literals get escaped. A reading whose
 * "inline code" spans a line break or a `;` would turn whole statements between two real template literals into
 * string content (the program would then compile and silently skip them), so it is not proposed.
 */
export function repairTemplateContent(code: string): RepairOutcome {
  if (code.indexOf('`') === -1) return NOT_APPLICABLE;
  const scan = lex(code, { guessTemplateContent: true, onlyLastToken: true });
  // Digit escapes are doubled only where every other escape in the templates is one JavaScript and the shell read
  // alike (see LexResult.otherTemplateEscapes).
  const digitEscapes = scan.otherTemplateEscapes ? [] : scan.digitEscapes;
  if (scan.innerBackticks.length === 0 && scan.shellExpansions.length === 0 && digitEscapes.length === 0)
    return NOT_APPLICABLE;
  if (scan.inlineCodeSpansStatements) return NOT_APPLICABLE;
  const edits = [...scan.innerBackticks, ...scan.shellExpansions, ...digitEscapes].map((offset) => ({
    start: offset,
    end: offset,
    text: '\\',
  }));
  return candidate(code, edits, {
    kind: 'template-escape',
    backticks: scan.innerBackticks.length,
    shellExpansions: scan.shellExpansions.length,
    ...(digitEscapes.length > 0 ? { digitEscapes: digitEscapes.length } : {}),
  });
}

/** Class 4: raw line breaks inside a `'…'` or `"…"` string become `\n` (and `\r`) escapes. */
export function repairRawNewlines(code: string): RepairOutcome {
  const plain = lex(code, { onlyLastToken: true });
  if (plain.brokenStrings.length === 0) return NOT_APPLICABLE;
  const scan = lex(code, { multilineQuotes: true, onlyLastToken: true });
  const spans = scan.brokenStrings.filter((span) => span.closed);
  if (spans.length === 0) return NOT_APPLICABLE;
  const edits: TextEdit[] = [];
  for (const span of spans) {
    for (let index = span.start; index < span.end; index++) {
      const char = code[index];
      if (char === '\\') {
        index++;
        continue;
      }
      if (char === '\n') edits.push({ start: index, end: index + 1, text: '\\n' });
      else if (char === '\r') edits.push({ start: index, end: index + 1, text: '\\r' });
      else if (char === '\u2028' || char === '\u2029') continue;
    }
  }
  return candidate(code, edits, {
    kind: 'string-newline',
    strings: spans.length,
    line: positionOf(code, spans[0]!.start).line,
  });
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
/** Words that end a complete expression (everything else reserved leaves the statement unfinished). */
const LITERAL_WORDS = new Set(['true', 'false', 'null', 'undefined', 'this', 'NaN', 'Infinity', 'super']);
const RESERVED_WORDS = new Set([
  'await',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'let',
  'new',
  'of',
  'return',
  'static',
  'switch',
  'throw',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
  'async',
  'as',
  'satisfies',
]);

const OPEN_CONSTRUCT_NAMES: Record<string, string> = {
  string: 'a string literal',
  template: 'a template literal',
  'block-comment': 'a /* comment */',
  regex: 'a regular expression',
  'triple-quote': 'a triple-quoted string',
};

/** Tokens after which `{` opens an object literal rather than a block. */
const OBJECT_LITERAL_AFTER = new Set([
  '(',
  '[',
  ',',
  ':',
  '=',
  '?',
  '||',
  '&&',
  '??',
  'return',
  'await',
  'yield',
  '...',
  '+',
  '||=',
  '&&=',
  '??=',
]);

/** `(`, `[` and an object-literal `{` hold a list that may have continued (more arguments, elements, properties); a block `{` ends with its statements. */
function isExpressionBracket(bracket: Bracket): boolean {
  if (bracket.char === '(' || bracket.char === '[') return true;
  return bracket.char === '{' && bracket.after !== undefined && OBJECT_LITERAL_AFTER.has(bracket.after);
}

function isLineEnd(char: string | undefined): boolean {
  return char === '\n' || char === '\r';
}

/**
 * The first open bracket whose line is indented at least as deep as the line holding `lastOffset` (and is not
 * that line). The brackets come in source order, so one forward walk finds every line start: linear in the text.
 */
function bracketOpenedNoDeeperThanLastLine(
  code: string,
  brackets: readonly Bracket[],
  lastOffset: number,
): Bracket | undefined {
  let lastLineStart = lastOffset;
  while (lastLineStart > 0 && !isLineEnd(code[lastLineStart - 1])) lastLineStart--;
  const lastIndent = indentAt(code, lastLineStart);
  let lineStart = 0;
  let cursor = 0;
  for (const bracket of brackets) {
    for (; cursor < bracket.start; cursor++) if (isLineEnd(code[cursor])) lineStart = cursor + 1;
    if (lineStart !== lastLineStart && lastIndent <= indentAt(code, lineStart)) return bracket;
  }
  return undefined;
}

function indentAt(code: string, lineStart: number): number {
  let index = lineStart;
  while (code[index] === ' ' || code[index] === '\t') index++;
  return index - lineStart;
}

/**
 * Why the end of a truncated program is not a safe place to close it, or undefined when it is. A program whose
 * last line is indented no deeper than the line that opened a still-open bracket lost its closer in the middle
 * (`if (ok) {` … then an unindented `return`): closing at the end would pull that code inside the block.
 */
function unsafeCut(code: string, scan: LexResult): string | undefined {
  if (scan.openAtEnd)
    return `inside ${OPEN_CONSTRUCT_NAMES[scan.openAtEnd.kind]} that starts at line ${positionOf(code, scan.openAtEnd.start).line}`;
  if (scan.openBrackets.some((bracket) => bracket.char === '${')) return 'inside a ${…} of a template literal';
  const last = scan.lastToken;
  if (!last) return 'before any statement';
  const innermost = scan.openBrackets[scan.openBrackets.length - 1];
  if (innermost && isExpressionBracket(innermost)) {
    return `inside an unfinished ${innermost.char === '(' ? 'argument list' : innermost.char === '[' ? 'array' : 'object literal'} that starts at line ${positionOf(code, innermost.start).line}`;
  }
  const misplaced = bracketOpenedNoDeeperThanLastLine(code, scan.openBrackets, last.start);
  if (misplaced) {
    return `after code that is not indented inside the \`${misplaced.char}\` opened at line ${positionOf(code, misplaced.start).line}, so the closing delimiter is missing earlier in the program, not at its end`;
  }
  const endsLine = /[\r\n][ \t]*$/.test(code.slice(last.end));
  if (last.kind === 'punct') {
    // Only an explicit `;` or a block's `}` can end a statement for sure (the statement itself is checked later).
    if (last.value === ';' || last.value === '}') return undefined;
    if (last.value === ')' || last.value === ']') {
      return endsLine
        ? 'after a line that does not end with `;`, so the next line may have continued it'
        : 'in the middle of a line';
    }
    return `right after \`${last.value}\`, in the middle of an expression`;
  }
  if (last.kind === 'word' && RESERVED_WORDS.has(last.value!))
    return `right after \`${last.value}\`, in the middle of a statement`;
  if (last.kind === 'word' && !LITERAL_WORDS.has(last.value!) && !endsLine)
    return `in the middle of the word \`${last.value}\``;
  if (!endsLine) return 'in the middle of a line';
  return 'after a line that does not end with `;`, so the next line may have continued it';
}

/** Operators after which an expression must continue (a `:` is left out: Python lines end with one). */
const DANGLING_OPERATORS = new Set([
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '=',
  '==',
  '===',
  '!=',
  '!==',
  '<',
  '>',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '&',
  '|',
  '^',
  ',',
  '.',
  '?.',
  '=>',
  '+=',
  '-=',
  '?',
]);

function endsWithDanglingOperator(scan: LexResult): boolean {
  const last = scan.lastToken;
  return last !== undefined && last.kind === 'punct' && DANGLING_OPERATORS.has(last.value!);
}

/**
 * Class 5: a program that stops with brackets still open gets its closing delimiters, but only when the
 * cut fell between complete statements. A cut inside a string, template, comment or expression means
 * content was lost: that is refused with the position of the cut, so a guessed prefix never runs.
 */
export function repairTruncation(code: string): RepairOutcome {
  const scan = lex(code, { onlyLastToken: true });
  const openBrackets = scan.openBrackets;
  if (openBrackets.length === 0 && !scan.openAtEnd && !endsWithDanglingOperator(scan)) return NOT_APPLICABLE;
  const closing = openBrackets
    .map((bracket) => CLOSERS[bracket.char] ?? '')
    .reverse()
    .join('');
  const lineBreak = code.includes('\r\n') ? '\r\n' : '\n';
  const endsWithBreak = /\r?\n$/.test(code);
  const healed = endsWithBreak ? code + closing + lineBreak : code + lineBreak + closing;
  const lastToken = scan.lastToken;
  const reason =
    unsafeCut(code, scan) ?? (lastToken ? unfinishedStatementAtCut(healed, lastToken.end) : 'before any statement');
  if (reason !== undefined) {
    const cut = positionOf(code, code.length);
    return {
      kind: 'refused',
      diagnostic: {
        kind: 'truncated',
        message: `The program appears to be cut off at line ${cut.line}, column ${cut.column} (${reason}); nothing was run. It was probably cut by the output limit: send the rest as smaller run_code calls rather than the same long program.`,
        ...cut,
      },
    };
  }
  return { kind: 'candidate', code: healed, repair: { kind: 'close-truncated', added: closing } };
}
