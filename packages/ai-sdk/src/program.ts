/**
 * Programs inside tool arguments: a tool that takes JavaScript (configured by the user: tool name -> argument)
 * gets its program repaired by the syntax healer when, and only when, the healer's verdict is that the repaired
 * program compiles and the original did not (or was wrapped in a Markdown fence).
 */
import { healProgram } from '@dsh-tool-normalizer/syntax-healer';
import type { RepairReceipt } from './types.js';

const PREVIEW_CHARS = 200;

function preview(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/** The arguments with the program in `field` healed, or undefined when it is absent, valid or not safely repairable. */
export function healProgramArgument(
  args: Record<string, unknown>,
  field: string,
): { args: Record<string, unknown>; receipt: RepairReceipt } | undefined {
  const program = Object.hasOwn(args, field) ? args[field] : undefined;
  if (typeof program !== 'string') return undefined;
  const healed = healProgram(program);
  if (!healed.ok || !healed.changed) return undefined;
  return {
    args: { ...args, [field]: healed.code },
    receipt: {
      ruleId: 'program.heal-syntax',
      category: 'code-syntax',
      why: `the program in "${field}" did not compile: ${healed.repairs.map((repair) => repair.kind).join(', ')}`,
      before: preview(program),
      after: preview(healed.code),
    },
  };
}
