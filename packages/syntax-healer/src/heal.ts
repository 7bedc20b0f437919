/**
 * `healProgram`: turn a model-written `run_code` program the host would reject into one it accepts, or
 * say precisely why not, following the engine's rules:
 * - valid input is returned as the same string (one host-equivalent compile, nothing else);
 * - a repair is kept only if the host compile accepts it, and only if it is the unique passing repair;
 * - content lost to a cut is never invented: the model is told where the program was cut;
 * - every call is bounded by a cap on compile attempts and a size limit for repairs.
 */
import { classHint, codeLeftOut } from './class-hints.js';
import { findFence } from './fences.js';
import { findToolMarkup } from './leaked-markup.js';
import { compileVerdict, type CompileVerdict } from './host-compile.js';
import { diagnoseCompilingShell, diagnoseFailure } from './diagnose.js';
import {
  positionOf,
  repairRawNewlines,
  repairTemplateContent,
  repairTripleQuotes,
  repairTruncation,
  type RepairOutcome,
} from './repairs.js';
import {
  entitiesReadAsCode,
  namesForeignInterpreter,
  quotedProgram,
  repairEscapedProgram,
  repairHashComments,
  repairHtmlEntities,
  repairSurroundingProse,
  repairTypographicQuotes,
  repairZeroWidth,
} from './transport-repairs.js';
import { DEFAULT_MAX_COMPILED_CHARS, MAX_PROGRAM_CHARS } from './limits.js';
import { withoutStackTraces } from './quiet-errors.js';
import type { Diagnostic, HealOptions, HealResult, Repair } from './types.js';

/**
 * Default cap on host-equivalent compiles per call. A call compiles the text sent, the program inside a fence or
 * markup, each applicable class's readings and up to 4 combinations; on real breakage one to three classes apply.
 */
export const DEFAULT_MAX_COMPILE_ATTEMPTS = 12;
/** Default size above which a failing program is diagnosed but not repaired (64 KiB of text). */
export const DEFAULT_MAX_REPAIR_CHARS = 64 * 1024;

/**
 * The repair classes in the order they are tried (and chained): first what the transport did to the whole text (a JSON
 * layer, HTML entities, prose lines, invisible characters, `#` comments, typographic quotes), then the classes 2-5.
 */
const REPAIR_CLASSES: readonly ((code: string) => RepairOutcome)[] = [
  repairEscapedProgram,
  repairHtmlEntities,
  repairSurroundingProse,
  repairZeroWidth,
  repairHashComments,
  repairTypographicQuotes,
  repairTripleQuotes,
  repairTemplateContent,
  repairRawNewlines,
  repairTruncation,
];

/**
 * Counts compiles against the per-call cap, and the characters compiled against the per-call work budget (a
 * deterministic stand-in for time: about 0.3 us per character when TypeScript has to be stripped). The program's own
 * verdict is always computed; a repair candidate is compiled only while both allow it.
 */
class CompileBudget {
  used = 0;
  chars = 0;
  constructor(
    readonly limit: number,
    readonly maxChars: number,
  ) {}
  get exhausted(): boolean {
    return this.used >= this.limit || this.chars >= this.maxChars;
  }
  compile(code: string): CompileVerdict {
    this.used++;
    this.chars += code.length;
    return compileVerdict(code);
  }
  /** Compiles a repair candidate when the budget allows it (else: not passing). */
  tryCompile(code: string): CompileVerdict | undefined {
    if (this.used >= this.limit || this.chars + code.length > this.maxChars) return undefined;
    return this.compile(code);
  }
  compiles(code: string): boolean {
    return this.compile(code).ok;
  }
}

function unchanged(code: string, ok: boolean, diagnostic?: Diagnostic): HealResult {
  return diagnostic ? { ok, changed: false, code, repairs: [], diagnostic } : { ok, changed: false, code, repairs: [] };
}

/**
 * A diagnostic about a program that sits at `offset` in the text sent (inside a fence or markup), with its positions
 * (the fields and every "line N[, column M]" of the message) moved to that text.
 */
function mapDiagnostic(diagnostic: Diagnostic, sent: string, offset: number): Diagnostic {
  if (offset === 0) return diagnostic;
  const start = positionOf(sent, offset);
  const move = (line: number, column: number): { line: number; column: number } =>
    line === 1 ? { line: start.line, column: start.column + column - 1 } : { line: start.line + line - 1, column };
  const message = diagnostic.message.replace(
    /line (\d+)(, column (\d+))?/g,
    (_all, line: string, withColumn, column) => {
      const moved = move(Number(line), withColumn ? Number(column) : 1);
      return withColumn ? `line ${moved.line}, column ${moved.column}` : `line ${moved.line}`;
    },
  );
  if (diagnostic.line === undefined) return { ...diagnostic, message };
  return { ...diagnostic, message, ...move(diagnostic.line, diagnostic.column ?? 1) };
}

/** What the ambiguity is about, for the message: the class names the model can act on. */
const CLASS_LABELS: Record<string, string> = {
  'typographic-quotes': 'typographic quotes',
  'escaped-program': 'escaped text (\\n, \\" written as text)',
  'html-entities': 'HTML entities',
  'zero-width': 'invisible zero-width characters',
};

function ambiguity(passing: readonly { repair: Repair }[]): Diagnostic {
  const kinds = [...new Set(passing.map((candidate) => candidate.repair.kind))];
  const label = kinds.length === 1 ? CLASS_LABELS[kinds[0]!] : undefined;
  if (label) {
    const line = passing.find((candidate) => typeof candidate.repair.line === 'number')?.repair.line;
    return {
      kind: 'ambiguous-repair',
      message: `The program holds ${label}${line === undefined ? '' : ` (line ${line})`} that can be read in more than one way, and each reading compiles but means something different, so none was applied: fix them yourself. The program was not run.`,
      ...(typeof line === 'number' ? { line, column: 1 } : {}),
    };
  }
  return {
    kind: 'ambiguous-repair',
    message: `Several different repairs (${passing.map((candidate) => candidate.repair.kind).join(', ')}) would each make the program compile, so none was applied; the program was not run.`,
  };
}

/** The readings a class proposes: its candidate and the other readings. */
function readingsOf(outcome: RepairOutcome): readonly string[] {
  return outcome.kind === 'candidate' ? [outcome.code, ...(outcome.alternatives ?? [])] : [];
}

/**
 * Programs that compile but only by misreading what the transport did, like a fence: `a &gt; b;` (as `a & gt; b`, with
 * entity names the program never declares) fails when run, and a program sent as one JSON string
 * (`"const a = 1;\nreturn a;"`) runs nothing. They are repaired as if they did not compile.
 */
const COMPILES_MISREAD = 'the program compiles only by misreading HTML entities or a JSON string, and fails when run';

/** Diagnostics the class found in the text may replace: they only say the host could not read it. */
const NAMEABLE = new Set<string>(['truncated', 'syntax-error', 'shell-code']);

/** At most this many partly repaired texts are carried through the chain (one per reading). */
const MAX_CHAIN_BRANCHES = 4;

type BodyOutcome = { ok: true; code: string; repairs: Repair[] } | { ok: false; diagnostic: Diagnostic };

/** Repairs a program body that does not compile (classes 2-5 and their combination). */
function repairBody(body: string, hostMessage: string, budget: CompileBudget, maxRepairChars: number): BodyOutcome {
  if (body.length > maxRepairChars) {
    return {
      ok: false,
      diagnostic: {
        kind: 'too-large-to-repair',
        message: `The program does not compile and is too large (${body.length} characters) to repair automatically; the program was not run.`,
      },
    };
  }
  const refusals: Diagnostic[] = [];
  const passing: { code: string; repair: Repair }[] = [];
  const applied: ((code: string) => RepairOutcome)[] = [];
  // Each class's outcome on the body, reused by the chain below while the chain's text is still the body.
  const onBody = new Map<(code: string) => RepairOutcome, RepairOutcome>();
  for (const repairClass of REPAIR_CLASSES) {
    const outcome = repairClass(body);
    onBody.set(repairClass, outcome);
    if (outcome.kind === 'refused') refusals.push(outcome.diagnostic);
    if (outcome.kind !== 'candidate') continue;
    applied.push(repairClass);
    for (const reading of readingsOf(outcome))
      if (budget.tryCompile(reading)?.ok) passing.push({ code: reading, repair: outcome.repair });
  }
  const distinct = new Set(passing.map((candidate) => candidate.code));
  if (distinct.size === 1) return { ok: true, code: passing[0]!.code, repairs: [passing[0]!.repair] };
  if (distinct.size > 1) return { ok: false, diagnostic: ambiguity(passing) };
  // No single class suffices: apply the classes one after another, each on the previous one's output (e.g. a
  // triple quote in a truncated program). A class that refuses on the partly repaired text stops the chain,
  // and its refusal is the most precise diagnostic (a cut is judged after the other repairs).
  // Each reading of a class is its own branch of the chain; two branches that both compile mean no repair.
  let chainRefusal: Diagnostic | undefined;
  if (applied.length >= 1 && !budget.exhausted) {
    let branches: { code: string; repairs: Repair[] }[] = [{ code: body, repairs: [] }];
    for (const repairClass of REPAIR_CLASSES) {
      const next: { code: string; repairs: Repair[] }[] = [];
      for (const branch of branches) {
        const outcome = (branch.code === body ? onBody.get(repairClass) : undefined) ?? repairClass(branch.code);
        if (outcome.kind === 'refused') {
          chainRefusal ??= outcome.diagnostic;
          continue;
        }
        if (outcome.kind !== 'candidate') next.push(branch);
        else
          for (const reading of readingsOf(outcome))
            next.push({ code: reading, repairs: [...branch.repairs, outcome.repair] });
      }
      branches = next.slice(0, MAX_CHAIN_BRANCHES);
      if (branches.length === 0) break;
    }
    const combined = branches.filter(
      (branch, index) =>
        branch.repairs.length >= 2 && branches.findIndex((other) => other.code === branch.code) === index,
    );
    const passingChains = combined.filter((branch) => budget.tryCompile(branch.code)?.ok);
    if (passingChains.length === 1)
      return { ok: true, code: passingChains[0]!.code, repairs: passingChains[0]!.repairs };
    if (passingChains.length > 1)
      return {
        ok: false,
        diagnostic: ambiguity(passingChains.flatMap((branch) => branch.repairs.map((repair) => ({ repair })))),
      };
  }
  const truncated = refusals.find((diagnostic) => diagnostic.kind === 'truncated');
  const fallback = chainRefusal ?? truncated ?? refusals[0] ?? diagnoseFailure(body, hostMessage);
  // A string "cut off" by the apostrophe of "That's it.", a hashbang read as shell: name what was found instead.
  const named = NAMEABLE.has(fallback.kind) && !namesForeignInterpreter(body) ? classHint(body) : undefined;
  // A real cut stays a cut beside an entity or an invisible character: those never make the scanner see a string or
  // template that is not there (an apostrophe in prose or in a `#` comment, a curly quote, `\"` as text do).
  if (named && fallback.kind === 'truncated' && (named.kind === 'html-entities' || named.kind === 'zero-width'))
    return { ok: false, diagnostic: fallback };
  return { ok: false, diagnostic: named ?? fallback };
}

/**
 * Heals one `run_code` program. `ok` means the host would compile the returned `code`; `changed` means it
 * differs from the input; a program that cannot be repaired comes back unchanged with a diagnostic.
 */
export function healProgram(code: string, options: HealOptions = {}): HealResult {
  if (typeof code !== 'string') {
    const got = code === null ? 'null' : Array.isArray(code) ? 'an array' : typeof code;
    return {
      ok: false,
      changed: false,
      code: '',
      repairs: [],
      diagnostic: { kind: 'invalid-input', message: `The program must be a string, got ${got}; nothing was run.` },
    };
  }
  const { maxCompileAttempts, maxRepairChars, maxCompiledChars } = readOptions(options);
  if (code.length > MAX_PROGRAM_CHARS) {
    return unchanged(code, false, {
      kind: 'too-large-to-check',
      message: `The program is too large (${code.length} characters) to check or repair automatically; it was left to the host.`,
    });
  }
  const budget = new CompileBudget(maxCompileAttempts, maxCompiledChars);
  try {
    return withoutStackTraces(() => healWithin(code, budget, maxRepairChars));
  } catch (error) {
    return unchanged(code, false, {
      kind: 'too-large-to-check',
      message: `The program could not be checked (${error instanceof Error ? error.name : 'internal error'}); it was left to the host.`,
    });
  }
}

/** A number option read defensively (options may be a Proxy or carry throwing getters): the default otherwise. */
function numberOption(options: HealOptions, key: keyof HealOptions, fallback: number, minimum: number): number {
  try {
    const value = options?.[key];
    return typeof value === 'number' && Number.isFinite(value) ? Math.max(minimum, value) : fallback;
  } catch {
    return fallback;
  }
}

function readOptions(options: HealOptions): Required<HealOptions> {
  return {
    maxCompileAttempts: numberOption(options, 'maxCompileAttempts', DEFAULT_MAX_COMPILE_ATTEMPTS, 1),
    maxRepairChars: numberOption(options, 'maxRepairChars', DEFAULT_MAX_REPAIR_CHARS, 0),
    maxCompiledChars: numberOption(options, 'maxCompiledChars', DEFAULT_MAX_COMPILED_CHARS, 0),
  };
}

/** A verdict the bounds kept from deciding: the program is left to the host. */
function leftToHost(code: string, verdict: CompileVerdict): HealResult {
  return unchanged(code, false, {
    kind: 'too-large-to-check',
    message: `${verdict.ok ? '' : verdict.message}.`.replace(/^./, (first) => first.toUpperCase()),
  });
}

/**
 * Heals the text sent: leaked tool-call markup around it is a wrapper like a fence (a program wrapped in it never
 * compiles, so it is stripped only from one that does not), then the rest is healed as a program. A repaired program
 * that says code was left out (`// ... rest unchanged`) is not run.
 */
function healWithin(code: string, budget: CompileBudget, maxRepairChars: number): HealResult {
  if (code.trim() === '') return healText(code, budget, maxRepairChars);
  const markup = findToolMarkup(code);
  let result: HealResult;
  if (markup && !budget.compiles(code)) {
    const body = code.slice(markup.start, markup.end);
    const inner = healText(body, budget, maxRepairChars);
    if (!inner.ok)
      return unchanged(code, false, inner.diagnostic ? mapDiagnostic(inner.diagnostic, code, markup.start) : undefined);
    if (
      markup.alternative !== undefined &&
      markup.alternative !== inner.code &&
      budget.tryCompile(markup.alternative)?.ok
    ) {
      return unchanged(code, false, {
        kind: 'ambiguous-repair',
        message: `The text before </think> (line ${positionOf(code, markup.start).line}) may be reasoning or part of the program, and both readings compile, so nothing was removed: send only the program. The program was not run.`,
      });
    }
    const markupRepair: Repair = { kind: 'strip-tool-markup', tags: markup.tags, reasoning: markup.reasoning };
    result = { ok: true, changed: true, code: inner.code, repairs: [markupRepair, ...inner.repairs] };
  } else result = healText(code, budget, maxRepairChars);
  if (!result.changed || !result.ok) return result;
  // The marker is looked for in the text sent (so its line is the sender's), but only where a repair was made.
  const leftOut = codeLeftOut(code);
  return leftOut ? unchanged(code, false, leftOut) : result;
}

/** Heals a program that may be fenced (repair class 1), then repairs its body. */
function healText(code: string, budget: CompileBudget, maxRepairChars: number): HealResult {
  if (code.trim() === '') {
    return unchanged(code, compileVerdict(code).ok, {
      kind: 'empty-program',
      message: 'The program is empty: there is nothing to run.',
    });
  }

  const fence = findFence(code);
  if (fence.kind === 'foreign') {
    return unchanged(code, false, {
      kind: 'foreign-fence',
      message: `The program is a \`\`\`${fence.language} block, not JavaScript: write a JavaScript program (call tools.bash for shell commands). The program was not run.`,
      line: fence.line,
      column: 1,
    });
  }
  if (fence.kind === 'ambiguous') {
    return unchanged(code, false, {
      kind: 'multiple-fences',
      message:
        'The program holds more than one fenced code block; send only the program, without Markdown fences. The program was not run.',
      line: fence.line,
      column: 1,
    });
  }
  if (fence.kind === 'code-after-fence') {
    return unchanged(code, false, {
      kind: 'code-after-fence',
      message:
        'The program is a Markdown fenced block with more code after its closing fence, which JavaScript reads as a tagged template that fails when run; send only the program, without Markdown fences. The program was not run.',
      line: fence.line,
      column: 1,
    });
  }
  if (fence.kind === 'fence' && fence.body.trim() === '') {
    return unchanged(code, false, {
      kind: 'empty-program',
      message: 'The program is only a Markdown fence with nothing inside; nothing was run.',
    });
  }
  if (fence.kind === 'fence') {
    const fenceRepair: Repair = {
      kind: 'strip-fence',
      language: fence.language,
      prose: fence.prose,
      closer: fence.closed,
    };
    const bodyVerdict = budget.compile(fence.body);
    const bodyMisread = bodyVerdict.ok && (entitiesReadAsCode(fence.body) || quotedProgram(fence.body) !== undefined);
    if (bodyVerdict.ok && !bodyMisread) return { ok: true, changed: true, code: fence.body, repairs: [fenceRepair] };
    if (!bodyVerdict.ok && bodyVerdict.undecided) return leftToHost(code, bodyVerdict);
    const inner = repairBody(
      fence.body,
      bodyVerdict.ok ? COMPILES_MISREAD : bodyVerdict.message,
      budget,
      maxRepairChars,
    );
    if (inner.ok) return { ok: true, changed: true, code: inner.code, repairs: [fenceRepair, ...inner.repairs] };
    return unchanged(code, false, mapDiagnostic(inner.diagnostic, code, fence.start));
  }

  const verdict = budget.compile(code);
  if (verdict.ok && (entitiesReadAsCode(code) || quotedProgram(code) !== undefined)) {
    const outcome = repairBody(code, COMPILES_MISREAD, budget, maxRepairChars);
    return outcome.ok
      ? { ok: true, changed: true, code: outcome.code, repairs: outcome.repairs }
      : unchanged(code, false, outcome.diagnostic);
  }
  if (verdict.ok) {
    const shell = diagnoseCompilingShell(code);
    return shell ? unchanged(code, false, shell) : unchanged(code, true);
  }
  if (verdict.undecided) return leftToHost(code, verdict);
  const outcome = repairBody(code, verdict.message, budget, maxRepairChars);
  return outcome.ok
    ? { ok: true, changed: true, code: outcome.code, repairs: outcome.repairs }
    : unchanged(code, false, outcome.diagnostic);
}
