/**
 * Seam 2, the `tools/execute` waterfall: after the body ran, an error the engine knows how to recover
 * (FS_NOT_OBSERVED, a view_range past EOF, an inner Code-Mode call missing a required field, ...) is recovered by
 * NESTED dispatch through `ctx.tools.execute` with the caller's agent, signal and `parent: exec.token`, so the
 * whole host pipeline (approval, guards, observation policy) applies to every step. `exec` is never mutated.
 * A successful call costs one promise hop: nothing else is read or allocated on that path.
 */
import { planRecovery } from '@dsh-tool-normalizer/core-rules';
import type { RecoveryPlan } from '@dsh-tool-normalizer/core-rules';
import { ABORT_CODES, type ToolDispatchExecution, type ToolExecutionInput, type ToolExecutionResult } from './host.js';
import type { PluginState } from './ledger.js';

/** The `tools/execute` listener. */
export function createExecuteListener(state: PluginState) {
  return function onToolsExecute(exec: ToolDispatchExecution, next: () => Promise<ToolExecutionResult>): Promise<ToolExecutionResult> {
    if (exec.parent !== undefined && state.isOwnNestedCall(exec)) return next();
    return next().then((result) => (result.isError ? recover(state, exec, result) : result));
  };
}

function wasCancelled(exec: ToolDispatchExecution, result: ToolExecutionResult): boolean {
  const code = result.error?.info?.code;
  return exec.signal.aborted || (code !== undefined && ABORT_CODES.has(code));
}

async function recover(state: PluginState, exec: ToolDispatchExecution, result: ToolExecutionResult): Promise<ToolExecutionResult> {
  let plan: RecoveryPlan | undefined;
  try {
    // The host turns any success for a name it cannot resolve back into UNKNOWN_TOOL (normalizeDispatchResult),
    // so a recovery there would run side effects the model never sees. Aliases are renamed on llm/stream instead.
    if (state.ctx.tools.get(exec.name, exec.agent) === undefined) return result;
    const environment = state.environment.forExecution(exec);
    plan = planRecovery({ name: exec.name, arguments: exec.arguments }, result, environment, {
      toggles: state.toggles,
      aborted: wasCancelled(exec, result),
    });
  } catch (error) {
    state.errors.report('tools/execute', error);
    return result;
  }
  if (!plan) return result;
  const note = state.note(exec.token);
  note.recovery = { ruleId: plan.ruleId, category: plan.category, recovered: false, steps: 0 };
  if (plan.hint !== undefined) note.hint = plan.hint;
  try {
    const last = await runSteps(state, exec, plan, note.recovery);
    if (plan.resultFrom !== 'last-step' || last === undefined) return result;
    if (!last.isError) {
      note.recovery.recovered = true;
      return last;
    }
    // A retry that still failed is the call's real outcome now (e.g. the file was read, then the anchor was
    // missing): answer with it rather than with the error the plugin already dealt with. A failed observe
    // step keeps the original error.
    if (plan.steps[note.recovery.steps - 1]?.role === 'retry') return last;
  } catch (error) {
    state.errors.report('tools/execute', error);
  }
  return result;
}

/** Runs the plan's steps in order; stops at the first failing step (or a cancellation) and returns its result. */
async function runSteps(
  state: PluginState,
  exec: ToolDispatchExecution,
  plan: RecoveryPlan,
  progress: { steps: number },
): Promise<ToolExecutionResult | undefined> {
  state.healingParents.set(exec.token, String(exec.callId));
  try {
    let last: ToolExecutionResult | undefined;
    for (const [index, step] of plan.steps.entries()) {
      if (exec.signal.aborted) return undefined;
      const input: ToolExecutionInput = {
        callId: `${exec.callId}:heal:${index + 1}` as ToolExecutionInput['callId'],
        rootCallId: exec.rootCallId,
        name: step.name,
        arguments: step.arguments,
        ...(exec.agent === undefined ? {} : { agent: exec.agent }),
        parent: exec.token,
        signal: exec.signal,
      };
      last = await state.ctx.tools.execute(input);
      progress.steps = index + 1;
      if (last.isError) return last;
    }
    return last;
  } finally {
    state.healingParents.delete(exec.token);
  }
}
