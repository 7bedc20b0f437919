/** One place that builds a `RepairReport` from a kit answer and hands it to `onReport` without letting it throw. */
import type { KitAnswer } from '@dsh-tool-normalizer/core-rules';
import type { HealingOptions, RepairReport } from './types.js';

export function sendReport(
  options: HealingOptions,
  base: Pick<RepairReport, 'seam' | 'callId' | 'requestedTool' | 'before'> & { error?: string },
  answer: KitAnswer,
): void {
  if (!options.onReport) return;
  const report: RepairReport =
    answer.ok && answer.changed
      ? {
          ...base,
          tool: answer.name,
          category:
            answer.name !== base.requestedTool ? 'unknown-tool' : (answer.receipts[0]?.category ?? 'invalid-args'),
          repaired: true,
          ruleIds: answer.receipts.map((receipt) => receipt.ruleId),
          receipts: answer.receipts,
          changes: answer.receipts.map((receipt) => receipt.why),
          after: answer.args,
        }
      : {
          ...base,
          tool: base.requestedTool,
          category: base.error === 'AI_NoSuchToolError' ? 'unknown-tool' : 'invalid-args',
          repaired: false,
          ruleIds: [],
          receipts: [],
          changes: [],
          reason: answer.ok ? 'the call passes every check as sent' : answer.reason,
        };
  try {
    options.onReport(report);
  } catch {
    // A failing report callback must not change what the SDK does.
  }
}
