/**
 * `healProgram`: turn a model-written `run_code` program the host would reject into one it accepts, or
 * say precisely why not, following the engine's rules:
 * - valid input is returned as the same string (one host-equivalent compile, nothing else);
 * - a repair is kept only if the host compile accepts it, and only if it is the unique passing repair;
 * - content lost to a cut is never invented: the model is told where the program was cut;
 * - every call is bounded by a cap on compile attempts and a size limit for repairs.
 */
import { findFence } from './fences.js';
import { compileVerdict, type CompileVerdict } from './host-compile.js';
import { diagnoseCompilingShell, diagnoseFailure } from './diagnose.js';
import {
  repairRawNewlines,
  repairTemplateContent,
  repairTripleQuotes,
  repairTruncation,
  type RepairOutcome,
} from './repairs.js';
import { DEFAULT_MAX_COMPILED_CHARS, MAX_PROGRAM_CHARS } from './limits.js';
import { withoutStackTraces } from './quiet-errors.js';
import type { Diagnostic, HealOptions, HealResult, Repair } from './types.js';

/** Default cap on host-equivalent compiles per call (the worst case uses 7: original, fence body, 4 classes, 1 combination). */
export const DEFAULT_MAX_COMPILE_ATTEMPTS = 8;
/** Default size above which a failing program is diagnosed but not repaired (64 KiB of text). */
export const DEFAULT_MAX_REPAIR_CHARS = 64 * 1024;

/** The repair classes 2-5 in the order they are tried. */
const REPAIR_CLASSES: readonly ((code: string) => RepairOutcome)[] = [
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

function shiftLines(diagnostic: Diagnostic, lineOffset: number): Diagnostic {
  return diagnostic.line === undefined || lineOffset === 0
    ? diagnostic
    : { ...diagnostic, line: diagnostic.line + lineOffset };
}

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
    if (budget.tryCompile(outcome.code)?.ok) passing.push({ code: outcome.code, repair: outcome.repair });
  }
  const distinct = new Set(passing.map((candidate) => candidate.code));
  if (distinct.size === 1) return { ok: true, code: passing[0]!.code, repairs: [passing[0]!.repair] };
  if (distinct.size > 1) {
    return {
      ok: false,
      diagnostic: {
        kind: 'ambiguous-repair',
        message: `Several different repairs (${passing.map((candidate) => candidate.repair.kind).join(', ')}) would each make the program compile, so none was applied; the program was not run.`,
      },
    };
  }
  // No single class suffices: apply the classes one after another, each on the previous one's output (e.g. a
  // triple quote in a truncated program). A class that refuses on the partly repaired text stops the chain,
  // and its refusal is the most precise diagnostic (a cut is judged after the other repairs).
  let chainRefusal: Diagnostic | undefined;
  if (applied.length >= 1 && !budget.exhausted) {
    let combined = body;
    const repairs: Repair[] = [];
    for (const repairClass of REPAIR_CLASSES) {
      const outcome = (combined === body ? onBody.get(repairClass) : undefined) ?? repairClass(combined);
      if (outcome.kind === 'refused') {
        chainRefusal = outcome.diagnostic;
        break;
      }
      if (outcome.kind !== 'candidate') continue;
      combined = outcome.code;
      repairs.push(outcome.repair);
    }
    if (!chainRefusal && repairs.length >= 2 && budget.tryCompile(combined)?.ok)
      return { ok: true, code: combined, repairs };
  }
  const truncated = refusals.find((diagnostic) => diagnostic.kind === 'truncated');
  return { ok: false, diagnostic: chainRefusal ?? truncated ?? refusals[0] ?? diagnoseFailure(body, hostMessage) };
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

function healWithin(code: string, budget: CompileBudget, maxRepairChars: number): HealResult {
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
    if (bodyVerdict.ok) return { ok: true, changed: true, code: fence.body, repairs: [fenceRepair] };
    if (bodyVerdict.undecided) return leftToHost(code, bodyVerdict);
    const inner = repairBody(fence.body, bodyVerdict.message, budget, maxRepairChars);
    if (inner.ok) return { ok: true, changed: true, code: inner.code, repairs: [fenceRepair, ...inner.repairs] };
    return unchanged(code, false, shiftLines(inner.diagnostic, fence.lineOffset));
  }

  const verdict = budget.compile(code);
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
