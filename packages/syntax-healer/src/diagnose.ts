/**
 * Says what is wrong with a program that no repair could fix, in one actionable sentence.
 *
 * Semantically wrong code (Python or shell pasted as JavaScript, ES module bodies, `await` in a non-async
 * callback, a JSON argument object pasted as code) is never "repaired": changing it until it parses would
 * change what it means. It gets a diagnostic that names the problem instead. The host's own message says
 * little (a raw newline in a string reads "Expected ';', '}' or <eof>"), so positions come from Babel where it can place the error.
 */
import { locateSyntaxError } from './host-compile.js';
import type { Diagnostic } from './types.js';

/**
 * Line patterns, matched against at most the first MAX_SCANNED_LINES lines of MAX_LINE_CHARS each, with
 * bounded repetitions, so a hostile program cannot make a pattern backtrack for long.
 */
const MAX_SCANNED_LINES = 400;
const MAX_LINE_CHARS = 400;
const PYTHON_LINE =
  /^[ \t]*(?:def [A-Za-z_]\w{0,80}\([^\n]{0,300}:[ \t]*$|class [A-Za-z_]\w{0,80}(?:\([^\n)]{0,200}\))?:[ \t]*$|from [\w.]{1,80} import |import [\w.]{1,80}(?: as \w{1,40})?[ \t]*$|elif [^\n]{0,300}:[ \t]*$|except(?: [^\n]{0,200})?:[ \t]*$|with [^\n]{0,200} as \w{1,40}:[ \t]*$|for \w{1,40}(?:, *\w{1,40}){0,5} in [^\n]{0,300}:[ \t]*$|print\(f?["'])/;
/** `f"…{name}…"` / `f'…'`: a Python f-string (the triple-quoted form is refused by the triple-quote repair). */
const PYTHON_F_STRING = /(?<![\w$.])[fF]("|')[^"'\r\n{]{0,200}\{[^}\r\n]{0,200}\}[^"'\r\n]{0,200}\1/;
const SHELL_LINE =
  /^(?:#!\/|\$ |(?:sudo |cd |ls|cat |echo |grep |find |npm |pnpm |npx |yarn |git |rm |mkdir |cp |mv |curl |python3? |pip )[^;{}()]*$)/;
const MODULE_SYNTAX =
  /^[ \t]*(?:import\s{1,20}(?:[\w*{][^;\n]{0,300}\sfrom\s|['"])|export\s{1,20}(?:default|const|let|var|function|class|async|\{|\*))/;

/** True when one of the first lines of `code` matches `pattern` (long lines are cut, not scanned whole). */
function someLine(code: string, pattern: RegExp): boolean {
  let start = 0;
  for (let count = 0; count < MAX_SCANNED_LINES && start <= code.length; count++) {
    const newline = code.indexOf('\n', start);
    const end = newline === -1 ? code.length : newline;
    const line = code.slice(start, Math.min(end, start + MAX_LINE_CHARS)).replace(/\r$/, '');
    if (pattern.test(line)) return true;
    if (newline === -1) break;
    start = newline + 1;
  }
  return false;
}

function looksLikeJsonObject(code: string): boolean {
  const trimmed = code.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return false;
  try {
    return typeof JSON.parse(trimmed) === 'object';
  } catch {
    return false;
  }
}

/** A diagnostic for a program the host would not compile and no repair fixed. */
export function diagnoseFailure(code: string, hostMessage: string): Diagnostic {
  const located = locateSyntaxError(code);
  const where = located ? { line: located.line, column: located.column } : {};
  const at = located ? ` (line ${located.line}, column ${located.column})` : '';
  if (looksLikeJsonObject(code)) {
    return {
      kind: 'json-arguments',
      message:
        'This is a JSON object, not a program: `code` must be the body of an async function, e.g. `return await tools.read({ file_path: "/abs/path" });`. The program was not run.',
    };
  }
  if (/strip-only mode|type strip mode/.test(hostMessage)) {
    return {
      kind: 'unsupported-typescript',
      message: `${hostMessage}. Only erasable TypeScript runs (no enum, runtime namespace, parameter property or <T>x assertion). The program was not run.`,
      ...where,
    };
  }
  if (someLine(code, MODULE_SYNTAX)) {
    return {
      kind: 'module-syntax',
      message: `ES module import/export cannot appear in a run_code program${at}: it is the body of an async function; use the \`tools\` object, or \`await import(...)\` for a module. The program was not run.`,
      ...where,
    };
  }
  if (someLine(code, PYTHON_F_STRING)) {
    return {
      kind: 'python-string-prefix',
      message: `A Python f-string is not JavaScript${at}: write a template literal (\`…\${expr}…\`) instead. The program was not run.`,
      ...where,
    };
  }
  if (someLine(code, PYTHON_LINE)) {
    return {
      kind: 'python-code',
      message: `This looks like Python, not JavaScript${at}. Rewrite it in JavaScript/TypeScript. The program was not run.`,
      ...where,
    };
  }
  if (located && /await/i.test(located.message) && /async/i.test(located.message)) {
    return {
      kind: 'await-outside-async',
      message: `\`await\` is used inside a function that is not async${at}: mark that callback \`async\` (and await its result), or use a for…of loop. The program was not run.`,
      ...where,
    };
  }
  if (someLine(code, SHELL_LINE)) {
    return {
      kind: 'shell-code',
      message: `This looks like a shell command, not JavaScript${at}: call \`await tools.bash({ command, description })\` from the program. The program was not run.`,
      ...where,
    };
  }
  const detail = (located ? located.message.replace(/ \(\d+:\d+\)$/, '') : hostMessage).replace(/\.+$/, '');
  return {
    kind: 'syntax-error',
    message: `The program does not compile${at}: ${detail}. The program was not run.`,
    ...where,
  };
}

/** A one-line shell command that happens to compile as JavaScript (`ls -la /tmp` reads as `ls - la / tmp`). */
const COMPILING_SHELL_COMMAND =
  /^[ \t]*(?:sudo|ls|cat|rm|cp|mv|mkdir|rmdir|cd|echo|grep|rg|find|npm|pnpm|npx|yarn|git|curl|wget|python3?|pip|chmod|chown|touch|head|tail|wc|sed|awk|tar|make|docker)[ \t]+[^\r\n(){};=,'"`]*[ \t]*(?:\r?\n)?$/;

/**
 * For a program that compiles: a diagnostic when it is plainly a shell command rather than a program (it
 * would only fail at run time with a ReferenceError), else undefined. Checks one short line at most.
 */
export function diagnoseCompilingShell(code: string): Diagnostic | undefined {
  if (code.length > 500 || !COMPILING_SHELL_COMMAND.test(code)) return undefined;
  return {
    kind: 'shell-code',
    message:
      'This is a shell command, not JavaScript: call `await tools.bash({ command, description })` from the program. The program was not run.',
    line: 1,
    column: 1,
  };
}

/**
 * True when a line of `code` reads as Python or shell (a `def`/`import` line, an f-string, `print(…)`, `echo …`): a
 * repair that made such a program compile (a `#` comment turned into `//`) would run another language's text.
 */
export function looksLikeOtherLanguage(code: string): boolean {
  return (
    someLine(code, PYTHON_LINE) ||
    someLine(code, PYTHON_F_STRING) ||
    someLine(code, SHELL_LINE) ||
    someLine(code, /^[ \t]*print[ \t]*\(/)
  );
}
