/**
 * Says what is wrong with a program that no repair could fix, in one actionable sentence.
 *
 * Semantically wrong code (Python or shell pasted as JavaScript, ES module bodies, `await` in a non-async
 * callback, a JSON argument object pasted as code) is never "repaired": changing it until it parses would
 * change what it means. It gets a diagnostic that names the problem instead. The host's own message says
 * little (surprise 16), so positions come from Babel where it can place the error.
 */
import { locateSyntaxError } from './host-compile.js';
import type { Diagnostic } from './types.js';

const PYTHON_LINE = /^[ \t]*(?:def [A-Za-z_]\w*\(.*\)\s*(?:->.*)?:|class [A-Za-z_]\w*(?:\(.*\))?:|from [\w.]+ import |import [\w.]+(?: as \w+)?\s*$|elif .*:|except(?: .*)?:|with .+ as \w+:|for \w+(?:, *\w+)* in .+:|print\(f?["'])/m;
/** `f"…{name}…"` / `f'…'`: a Python f-string (the triple-quoted form is refused by the triple-quote repair). */
const PYTHON_F_STRING = /(?<![\w$.])[fF]("|')[^"'\r\n]*\{[^}\r\n]*\}[^"'\r\n]*\1/;
const SHELL_LINE = /^(?:#!\/|\$ |(?:sudo |cd |ls|cat |echo |grep |find |npm |pnpm |npx |yarn |git |rm |mkdir |cp |mv |curl |python3? |pip )[^;{}()]*$)/m;
const MODULE_SYNTAX = /^[ \t]*(?:import\s+(?:[\w*{][^;]*\s+from\s+|['"])|export\s+(?:default|const|let|var|function|class|async|\{|\*))/m;

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
      message: 'This is a JSON object, not a program: `code` must be the body of an async function, e.g. `return await tools.read({ file_path: "/abs/path" });`. The program was not run.',
    };
  }
  if (/strip-only mode|type strip mode/.test(hostMessage)) {
    return {
      kind: 'unsupported-typescript',
      message: `${hostMessage}. Only erasable TypeScript runs (no enum, runtime namespace, parameter property or <T>x assertion). The program was not run.`,
      ...where,
    };
  }
  if (MODULE_SYNTAX.test(code)) {
    return {
      kind: 'module-syntax',
      message: `ES module import/export cannot appear in a run_code program${at}: it is the body of an async function; use the \`tools\` object, or \`await import(...)\` for a module. The program was not run.`,
      ...where,
    };
  }
  const fString = PYTHON_F_STRING.exec(code);
  if (fString) {
    return {
      kind: 'python-string-prefix',
      message: `A Python f-string is not JavaScript${at}: write a template literal (\`…\${expr}…\`) instead. The program was not run.`,
      ...where,
    };
  }
  if (PYTHON_LINE.test(code)) {
    return { kind: 'python-code', message: `This looks like Python, not JavaScript${at}. Rewrite it in JavaScript/TypeScript. The program was not run.`, ...where };
  }
  if (located && /await/i.test(located.message) && /async/i.test(located.message)) {
    return {
      kind: 'await-outside-async',
      message: `\`await\` is used inside a function that is not async${at}: mark that callback \`async\` (and await its result), or use a for…of loop. The program was not run.`,
      ...where,
    };
  }
  if (SHELL_LINE.test(code)) {
    return {
      kind: 'shell-code',
      message: `This looks like a shell command, not JavaScript${at}: call \`await tools.bash({ command, description })\` from the program. The program was not run.`,
      ...where,
    };
  }
  const detail = (located ? located.message.replace(/ \(\d+:\d+\)$/, '') : hostMessage).replace(/\.+$/, '');
  return { kind: 'syntax-error', message: `The program does not compile${at}: ${detail}. The program was not run.`, ...where };
}

/** A one-line shell command that happens to compile as JavaScript (`ls -la /tmp` reads as `ls - la / tmp`). */
const COMPILING_SHELL_COMMAND = /^[ \t]*(?:sudo|ls|cat|rm|cp|mv|mkdir|rmdir|cd|echo|grep|rg|find|npm|pnpm|npx|yarn|git|curl|wget|python3?|pip|chmod|chown|touch|head|tail|wc|sed|awk|tar|make|docker)[ \t]+[^\r\n(){};=,'"`]*[ \t]*(?:\r?\n)?$/;

/**
 * For a program that compiles: a diagnostic when it is plainly a shell command rather than a program (it
 * would only fail at run time with a ReferenceError), else undefined. Checks one short line at most.
 */
export function diagnoseCompilingShell(code: string): Diagnostic | undefined {
  if (code.length > 500 || !COMPILING_SHELL_COMMAND.test(code)) return undefined;
  return {
    kind: 'shell-code',
    message: 'This is a shell command, not JavaScript: call `await tools.bash({ command, description })` from the program. The program was not run.',
    line: 1,
    column: 1,
  };
}
