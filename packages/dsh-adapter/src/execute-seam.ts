/**
 * Seam 2, the `tools/execute` waterfall: after the body ran, an error the engine knows how to recover
 * (FS_NOT_OBSERVED on an edit, a view_range past EOF, an inner Code-Mode call missing a required field, ...) is
 * recovered by NESTED dispatch through `ctx.tools.execute` with the caller's agent, signal and `parent: exec.token`,
 * so the whole host pipeline (approval, guards, observation policy) applies to every step. `exec` is never mutated.
 *
 * A refused `write` (FS_NOT_OBSERVED) is never retried: the file is read through the host and shown with the error
 * and a hint. With `errorHints` off that read is skipped, so the model gets exactly the host's result.
 *
 * An error that stays an error is explained here too (host text + one hint, see explain-error.ts): DSH re-wraps an
 * error result returned from this waterfall as it is, so the host's structured error (`info.code`, `info.name`)
 * survives, which a post-execute `block` would drop. A recovered top-level call is answered with the retry's value
 * only, so the host renders it for THIS call and computes its presentation metadata (a nested result has none, and
 * the UI would show a generic card). The host renders whatever success this seam returns with the call's ORIGINAL
 * arguments, so a retry's value is first tried with the tool's own renderer; one that cannot be rendered for the
 * original arguments (read({path}) retried as read({file_path})) falls back to the host's own error. A successful
 * call costs one promise hop: nothing else is read or allocated.
 */
import {
  classifyResult,
  planRecovery,
  repairedRetry,
  showsObservedContent,
  TOGGLE_KEYS,
} from '@dsh-tool-normalizer/core-rules';
import type { Classification, Environment, NormalizeResult, RecoveryPlan } from '@dsh-tool-normalizer/core-rules';
import { boundShownText, explainedMessage, textOf, withMessage, type Explanation } from './explain-error.js';
import { ABORT_CODES, type ToolDispatchExecution, type ToolExecutionInput, type ToolExecutionResult } from './host.js';
import type { PluginState } from './plugin-state.js';

/** The `tools/execute` listener. */
export function createExecuteListener(state: PluginState) {
  return function onToolsExecute(
    exec: ToolDispatchExecution,
    next: () => Promise<ToolExecutionResult>,
  ): Promise<ToolExecutionResult> {
    if (exec.parent !== undefined && state.isOwnNestedCall(exec)) return next();
    return next().then((result) => (result.isError ? afterError(state, exec, result) : result));
  };
}

function wasCancelled(exec: ToolDispatchExecution, result: ToolExecutionResult): boolean {
  const code = result.error?.info?.code;
  return exec.signal.aborted || (code !== undefined && ABORT_CODES.has(code));
}

async function afterError(
  state: PluginState,
  exec: ToolDispatchExecution,
  result: ToolExecutionResult,
): Promise<ToolExecutionResult> {
  const { result: final, explanation } = await recover(state, exec, result);
  if (!final.isError || wasCancelled(exec, final)) return final;
  try {
    const explained = explainedMessage(state, exec, final, explanation);
    state.markExplained(exec.token, explained?.repeat, explained?.classification);
    if (!explained || explained.message === final.error.message) return final;
    return withMessage(final, explained.message);
  } catch (error) {
    state.errors.report('tools/execute', error);
    return final;
  }
}

/**
 * The result the model should get after the recovery plan (if any) ran, and what the plan adds to an error. The
 * error is classified here once; the plan and, when the original error stays the answer, its explanation read that
 * classification (a retry's own error is another result, classified when it is explained). An INVALID_ARGS call is
 * normalized here once too (`repairedRetry`): the plan's repaired retry and the hint's example read that answer,
 * the hint only while every switch is on (its example is always made with the default switches).
 */
async function recover(
  state: PluginState,
  exec: ToolDispatchExecution,
  result: ToolExecutionResult,
): Promise<{ result: ToolExecutionResult; explanation?: Explanation }> {
  let plan: RecoveryPlan | undefined;
  let environment: Environment | undefined;
  let classification: Classification | undefined;
  let normalized: NormalizeResult | undefined;
  try {
    // The host turns any success for a name it cannot resolve back into UNKNOWN_TOOL (normalizeDispatchResult),
    // so a recovery there would run side effects the model never sees. Aliases are renamed on llm/stream instead.
    if (wasCancelled(exec, result) || state.ctx.tools.get(exec.name, exec.agent) === undefined) return { result };
    environment = state.environment.forExecution(exec);
    const call = { name: exec.name, arguments: exec.arguments };
    classification = classifyResult(call, result);
    // The one category whose plan (a repaired retry) and hint (a ready-to-paste example) both ask for the repair.
    if (classification.category === 'invalid-args') normalized = repairedRetry(call, environment, state.toggles);
    plan = planRecovery(call, result, environment, {
      toggles: state.toggles,
      aborted: false,
      classification,
      ...(normalized === undefined ? {} : { normalized }),
    });
  } catch (error) {
    state.errors.report('tools/execute', error);
    return classification === undefined ? { result } : { result, explanation: { classification } };
  }
  // The hint's example is made with the default switches: the plan's answer is its answer only while all are on.
  const forHint = normalized !== undefined && allSwitchesOn(state) ? { normalized } : {};
  /** The original error stays the answer: explained with what is known about it. */
  const original: Explanation = { environment, classification, ...forHint };
  if (!plan) return { result, explanation: original };
  // A refused write is read only to show the model the file. With errorHints off nothing may be added to the host's
  // text, and a silent read would let a blind resend overwrite content the model never saw: no read at all.
  if (showsObservedContent(plan) && !state.config.errorHints) return { result, explanation: original };
  const recovery = state.beginRecovery(exec.token, plan);
  // A retry's error is explained with the same environment (the call and the agent are the same).
  const planHint: Explanation = plan.hint === undefined ? original : { ...original, hint: plan.hint };
  try {
    const last = await runSteps(state, exec, plan, recovery);
    if (plan.resultFrom === 'original') {
      // A refused write: the file was read for real; the model sees it with the original error.
      if (!showsObservedContent(plan)) return { result, explanation: planHint };
      if (last !== undefined && !last.isError && recovery.steps === plan.steps.length) {
        return { result, explanation: { ...planHint, shown: boundShownText(textOf(last.content)) } };
      }
      // The file could not be read: its hint ("you have now seen the file") would be false.
      return { result, explanation: original };
    }
    if (last === undefined) return { result, explanation: original };
    if (!last.isError) {
      // The host renders a waterfall's success with THIS call's arguments (`normalizeDispatchResult`): a retry
      // with other arguments (read({path}) retried as read({file_path})) can yield a value the tool cannot render
      // for the original ones. Then the model gets the host's own error, not `output.render failed`.
      if (!rendersForCall(state, exec, last)) return { result, explanation: original };
      recovery.recovered = true;
      return { result: presentable(exec, plan, last) };
    }
    // A retry that still failed is the call's real outcome now (e.g. the file was read, then the anchor was
    // missing): answer with it rather than with the error the plugin already dealt with. A failed observe
    // step keeps the original error.
    if (plan.steps[recovery.steps - 1]?.role === 'retry')
      return { result: last, explanation: { environment, ...forHint } };
  } catch (error) {
    state.errors.report('tools/execute', error);
  }
  return { result, explanation: original };
}

/** True while every rule switch is on (the live options may turn one off at any time). */
function allSwitchesOn(state: PluginState): boolean {
  return TOGGLE_KEYS.every((key) => state.toggles[key] !== false);
}

/**
 * A recovered top-level call whose retry was the very same call (same tool, same arguments) is answered with the
 * retry's value alone: the host then validates, renders and projects it for this execution, presentation metadata
 * included. Any other retry (other arguments, a sub-call) keeps the nested result as it is.
 */
function presentable(exec: ToolDispatchExecution, plan: RecoveryPlan, last: ToolExecutionResult): ToolExecutionResult {
  if (exec.parent !== undefined || last.isError) return last;
  const retry = plan.steps.at(-1);
  if (retry?.role !== 'retry' || retry.name !== exec.name || !sameJson(retry.arguments, exec.arguments)) return last;
  return {
    isError: false,
    value: last.value,
    content: last.content,
    ...(last.additionalContexts === undefined ? {} : { additionalContexts: last.additionalContexts }),
  } as ToolExecutionResult;
}

/** The slice of a DSH tool definition the render check reads (`ToolDefinition.output`). */
interface RenderingTool {
  output?: {
    render?: (args: unknown, value: unknown) => unknown;
    presentationMeta?: (args: unknown, value: unknown) => unknown;
  };
}

/**
 * Would the host be able to render `last.value` for this call? It calls `output.render(exec.arguments, value)` (and
 * `presentationMeta` for a top-level call) on any success a `tools/execute` listener returns; both are pure
 * projections, so they are tried here first. A tool without a render step, or a value the host made for these very
 * arguments, passes.
 */
function rendersForCall(state: PluginState, exec: ToolDispatchExecution, last: ToolExecutionResult): boolean {
  if (last.isError) return true;
  try {
    const tool = state.ctx.tools.get(exec.name, exec.agent) as RenderingTool | undefined;
    const output = tool?.output;
    if (typeof output?.render !== 'function') return true;
    output.render(exec.arguments, last.value);
    if (exec.parent === undefined && typeof output.presentationMeta === 'function')
      output.presentationMeta(exec.arguments, last.value);
    return true;
  } catch {
    return false;
  }
}

function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  try {
    return JSON.stringify(left) === JSON.stringify(right);
  } catch {
    return false;
  }
}

/** Runs the plan's steps in order; stops at the first failing step (or a cancellation) and returns its result. */
async function runSteps(
  state: PluginState,
  exec: ToolDispatchExecution,
  plan: RecoveryPlan,
  progress: { steps: number },
): Promise<ToolExecutionResult | undefined> {
  state.beginHealing(exec.token, String(exec.callId));
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
    state.endHealing(exec.token);
  }
}
