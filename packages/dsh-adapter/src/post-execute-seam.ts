/**
 * Seam 3, the `tools/post-execute` waterfall: the fallback for errors that never passed through `tools/execute`
 * (a `tools/pre-execute` denial, a call cancelled before dispatch). Errors that did pass through it were already
 * explained there, where the host's structured error survives; this seam leaves them alone. A `block` decision
 * rebuilds the error from its feedback text and keeps nothing else, so it is used only for an error that has
 * nothing else to lose (no `info`, no `meta`, no extra contexts). The host shows a `block` decision's feedback
 * verbatim, so the plugin writes `Error: <message>` itself for a top-level call. A decision another listener
 * already changed is left alone.
 */
import { ERROR_TEXT_PREFIX } from '@dsh-tool-normalizer/dsh-profile';
import { explainedMessage } from './explain-error.js';
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from './host.js';
import type { PluginState } from './plugin-state.js';

/** The `tools/post-execute` listener. */
export function createPostExecuteListener(state: PluginState) {
  return function onPostExecute(
    exec: ToolExecution,
    result: Readonly<ToolExecutionResult>,
    next: () => Promise<PostToolDecision>,
  ): Promise<PostToolDecision> {
    if (!result.isError) return next();
    return next().then((decision) => decorate(state, exec, result, decision));
  };
}

function decorate(
  state: PluginState,
  exec: ToolExecution,
  result: Readonly<ToolExecutionResult>,
  decision: PostToolDecision,
): PostToolDecision {
  if (decision.kind !== 'accept' || decision.content !== undefined || decision.value !== undefined) return decision;
  if (!result.isError || state.isOwnNestedCall(exec) || state.wasExplained(exec.token)) return decision;
  // A block would drop these: leave such an error as the host wrote it.
  if (result.error.info !== undefined || result.meta !== undefined || result.additionalContexts !== undefined)
    return decision;
  try {
    const explained = explainedMessage(state, exec, result);
    if (explained) state.noteClassification(exec.token, explained.classification);
    if (!explained || explained.message === result.error.message) return decision;
    // A Code-Mode sub-call's error.message is what its program catches: the original stays its byte-identical prefix.
    return {
      kind: 'block',
      feedback: [
        {
          type: 'text',
          text: exec.parent === undefined ? `${ERROR_TEXT_PREFIX}${explained.message}` : explained.message,
        },
      ],
      ...(decision.additionalContexts === undefined ? {} : { additionalContexts: decision.additionalContexts }),
    };
  } catch (error) {
    state.errors.report('tools/post-execute', error);
    return decision;
  }
}
