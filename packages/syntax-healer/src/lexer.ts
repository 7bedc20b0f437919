/**
 * A lenient JavaScript/TypeScript tokenizer for programs that do NOT parse.
 *
 * Babel (and the host) stop at the first error, but the repairs need to know what the whole broken program
 * looks like: which strings run over a line break, where a Python triple quote starts and ends, which
 * backticks inside a template are Markdown inline code, and what state the text is in where it stops.
 * This scanner never throws and runs in one linear pass. Its options switch on the readings a repair
 * proposes; the host compile then decides whether the reading was right.
 */

export interface LexOptions {
  /** Read `"""…"""` / `'''…'''` as one Python triple-quoted string (repair class 2). */
  tripleQuotes?: boolean;
  /** Let a `'…'` / `"…"` string run over raw line breaks until its closing quote (repair class 4). */
  multilineQuotes?: boolean;
  /** Inside a template, tell Markdown/shell backticks and shell `${…}` from the real closer (repair class 3). */
  guessTemplateContent?: boolean;
  /**
   * Keep only the last token (`lastToken`) instead of the whole `tokens` list: what the repairs read. A failing program
   * is lexed once per repair class, and a token object per token was most of the memory the healer allocated.
   */
  onlyLastToken?: boolean;
}

export type TokenKind = 'word' | 'number' | 'string' | 'template' | 'regex' | 'punct' | 'triple';

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** For punctuators and words: the text. */
  value?: string;
}

/** A Python triple-quoted string found with `tripleQuotes`. */
export interface TripleQuote {
  start: number;
  end: number;
  quote: '"""' | "'''";
  /** Identifier characters glued in front (`f`, `r`, `rb`…): a Python prefix, not JavaScript. */
  prefix: string;
}

/** Where a construct is left open at the end of the text. */
export interface OpenConstruct {
  kind: 'string' | 'template' | 'block-comment' | 'regex' | 'triple-quote';
  start: number;
}

export interface Bracket {
  char: '(' | '[' | '{' | '${';
  start: number;
  /** The significant token before the bracket (punctuator or word text, or the token kind), if any. */
  after?: string;
}

export interface LexResult {
  /** Every significant token in order (empty with `onlyLastToken`). */
  tokens: Token[];
  /** The last significant token, if any. */
  lastToken?: Token;
  /** `'…'`/`"…"` strings that contain raw line breaks (only with `multilineQuotes`) or stop at one (without). */
  brokenStrings: { start: number; end: number; closed: boolean }[];
  tripleQuotes: TripleQuote[];
  /** Backticks inside a template that are content, not delimiters (only with `guessTemplateContent`). */
  innerBackticks: number[];
  /** Offsets of the `$` of shell `${…}` expansions inside templates (only with `guessTemplateContent`). */
  shellExpansions: number[];
  /**
   * Offsets of the backslash of `\1`…`\9` and `\0` before a digit inside templates: a sed back-reference or an
   * `echo -e "\033[…"` colour, which a template rejects (only with `guessTemplateContent`).
   */
  digitEscapes: number[];
  /**
   * A template holds a backslash escape other than `\\`, `` \` ``, `\$` and a digit escape (`\.`, `\n`, `\(`…): JavaScript
   * reads those differently from the shell (it drops the backslash of `\.`), so the text was not written for the
   * template's reading and doubling only the digit escapes would not give the shell what the model typed.
   */
  otherTemplateEscapes?: true;
  /**
   * A guessed inline-code span (between two single content backticks) runs over a line break or a `;`: that is
   * code between two real template literals, not Markdown inline code (only with `guessTemplateContent`).
   */
  inlineCodeSpansStatements?: true;
  /** Brackets still open at the end, outermost first. */
  openBrackets: Bracket[];
  /** The construct the text ends inside, if any. */
  openAtEnd?: OpenConstruct;
}

const IDENTIFIER_START = /[\p{L}\p{Nl}$_\\]/u;
const IDENTIFIER_PART = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_\\\u200c\u200d]/u;
/** Words after which a `/` starts a regular expression. */
const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'await',
  'yield',
]);
/** Multi-character punctuators, longest first. */
const PUNCTUATORS = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '<<',
  '>>',
];
const CLOSING: Record<string, Bracket['char']> = { ')': '(', ']': '[', '}': '{' };

/**
 * A shell parameter expansion that is not a JavaScript expression: `${#x}`, `${X:-d}`, `${X//a/b}`, `${A[@]}`, and
 * the positional and special parameters `${1:-main}`, `${2}`, `${@}`, `${*}`, `${#}`, `${@:2}` (a JavaScript `${1}`
 * would print the number 1: in a template the model wrote for a shell, it means the script's first argument), an
 * array element with a default `${A[i]:-x}`, the substring with a negative offset `${V: -7}`, the transformations `${X@Q}`, and the indirect forms `${!ARR[@]}`
 * (an array's indices) and `${!PREFIX*}`. None of them parses as JavaScript; a bare `${!x}` does, and is left alone.
 */
const SHELL_EXPANSION =
  /^\$\{(?:#[A-Za-z_@*0-9}]|[A-Za-z_][A-Za-z0-9_]*(?::[-=?+]|:\d|: +-?\d|\/\/?|%%?|##?|\^\^?|,,?|\[[@*]\]|\[[^\]\r\n{}`]{1,40}\](?::[-=?+]|:\d|: +-?\d|\/\/?|%%?|##?)|@[QEPAKaUuLk]\})|\d+(?:\}|:[-=?+]|:\d|\/\/?|%%?|##?|\^\^?|,,?)|[@*](?:\}|:)|![A-Za-z_][A-Za-z0-9_]*(?:\[[@*]\]\}|[@*]\}))/;
/**
 * A GitHub Actions (or similar) `${{ expression }}` in a workflow file the program writes: `{ matrix.os }` is no
 * JavaScript object, so a template that holds one was written for the workflow runner, not for JavaScript.
 */
const WORKFLOW_EXPRESSION = /^\$\{\{[^`{}\r\n]*\}\}/;
/** `${NAME}` in capitals, a shell variable when NAME is not bound anywhere in the program. */
const SHELL_VARIABLE = /^\$\{([A-Z_][A-Z0-9_]+)\}/;
/** Runs of word characters (a `$` is left out, so `$HOME` counts as a use of HOME, not of a shell expansion). */
const WORD_RUN = /[A-Za-z0-9_]+/g;
const CAPITAL_WORD = /^[A-Z_][A-Z0-9_]+$/;
const AFTER_CLOSER = /^[ \t]*(\S{1,3})/;
const CONTINUING_OPERATOR = /^(?:\+|\?|:|===?|!==?|&&|\|\||\?\?|\)|,|;|\}|\])/;
const METHOD_START = /^\.[\p{L}$_]/u;

// Character tests by code unit: the scanner's hot loop runs one per character, and a RegExp test there allocated
// (about 60 bytes a call on Node 24), which made the scanner most of what a failing program allocated.
function isDigitAt(code: string, index: number): boolean {
  const unit = code.charCodeAt(index);
  return unit >= 0x30 && unit <= 0x39;
}
function isAsciiLetterAt(code: string, index: number): boolean {
  const unit = code.charCodeAt(index) | 0x20;
  return unit >= 0x61 && unit <= 0x7a;
}
function isLowerAsciiLetterAt(code: string, index: number): boolean {
  const unit = code.charCodeAt(index);
  return unit >= 0x61 && unit <= 0x7a;
}
/** `[0-9A-Za-z_.]`: what a number literal token runs over. */
function isNumberPartAt(code: string, index: number): boolean {
  const unit = code.charCodeAt(index);
  return isDigitAt(code, index) || isAsciiLetterAt(code, index) || unit === 0x5f || unit === 0x2e;
}
/** IDENTIFIER_START, with the ASCII range decided without the Unicode RegExp. */
function isIdentifierStartAt(code: string, index: number): boolean {
  const unit = code.charCodeAt(index);
  if (unit < 0x80) return isAsciiLetterAt(code, index) || unit === 0x24 || unit === 0x5f || unit === 0x5c;
  return IDENTIFIER_START.test(code[index]!);
}
/** IDENTIFIER_PART, with the ASCII range decided without the Unicode RegExp. */
function isIdentifierPartAt(code: string, index: number): boolean {
  const unit = code.charCodeAt(index);
  if (unit < 0x80) return isIdentifierStartAt(code, index) || isDigitAt(code, index);
  return IDENTIFIER_PART.test(code[index]!);
}

function isLineBreak(char: string | undefined): boolean {
  return char === '\n' || char === '\r' || char === '\u2028' || char === '\u2029';
}

/** After an inline-code backtick pair, does a backtick here close the template (JavaScript continues)? */
function looksLikeTemplateCloser(code: string, index: number): boolean {
  const next = code[index + 1];
  if (next === undefined || isLineBreak(next)) return true;
  if (',;)]}:'.includes(next)) return true;
  if (next === '.') return METHOD_START.test(code.slice(index + 1, index + 3));
  if (next === ' ' || next === '\t') {
    const rest = AFTER_CLOSER.exec(code.slice(index + 1, index + 8));
    const operator = rest?.[1] ?? '';
    return CONTINUING_OPERATOR.test(operator) || operator === '';
  }
  return false;
}

/**
 * Tokenizes `code` without ever failing. Unknown characters become one-character punctuators; an
 * unterminated construct is reported in `openAtEnd`.
 */
export function lex(code: string, options: LexOptions = {}): LexResult {
  const result: LexResult = {
    tokens: [],
    brokenStrings: [],
    tripleQuotes: [],
    innerBackticks: [],
    shellExpansions: [],
    digitEscapes: [],
    openBrackets: [],
  };
  const { tokens, openBrackets } = result;
  const length = code.length;
  let index = 0;

  const keepTokens = !options.onlyLastToken;
  // The last token, in plain variables (no object per token unless the whole list is kept; a word's text is only
  // sliced out when something reads it).
  let lastKind: TokenKind | undefined;
  let lastStart = 0;
  let lastEnd = 0;
  let lastPunct: string | undefined;
  const push = (kind: TokenKind, start: number, end: number, punct?: string): void => {
    lastKind = kind;
    lastStart = start;
    lastEnd = end;
    lastPunct = punct;
    if (keepTokens) {
      const value = kind === 'word' ? code.slice(start, end) : punct;
      tokens.push(value === undefined ? { kind, start, end } : { kind, start, end, value });
    }
  };
  const lastValue = (): string | undefined => (lastKind === 'word' ? code.slice(lastStart, lastEnd) : lastPunct);

  const regexAllowed = (): boolean => {
    if (lastKind === undefined) return true;
    if (lastKind === 'punct') return !(lastPunct === ')' || lastPunct === ']' || lastPunct === '}');
    if (lastKind === 'word') return KEYWORDS_BEFORE_EXPRESSION.has(lastValue()!);
    return false;
  };

  // Per word in capitals: how often it occurs, and how often as a `${WORD}`. Counted in ONE pass over the program
  // the first time it is needed, so the check stays linear however many distinct names a template holds.
  let capitalWords: Map<string, { uses: number; expansions: number }> | undefined;
  const countCapitalWords = (): Map<string, { uses: number; expansions: number }> => {
    const counts = new Map<string, { uses: number; expansions: number }>();
    for (const match of code.matchAll(WORD_RUN)) {
      const word = match[0];
      if (!CAPITAL_WORD.test(word)) continue;
      const at = match.index;
      const entry = counts.get(word) ?? { uses: 0, expansions: 0 };
      entry.uses++;
      if (code[at - 1] === '{' && code[at - 2] === '$' && code[at + word.length] === '}') entry.expansions++;
      counts.set(word, entry);
    }
    return counts;
  };
  const isShellExpansion = (at: number): boolean => {
    const head = code.slice(at, at + 64);
    if (SHELL_EXPANSION.test(head) || WORKFLOW_EXPRESSION.test(head)) return true;
    const variable = SHELL_VARIABLE.exec(head);
    if (!variable) return false;
    // Every use of NAME is a `${NAME}`: it is bound nowhere in the program, so it can only be the shell's.
    capitalWords ??= countCapitalWords();
    const counts = capitalWords.get(variable[1]!);
    return counts !== undefined && counts.uses === counts.expansions;
  };

  /** Sorts one backslash escape inside template text into a digit escape or another kind (see LexResult). */
  const noteTemplateEscape = (at: number): void => {
    const next = code[at + 1];
    if (next === '\\' || next === '`' || next === '$') return;
    if ((next !== undefined && next >= '1' && next <= '9') || (next === '0' && isDigitAt(code, at + 2)))
      result.digitEscapes.push(at);
    else result.otherTemplateEscapes = true;
  };

  /** Scans template text from `index` (just after a backtick or a closing `}`); returns true when the template closed. */
  const scanTemplate = (start: number): void => {
    let inlineCode = false;
    while (index < length) {
      const char = code[index]!;
      if (char === '\\') {
        if (options.guessTemplateContent) noteTemplateEscape(index);
        index += 2;
        continue;
      }
      if (char === '`') {
        if (options.guessTemplateContent) {
          let run = 1;
          while (code[index + run] === '`') run++;
          // An inline `command` that ends the template: its closing backtick, then the template's (`echo `pwd``).
          if (run === 2 && inlineCode && looksLikeTemplateCloser(code, index + 1)) {
            result.innerBackticks.push(index);
            inlineCode = false;
            index++;
            continue;
          }
          if (run >= 2) {
            for (let offset = 0; offset < run; offset++) result.innerBackticks.push(index + offset);
            index += run;
            continue;
          }
          if (inlineCode || !looksLikeTemplateCloser(code, index)) {
            result.innerBackticks.push(index);
            inlineCode = !inlineCode;
            index++;
            continue;
          }
        }
        index++;
        push('template', start, index);
        return;
      }
      if (inlineCode && (char === ';' || isLineBreak(char))) result.inlineCodeSpansStatements = true;
      if (char === '$' && code[index + 1] === '{') {
        if (options.guessTemplateContent && (inlineCode || isShellExpansion(index))) {
          result.shellExpansions.push(index);
          const close = code.indexOf('}', index);
          index = close === -1 ? length : close + 1;
          continue;
        }
        push('template', start, index + 2);
        openBrackets.push({ char: '${', start: index });
        index += 2;
        return;
      }
      index++;
    }
    result.openAtEnd = { kind: 'template', start };
    index = length;
  };

  const scanQuoted = (quote: string, start: number): void => {
    let sawLineBreak = false;
    while (index < length) {
      const char = code[index]!;
      if (char === '\\') {
        index += code[index + 1] === '\r' && code[index + 2] === '\n' ? 3 : 2;
        continue;
      }
      if (char === quote) {
        index++;
        push('string', start, index);
        if (sawLineBreak) result.brokenStrings.push({ start, end: index, closed: true });
        return;
      }
      if (isLineBreak(char)) {
        if (!options.multilineQuotes) {
          push('string', start, index);
          result.brokenStrings.push({ start, end: index, closed: false });
          return;
        }
        sawLineBreak = true;
      }
      index++;
    }
    result.openAtEnd = { kind: 'string', start };
    if (sawLineBreak) result.brokenStrings.push({ start, end: length, closed: false });
  };

  while (index < length) {
    const char = code[index]!;
    const start = index;
    if (
      char === ' ' ||
      char === '\t' ||
      isLineBreak(char) ||
      char === '\v' ||
      char === '\f' ||
      char === '\ufeff' ||
      char === '\u00a0'
    ) {
      index++;
      continue;
    }
    if (char === '/' && code[index + 1] === '/') {
      while (index < length && !isLineBreak(code[index])) index++;
      continue;
    }
    if (char === '/' && code[index + 1] === '*') {
      const close = code.indexOf('*/', index + 2);
      if (close === -1) {
        result.openAtEnd = { kind: 'block-comment', start };
        index = length;
      } else {
        index = close + 2;
      }
      continue;
    }
    if (
      (char === '"' || char === "'") &&
      options.tripleQuotes &&
      code[index + 1] === char &&
      code[index + 2] === char
    ) {
      const quote = (char + char + char) as TripleQuote['quote'];
      let prefixStart = start;
      while (prefixStart > 0 && isAsciiLetterAt(code, prefixStart - 1)) prefixStart--;
      const close = code.indexOf(quote, index + 3);
      if (close === -1) {
        result.openAtEnd = { kind: 'triple-quote', start };
        index = length;
        continue;
      }
      let end = close + 3;
      while (code[end] === char) end++;
      result.tripleQuotes.push({ start, end, quote, prefix: code.slice(prefixStart, start) });
      push('triple', start, end);
      index = end;
      continue;
    }
    if (char === '"' || char === "'") {
      index++;
      scanQuoted(char, start);
      continue;
    }
    if (char === '`') {
      index++;
      scanTemplate(start);
      continue;
    }
    if (isDigitAt(code, index) || (char === '.' && isDigitAt(code, index + 1))) {
      index++;
      while (index < length && isNumberPartAt(code, index)) index++;
      push('number', start, index);
      continue;
    }
    if (isIdentifierStartAt(code, index) || (char.charCodeAt(0) >= 0xd800 && char.charCodeAt(0) <= 0xdbff)) {
      index++;
      while (
        index < length &&
        (isIdentifierPartAt(code, index) || (code.charCodeAt(index) >= 0xd800 && code.charCodeAt(index) <= 0xdfff))
      )
        index++;
      push('word', start, index);
      continue;
    }
    if (char === '/' && regexAllowed()) {
      let inClass = false;
      index++;
      let closed = false;
      while (index < length && !isLineBreak(code[index])) {
        const current = code[index]!;
        if (current === '\\') {
          index += 2;
          continue;
        }
        if (current === '[') inClass = true;
        else if (current === ']') inClass = false;
        else if (current === '/' && !inClass) {
          closed = true;
          index++;
          break;
        }
        index++;
      }
      if (closed) {
        while (index < length && isLowerAsciiLetterAt(code, index)) index++;
        push('regex', start, index);
        continue;
      }
      index = start + 1;
      push('punct', start, index, '/');
      continue;
    }
    if (char === '(' || char === '[' || char === '{') {
      const after = lastKind === undefined ? undefined : (lastValue() ?? lastKind);
      openBrackets.push(after === undefined ? { char, start } : { char, start, after });
      index++;
      push('punct', start, index, char);
      continue;
    }
    if (char === ')' || char === ']' || char === '}') {
      const top = openBrackets[openBrackets.length - 1];
      if (char === '}' && top?.char === '${') {
        openBrackets.pop();
        index++;
        scanTemplate(start);
        continue;
      }
      if (top && top.char === CLOSING[char]) openBrackets.pop();
      index++;
      push('punct', start, index, char);
      continue;
    }
    let punctuator = char;
    for (let candidate = 0; candidate < PUNCTUATORS.length; candidate++) {
      if (code.startsWith(PUNCTUATORS[candidate]!, index)) {
        punctuator = PUNCTUATORS[candidate]!;
        break;
      }
    }
    index += punctuator.length;
    push('punct', start, index, punctuator);
  }
  if (lastKind !== undefined) {
    const value = lastValue();
    result.lastToken =
      value === undefined
        ? { kind: lastKind, start: lastStart, end: lastEnd }
        : { kind: lastKind, start: lastStart, end: lastEnd, value };
  }
  return result;
}
