/**
 * run_code argument rules: a shell command sent as `command`/`cmd`/`script` becomes a program that
 * dispatches it through `tools.bash`; program syntax (fences, breakage) is repaired by the syntax healer;
 * inner `tools.x({...})` calls get fillable required fields; a missing or blank `description` (the host
 * rejects blank outside the schema) is derived from the program.
 */
import { compilesLikeHost, healProgram } from '@dsh-tool-normalizer/syntax-healer';
import { findTool, propertySchema } from '../tools.js';
import { describeCommand, describeProgram, preview } from '../text.js';
import { passesSchema } from '../validate.js';
import type { Diagnostic, Environment, Receipt, ToolSchema } from '../types.js';
import { isBlank } from './arguments.js';
import { applyInsertions, calledTools, mayNeedInnerFill, parseProgram, planInnerInsertions } from './inner-calls.js';

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

/** A command value that is really a program: it calls `tools` and compiles as one. */
function looksLikeProgram(value: string): boolean {
  return /\btools\s*(\.|\[)/.test(value) && compilesLikeHost(value).ok;
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
  if (typeof command !== 'string' || command.trim() === '') return { reason: `"${key}" is empty or not a string; left for the host to reject` };
  if (command.length > MAX_WRAPPED_CHARS) return { reason: `"${key}" is too large to wrap into a program; left for the host to reject` };
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) if (!present.includes(name as (typeof COMMAND_KEYS)[number])) rest[name] = value;

  if (looksLikeProgram(command)) {
    return {
      args: { ...rest, code: command },
      receipt: { ruleId: 'run_code.command-to-code', category: 'invalid-args', why: `run_code takes its program as "code"; it was sent as "${key}"`, before: preview({ [key]: command }), after: preview(command) },
    };
  }
  const bash = findTool(env, 'bash');
  if (!bash) return { reason: 'a shell command needs the bash tool, which this environment does not offer' };
  const description = describeCommand(command);
  const bashArgs: Record<string, unknown> = { command, description };
  for (const [name, value] of Object.entries(rest)) {
    if (name !== 'description' && name !== 'code' && propertySchema(bash, name)) {
      bashArgs[name] = value;
      delete rest[name];
    }
  }
  if (!passesSchema(bash.parameters, bashArgs)) return { reason: 'the command does not make a valid bash call' };
  const code = dispatchProgram('bash', bashArgs);
  return {
    args: { ...rest, code },
    description,
    receipt: { ruleId: 'run_code.command-to-code', category: 'invalid-args', why: `run_code takes a program as "code"; the shell command sent as "${key}" now runs through tools.bash`, before: preview({ [key]: command }), after: preview(code) },
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
  if (typeof code !== 'string') return { args, receipts: [], reason: '"code" is not a string; left for the host to reject' };

  const healed = healProgram(code);
  if (!healed.ok) {
    return {
      args,
      receipts: [],
      reason: 'the program does not compile and could not be repaired',
      diagnostic: healed.diagnostic ?? { kind: 'unrepairable', message: 'the program does not compile' },
    };
  }
  if (healed.changed) {
    receipts.push({
      ruleId: 'run_code.heal-syntax',
      category: 'code-syntax',
      why: `the program would not compile; repaired (${healed.repairs.map((repair) => repair.kind).join(', ') || 'syntax'})`,
      before: preview(code),
      after: preview(healed.code),
    });
    current = { ...current, code: healed.code };
  }

  let program: ReturnType<typeof parseProgram>;
  const healedCode = current.code as string;
  if (mayNeedInnerFill(healedCode, env)) {
    program = parseProgram(healedCode);
    const insertions = program ? planInnerInsertions(program, env) : [];
    if (insertions.length > 0) {
      const filled = applyInsertions(healedCode, insertions);
      if (compilesLikeHost(filled).ok) {
        receipts.push({
          ruleId: 'run_code.inner-fill-description',
          category: 'inner-invalid-args',
          why: preview(insertions.map((insertion) => `tools.${insertion.tool} (line ${insertion.line}) requires ${insertion.keys.join(', ')}`).join('; '), 300),
          before: preview(insertions.map((insertion) => `tools.${insertion.tool}({...})`).join(' ')),
          after: preview(insertions.map((insertion) => insertion.text.replace(/^[ ,]+|\s+$/g, '')).join(' ')),
        });
        current = { ...current, code: filled };
        program = undefined;
      }
    }
  }

  if (isBlank(current.description)) {
    const description = derivedDescription ?? describeProgram(calledToolsOf(program ?? parseProgram(current.code as string)));
    receipts.push({
      ruleId: 'run_code.fill-description',
      category: 'invalid-args',
      why: current.description === undefined || current.description === null ? 'run_code requires "description"; derived from the program' : 'the host rejects a blank description; derived one from the program',
      before: preview(current.description),
      after: preview(description),
    });
    current = { ...current, description };
  }

  if (receipts.length === 0) return { args, receipts: [], reason: 'valid run_code call' };
  if (!passesSchema(runCode.parameters, current) || isBlank(current.description)) {
    return { args, receipts: [], reason: 'the repaired call would still fail the run_code schema' };
  }
  return { args: current, receipts };
}

function calledToolsOf(program: ReturnType<typeof parseProgram>): string[] {
  return program ? calledTools(program) : [];
}
