/**
 * Seam 3, the `tools/post-execute` waterfall: an error nobody healed keeps its original text and gains one
 * actionable hint; stack-frame lines that point into the package store are trimmed (they cost tokens and help
 * nobody). The host shows a `block` decision's feedback verbatim, so the plugin writes `Error: <message>` itself.
 * A decision another listener already changed is left alone.
 */
import { appendHint, classifyResult, hintFor, trimStackTrace } from '@dsh-tool-normalizer/core-rules';
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from './host.js';
import type { PluginState } from './ledger.js';

/** The `tools/post-execute` listener. */
export function createPostExecuteListener(state: PluginState) {
  return function onPostExecute(exec: ToolExecution, result: Readonly<ToolExecutionResult>, next: () => Promise<PostToolDecision>): Promise<PostToolDecision> {
    if (!result.isError) return next();
    return next().then((decision) => decorate(state, exec, result, decision));
  };
}

function decorate(state: PluginState, exec: ToolExecution, result: Readonly<ToolExecutionResult>, decision: PostToolDecision): PostToolDecision {
  if (decision.kind !== 'accept' || decision.content !== undefined || decision.value !== undefined) return decision;
  if (!result.isError || state.isOwnNestedCall(exec)) return decision;
  try {
    const message = result.error.message;
    const trimmed = state.config.trimStackTraces ? trimStackTrace(message) : message;
    const hint = state.config.errorHints ? findHint(state, exec, result) : undefined;
    if (hint === undefined && trimmed === message) return decision;
    const text = hint === undefined ? trimmed : appendHint(trimmed, hint);
    state.note(exec.token).originalCategory = classifyResult({ name: exec.name, arguments: exec.arguments }, result).category;
    // The model sees a top-level call's feedback verbatim, so it gets the host's `Error: ` itself. A Code-Mode
    // sub-call's error.message is what its program catches: the original text stays its byte-identical prefix.
    return {
      kind: 'block',
      feedback: [{ type: 'text', text: exec.parent === undefined ? `Error: ${text}` : text }],
      ...(decision.additionalContexts === undefined ? {} : { additionalContexts: decision.additionalContexts }),
    };
  } catch (error) {
    state.errors.report('tools/post-execute', error);
    return decision;
  }
}

function findHint(state: PluginState, exec: ToolExecution, result: Readonly<ToolExecutionResult>): string | undefined {
  const planned = state.executionNotes.get(exec.token)?.hint;
  if (planned !== undefined) return planned;
  const diagnostic = exec.parent === undefined ? state.streamNotes.get(String(exec.callId))?.diagnostic : undefined;
  const environment = state.environment.forExecution(exec);
  return hintFor({ name: exec.name, arguments: exec.arguments }, result, environment, diagnostic);
}
