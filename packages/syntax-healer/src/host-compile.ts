/**
 * The host's compile step for a `run_code` program, reproduced (see docs/host-facts.md).
 *
 * DSH rc.8 wraps the program as the body of `async function __dsh_program__() {…}`, strips TypeScript with
 * `node:module.stripTypeScriptTypes` (strip-only), slices the body back out and compiles it with
 * `new AsyncFunction('tools', 'ToolCallError', 'console', "'use strict';\n" + body)`. A healer whose `ok`
 * means "the host compiles it" has to run the same four steps.
 *
 * Backend choice: where `stripTypeScriptTypes` exists (Node >= 22.13) it is looked up through
 * `globalThis.process.getBuiltinModule` (no top-level `node:module` import, so this module still loads in a
 * browser or on a runtime without Node built-ins). Elsewhere (Node 20) the program is first compiled as
 * plain JavaScript (nearly every program is), and only when that fails is it parsed with Babel's typescript
 * plugin, refused where strip-only mode would refuse it, and its types blanked before the same compile.
 *
 * Fast path on the strip backend: Node's strip costs more than the compile itself (about 60 us against 40 us for
 * 1.7 KB). A program whose text holds nothing TypeScript could read differently from JavaScript (no `<`, no `? (`,
 * no TypeScript-only word such as `type`, `as`, `declare`, `interface`; see TS_LOOKING) and that compiles as plain
 * strict JavaScript is accepted on that one compile: strip-only mode has nothing to remove from it. Anything else
 * takes the host-identical path. The agreement test compares both with the real host on the whole corpus.
 */
import { parse } from '@babel/parser';
import { eraseTypes, NonErasableTypeScriptError } from './erase-types.js';
import { EAGER_COMPILE_CHARS, MAX_PARSE_CHARS, MAX_PROGRAM_CHARS, MAX_STRIP_CHARS } from './limits.js';
import { withoutStackTraces } from './quiet-errors.js';

/**
 * The verdict alone: does the host compile this program? `line` and `column` are 1-based positions in the program
 * text. `undecided` means the engine's bounds kept it from deciding (a large program with TypeScript-looking text,
 * or one the lazy check could not place): the host decides.
 */
export type CompileVerdict =
  | { ok: true }
  | { ok: false; message: string; line?: number; column?: number; undecided?: true };

/** Which implementation of the type-strip step is in use. */
export type StripBackend = 'node-strip-types' | 'babel-erase';

const WRAP_PREFIX = 'async function __dsh_program__() {\n';
const WRAP_SUFFIX = '\n}';
const HOST_PARAMETERS = ['tools', 'ToolCallError', 'console'] as const;
const STRICT_PROLOGUE = "'use strict';\n";

type AsyncFunctionConstructor = new (...parametersAndBody: string[]) => unknown;
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as AsyncFunctionConstructor;

type StripTypeScriptTypes = (code: string, options?: { mode?: 'strip' | 'transform' }) => string;

/** Finds Node's own `stripTypeScriptTypes` without importing `node:module` (absent in browsers and Node < 22.13). */
function findNodeStripTypes(): StripTypeScriptTypes | undefined {
  try {
    const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const nodeModule = nodeProcess?.getBuiltinModule?.('node:module') as { stripTypeScriptTypes?: unknown } | undefined;
    return typeof nodeModule?.stripTypeScriptTypes === 'function'
      ? (nodeModule.stripTypeScriptTypes as StripTypeScriptTypes)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Text in which TypeScript could see syntax that plain JavaScript reads otherwise, or that strip mode would remove:
 * type arguments and assertions (`<`), the arrow-with-return-type reading of a parenthesised conditional branch
 * (`? (`), an HTML-like comment (`-->`, which is not allowed in a module), and every TypeScript-only word followed
 * by what it would apply to (`as const`, `type Name`, `private field`; `{ type: 'text' }` is not one). Types
 * elsewhere sit after a `:` that plain JavaScript rejects. Strings are not skipped: a match there only sends the
 * program down the host-identical path.
 */
const TS_LOOKING =
  /<|-->|\?\s*\(|\b(?:type|interface|declare|abstract|namespace|module|enum|global|readonly|satisfies|as|override|private|public|protected|implements|accessor)\s+[\p{L}\p{Nl}\p{Nd}$_#[{('"`-]/u;

let nodeStripTypes: StripTypeScriptTypes | undefined | null = null;
let forcedBackend: StripBackend | undefined;

function activeStripTypes(): StripTypeScriptTypes | undefined {
  if (forcedBackend === 'babel-erase') return undefined;
  if (nodeStripTypes === null) nodeStripTypes = findNodeStripTypes();
  return nodeStripTypes;
}

/** The backend that `compilesLikeHost` uses on this runtime. */
export function stripBackend(): StripBackend {
  return activeStripTypes() ? 'node-strip-types' : 'babel-erase';
}

/**
 * Test hook: force the Babel backend even where Node's strip exists (so both paths can be compared in one
 * process), or pass `undefined` to go back to automatic detection.
 */
export function setStripBackendForTesting(backend: StripBackend | undefined): void {
  forcedBackend = backend;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function undecided(message: string): CompileVerdict {
  return { ok: false, message, undecided: true };
}

/**
 * Step 4: the AsyncFunction compile, in strict mode, with the host's three parameter names. Up to
 * EAGER_COMPILE_CHARS it is the host's own call. Above, `new AsyncFunction` compiles the whole body eagerly, which is
 * quadratic in awaits x locals, so the body is checked by V8's lazy parse instead, twice:
 * - as the body of an inner async function with the same parameters and prologue (`return async function (tools,
 *   ToolCallError, console) { 'use strict'; <body> }`), which V8 only pre-parses: the same early errors as the host
 *   for a body that stays inside its function;
 * - wrapped in a block labelled with a name the body does not contain, followed by `break <label>`: that break
 *   compiles only if the body closed nothing it did not open (a `}` that ends the function early, then code after it,
 *   would leave the break outside its label). A body this second check refuses (a block scope changes a few rules,
 *   e.g. duplicate function declarations) is left undecided.
 */
function compileBody(body: string): CompileVerdict {
  if (body.length > EAGER_COMPILE_CHARS) return lazyCompileBody(body);
  try {
    new AsyncFunction(...HOST_PARAMETERS, STRICT_PROLOGUE + body);
    return { ok: true };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

const INNER_HEAD = `return async function __dsh_program__(${HOST_PARAMETERS.join(', ')}) {\n${STRICT_PROLOGUE}`;

function lazyCompileBody(body: string): CompileVerdict {
  try {
    new Function(`${INNER_HEAD}${body}\n}`);
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
  let label = '__dsh_end__';
  while (body.includes(label)) label += '_';
  try {
    new Function(`${INNER_HEAD}${label}: {\n${body}\nbreak ${label};\n}\n}`);
    return { ok: true };
  } catch {
    return undecided('the program is too large to check the way the host compiles it; left to the host');
  }
}

function sliceBody(wrapped: string): string {
  return wrapped.slice(WRAP_PREFIX.length, wrapped.length - WRAP_SUFFIX.length);
}

/** Maps a Babel position in the wrapped text back to the program (the wrapper adds one line). */
function programPosition(error: unknown): { line?: number; column?: number } {
  const loc = (error as { loc?: { line: number; column: number } }).loc;
  if (!loc) return {};
  return { line: Math.max(1, loc.line - 1), column: loc.column + 1 };
}

/**
 * The fast verdict for a program with no TypeScript-looking text: `{ ok: true }` when it compiles as plain strict
 * JavaScript, undefined when the host-identical path must decide. Exported for the agreement test.
 */
export function plainJavaScriptVerdict(code: string): { ok: true } | undefined {
  if (TS_LOOKING.test(code)) return undefined;
  return compileBody(code).ok ? { ok: true } : undefined;
}

function verdictWithNodeStrip(code: string, stripTypes: StripTypeScriptTypes): CompileVerdict {
  const plain = plainJavaScriptVerdict(code);
  if (plain) return plain;
  if (code.length > MAX_STRIP_CHARS)
    return undecided('the program is too large to strip its TypeScript the way the host does; left to the host');
  let wrapped: string;
  try {
    wrapped = stripTypes(WRAP_PREFIX + code + WRAP_SUFFIX, { mode: 'strip' });
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
  return compileBody(sliceBody(wrapped));
}

function verdictWithBabel(code: string): CompileVerdict {
  const plain = compileBody(code);
  if (plain.ok || plain.undecided) return plain;
  if (code.length > MAX_STRIP_CHARS)
    return undecided('the program is too large to strip its TypeScript the way the host does; left to the host');
  let erased: string;
  try {
    erased = eraseTypes(WRAP_PREFIX + code + WRAP_SUFFIX);
  } catch (error) {
    if (error instanceof NonErasableTypeScriptError) return { ok: false, message: error.message };
    return { ok: false, message: messageOf(error), ...programPosition(error) };
  }
  return compileBody(sliceBody(erased));
}

/**
 * The host's verdict without any extra work: one strip plus one compile on the valid path. Internal callers
 * (the repair loop) use this; `compilesLikeHost` adds a position to failures.
 */
export function compileVerdict(code: string): CompileVerdict {
  if (code.length > MAX_PROGRAM_CHARS)
    return undecided(`the program is too large to check (${code.length} characters); left to the host`);
  const stripTypes = activeStripTypes();
  return stripTypes ? verdictWithNodeStrip(code, stripTypes) : verdictWithBabel(code);
}

/**
 * Where Babel's TypeScript parser first fails on the program, as a program position (undefined when it
 * parses: the failure is then an early error such as a redeclared `tools`, which has no position).
 */
export function locateSyntaxError(code: string): { message: string; line: number; column: number } | undefined {
  if (code.length > MAX_PARSE_CHARS) return undefined;
  try {
    parse(WRAP_PREFIX + code + WRAP_SUFFIX, { sourceType: 'script', plugins: ['typescript'], errorRecovery: false });
    return undefined;
  } catch (error) {
    const position = programPosition(error);
    if (position.line === undefined) return undefined;
    return { message: messageOf(error), line: position.line, column: position.column ?? 1 };
  }
}

/**
 * Would DSH rc.8 compile this `run_code` program? Reproduces the host's wrap, strip-only type removal, body
 * slice and strict AsyncFunction compile. A failure carries the host-side message and, where Babel can
 * place it, the line and column in the program.
 */
export function compilesLikeHost(code: string): CompileVerdict {
  if (typeof code !== 'string')
    return { ok: false, message: `program must be a string, got ${code === null ? 'null' : typeof code}` };
  return withoutStackTraces(() => {
    const verdict = compileVerdict(code);
    if (verdict.ok || verdict.line !== undefined || verdict.undecided) return verdict;
    const located = locateSyntaxError(code);
    return located ? { ...verdict, line: located.line, column: located.column } : verdict;
  });
}
