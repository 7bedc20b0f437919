/**
 * run_code argument rules: text sent as `command`/`cmd`/`script` becomes `code` when it is a program (it
 * compiles like the host compiles it and could not run as a shell command), or else a program that dispatches
 * it through `tools.bash`; program syntax (fences, breakage) is repaired by the syntax healer; inner
 * `tools.x({...})` calls get fillable required fields (missing or blank); a missing or blank `description`
 * (the host rejects blank outside the schema) comes from the program's opening comment, else from the tools
 * it calls.
 */
import { applyEdits, calledTools, compilesLikeHost, healProgram, parseProgram } from '../healer.js';
import { receipt } from '../catalogue.js';
import { fillableKeys, findTool, propertySchema } from '../tools.js';
import { describeCommand, describeFromComment, describeProgram, preview } from '../text.js';
import { passesSchema } from '../validate.js';
import type { Diagnostic, Environment, Receipt, ToolSchema } from '../types.js';
import { isBlank } from './arguments.js';
import { type InnerFill, mayNeedInnerFill, planInnerFills } from './inner-calls.js';

/** Longest shell command or program the engine wraps into a new program (bounded work; longer ones are left to the host). */
export const MAX_WRAPPED_CHARS = 256 * 1024;

/** Keys a shell command arrives under instead of `code`. */
const COMMAND_KEYS = ['command', 'cmd', 'script'] as const;

/** `return await tools["name"]({...});`: the one-call program used for wrapping and bridging. */
export function dispatchProgram(name: string, args: Record<string, unknown>): string {
  return `return await tools[${JSON.stringify(name)}](${JSON.stringify(args)});`;
}

export interface RunCodeOutcome {
  args: Record<string, unknown>;
  receipts: Receipt[];
  reason?: string;
  diagnostic?: Diagnostic;
}

/** `text` with quoted spans blanked, so shell-implausible syntax is looked for outside strings only. */
function withoutQuotedText(text: string): string {
  return text.replace(/"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|`(?:[^`\\]|\\.)*`/g, '""');
}

/**
 * True when `text` could not run as a shell command: it declares or returns like JavaScript (`const x`,
 * `return`, `await`), calls a function with `name(` (a shell syntax error, except a `name() {` definition or
 * `$(...)`), or has an arrow function or a TypeScript annotation.
 */
export function notShell(text: string): boolean {
  const bare = withoutQuotedText(text);
  if (/(^|[;{}\n])\s*(const|let|var)\s+[A-Za-z_$][\w$]*\s*(=|:|;|$)/m.test(bare)) return true;
  if (/(^|[;{}\n])\s*(return|await|throw)\b(?!\s*[=|&;]|$)/m.test(bare) && /\b(return|await|throw)\s+\S/.test(bare))
    return true;
  if (
    /(^|[;{}\n])\s*(function\s*\*?\s*[A-Za-z_$][\w$]*\s*\(|class\s+[A-Za-z_$][\w$]*\s*\{|interface\s+[A-Za-z_$][\w$]*\s*\{|import\s*\(|(if|for|while|switch)\s*\()/m.test(
      bare,
    )
  )
    return true;
  if (/=>/.test(bare)) return true;
  for (const match of bare.matchAll(/([A-Za-z_$][\w$]*)\(/g)) {
    const before = bare[(match.index ?? 0) - 1];
    const after = bare.slice((match.index ?? 0) + match[0].length);
    if (before === '$') continue;
    if (/^\s*\)\s*\{/.test(after)) continue; // a shell function definition `name() {`
    return true;
  }
  return false;
}

/** A command value that is really a program: it compiles like the host compiles it and could not run as a shell command. */
function looksLikeProgram(value: string): boolean {
  return notShell(value) && compilesLikeHost(value).ok;
}

function commandToCode(
  args: Record<string, unknown>,
  env: Environment,
): { args: Record<string, unknown>; receipt: Receipt; description?: string } | { reason: string } | undefined {
  const present = COMMAND_KEYS.filter((key) => Object.hasOwn(args, key));
  if (present.length === 0) return undefined;
  const distinct = new Set(present.map((key) => JSON.stringify(args[key])));
  if (distinct.size > 1) return { reason: `ambiguous: ${present.join(' and ')} carry different commands` };
  const key = present[0] as string;
  const command = args[key];
  if (typeof command !== 'string' || command.trim() === '')
    return { reason: `"${key}" is empty or not a string; left for the host to reject` };
  if (command.length > MAX_WRAPPED_CHARS)
    return { reason: `"${key}" is too large to wrap into a program; left for the host to reject` };
  const others = Object.keys(args).filter((name) => !present.includes(name as (typeof COMMAND_KEYS)[number]));

  if (looksLikeProgram(command)) {
    return {
      args: Object.fromEntries([...others.map((name) => [name, args[name]] as const), ['code', command]]),
      receipt: receipt(
        'run_code.command-to-code',
        `run_code takes its program as "code"; it was sent as "${key}"`,
        preview({ [key]: command }),
        preview(command),
      ),
    };
  }
  const bash = findTool(env, 'bash');
  if (!bash) return { reason: 'a shell command needs the bash tool, which this environment does not offer' };
  const description = describeCommand(command);
  const moved = others.filter(
    (name) => name !== 'description' && name !== 'code' && propertySchema(bash, name) !== undefined,
  );
  const bashArgs = Object.fromEntries([
    ['command', command],
    ['description', description],
    ...moved.map((name) => [name, args[name]] as const),
  ]);
  if (!passesSchema(bash.parameters, bashArgs)) return { reason: 'the command does not make a valid bash call' };
  const code = dispatchProgram('bash', bashArgs);
  const kept = others.filter((name) => !moved.includes(name));
  return {
    args: Object.fromEntries([...kept.map((name) => [name, args[name]] as const), ['code', code]]),
    description,
    receipt: receipt(
      'run_code.command-to-code',
      `run_code takes a program as "code"; the shell command sent as "${key}" now runs through tools.bash`,
      preview({ [key]: command }),
      preview(code),
    ),
  };
}

/** Applies the run_code rules. `args` comes back as the same object when nothing applies. */
export function normalizeRunCode(runCode: ToolSchema, args: Record<string, unknown>, env: Environment): RunCodeOutcome {
  let current = args;
  const receipts: Receipt[] = [];
  let derivedDescription: string | undefined;

  if (current.code === undefined) {
    const wrapped = commandToCode(current, env);
    if (!wrapped) return { args, receipts: [], reason: 'run_code call has no "code"; nothing to derive it from' };
    if ('reason' in wrapped) return { args, receipts: [], reason: wrapped.reason };
    current = wrapped.args;
    derivedDescription = wrapped.description;
    receipts.push(wrapped.receipt);
  }

  const code = current.code;
  if (typeof code !== 'string')
    return { args, receipts: [], reason: '"code" is not a string; left for the host to reject' };

  const healed = healProgram(code);
  // Past the healer's bounds nothing was judged: say so, and leave no diagnostic (a hint would claim a failure).
  if (!healed.ok && healed.diagnostic?.kind === 'too-large-to-check')
    return { args, receipts: [], reason: healed.diagnostic.message };
  if (!healed.ok) {
    return {
      args,
      receipts: [],
      reason: 'the program does not compile and could not be repaired',
      diagnostic: healed.diagnostic ?? { kind: 'unrepairable', message: 'the program does not compile' },
    };
  }
  if (healed.changed) {
    receipts.push(
      receipt(
        'run_code.heal-syntax',
        `the program would not compile; repaired (${healed.repairs.map((repair) => repair.kind).join(', ') || 'syntax'})`,
        preview(code),
        preview(healed.code),
      ),
    );
    current = { ...current, code: healed.code };
  }

  let program: ReturnType<typeof parseProgram>;
  const healedCode = current.code as string;
  if (mayNeedInnerFill(healedCode, env)) {
    program = parseProgram(healedCode);
    const fills = program ? planInnerFills(program, env) : [];
    const filled =
      fills.length > 0
        ? applyEdits(
            healedCode,
            fills.map((fill) => fill.edit),
          )
        : undefined;
    if (filled !== undefined && compilesLikeHost(filled).ok) {
      for (const kind of ['rename', 'fill'] as const) {
        const group = fills.filter((fill) => fill.kind === kind);
        if (group.length > 0) receipts.push(innerReceipt(kind, group));
      }
      current = { ...current, code: filled };
      program = undefined;
    }
  }

  // Only a schema that requires the description gets one: builds whose run_code is `{code}` alone run such calls
  // (31 successful calls in the real logs would have been rewritten: a changed valid call).
  if (isBlank(current.description) && fillableKeys(runCode).includes('description')) {
    const finalCode = current.code as string;
    const description =
      derivedDescription ??
      describeFromComment(finalCode) ??
      describeProgram(calledToolsOf(program ?? parseProgram(finalCode)));
    receipts.push(
      receipt(
        'run_code.fill-description',
        current.description === undefined || current.description === null
          ? 'run_code requires "description"; derived from the program'
          : 'the host rejects a blank description; derived one from the program',
        preview(current.description),
        preview(description),
      ),
    );
    current = { ...current, description };
  }

  if (receipts.length === 0) return { args, receipts: [], reason: 'valid run_code call' };
  if (
    !passesSchema(runCode.parameters, current) ||
    (fillableKeys(runCode).includes('description') && isBlank(current.description))
  ) {
    return { args, receipts: [], reason: 'the repaired call would still fail the run_code schema' };
  }
  return { args: current, receipts };
}

/** One receipt per kind of inner-call edit (renamed alias keys; filled descriptions). */
function innerReceipt(kind: InnerFill['kind'], fills: readonly InnerFill[]): Receipt {
  const what = kind === 'rename' ? 'sends an alias for' : 'requires';
  return receipt(
    kind === 'rename' ? 'run_code.inner-rename-alias' : 'run_code.inner-fill-description',
    preview(
      fills.map((fill) => `tools.${fill.tool} (line ${fill.line}) ${what} ${fill.keys.join(', ')}`).join('; '),
      300,
    ),
    preview(fills.map((fill) => `tools.${fill.tool}({...})`).join(' ')),
    preview(fills.map((fill) => fill.edit.text.replace(/^[ ,]+|\s+$/g, '')).join(' ')),
  );
}

function calledToolsOf(program: ReturnType<typeof parseProgram>): string[] {
  return program ? calledTools(program) : [];
}
