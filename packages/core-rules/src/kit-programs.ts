/**
 * Programs inside tool arguments, for the repair kit: a tool that takes JavaScript (tool name -> the argument
 * holding it) gets its program checked and healed by the syntax healer. The kit never imports the healer: the
 * caller hands `healProgram` in with the program fields, so a bundle whose kit takes no programs leaves the
 * healer and Babel's parser out (nothing here imports them; syntax-healer and core-rules declare no side
 * effects, so bundlers drop what is not used).
 */
import type { HealResult } from '@dsh-tool-normalizer/syntax-healer';
import { receipt } from './catalogue.js';
import { preview } from './text.js';
import type { Receipt } from './types.js';

/** Program tools for a kit: which argument holds each tool's program, and the healer (syntax-healer's `healProgram`). */
export interface KitPrograms {
  /** Tool name -> the argument that holds its JavaScript program (checked as the body of a strict async function). */
  fields: Readonly<Record<string, string>>;
  /** `healProgram` from @dsh-tool-normalizer/syntax-healer. */
  healProgram: (code: string) => HealResult;
}

/** Longest program the kit checks or heals (the healer's own repair bound); longer ones are left for the host. */
export const MAX_KIT_PROGRAM_CHARS = 256 * 1024;

export type ProgramVerdict =
  | { ok: true }
  | { ok: false; violation: string; repaired?: { code: string; receipt: Receipt } };

/**
 * The healer's verdict on the program in `field`: accepted as sent, or the one repair that compiles the way
 * DeepSeek Harness compiles run_code (the body of a strict async function), or a refusal.
 */
export function checkProgram(
  healProgram: KitPrograms['healProgram'],
  args: Record<string, unknown>,
  field: string,
): ProgramVerdict {
  const program = Object.hasOwn(args, field) ? args[field] : undefined;
  if (typeof program !== 'string' || program.length > MAX_KIT_PROGRAM_CHARS) return { ok: true };
  const healed = healProgram(program);
  if (healed.ok && !healed.changed) return { ok: true };
  if (!healed.ok) {
    const why = healed.diagnostic?.message ?? 'it does not compile';
    return { ok: false, violation: `the program in "${field}" is not runnable: ${preview(why, 200)}` };
  }
  const kinds = healed.repairs.map((repair) => repair.kind).join(', ');
  return {
    ok: false,
    violation: `the program in "${field}" does not compile as sent`,
    repaired: {
      code: healed.code,
      receipt: receipt(
        'run_code.heal-syntax',
        `the program in "${field}" did not compile as sent (${kinds}); the healed program compiles`,
        preview(program, 200),
        preview(healed.code, 200),
      ),
    },
  };
}
