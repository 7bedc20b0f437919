/**
 * Seam 4, the `tools/result` emit: the final outcome of a call is joined to what the plugin did for it and
 * recorded. A call counts as healed only when the plugin changed it or recovered it; it is a healed SUCCESS only
 * when the model then saw a success. Tokens saved = the session's measured request pressure
 * (`ctx.tokenMeter.measure(session).totalTokens`) times the model round-trips avoided (one per healed call);
 * 0 without a meter. Only model-visible calls are recorded: what the plugin did for a Code-Mode sub-call is
 * folded into its run_code call, and the plugin's own nested calls are never recorded.
 */
import { classifyResult } from '@dsh-tool-normalizer/core-rules';
import { REPEAT_RULE_ID, type TelemetryEventInput } from '@dsh-tool-normalizer/telemetry-store';
import { agentModel, type Agent, type TokenMeterLike, type ToolExecution, type ToolExecutionResult } from './host.js';
import type { ExecutionNote, InnerHeals, PluginState, StreamNote } from './plugin-state.js';

/** Round-trips a healed call saves: the model does not have to read the error and send the call again. */
export const ROUND_TRIPS_AVOIDED_PER_HEAL = 1;

/** The `tools/result` listener (observe-only: it never throws into the host). */
export function createResultListener(state: PluginState) {
  return function onToolResult(exec: Readonly<ToolExecution>, result: Readonly<ToolExecutionResult>): undefined {
    try {
      record(state, exec, result);
    } catch (error) {
      state.errors.report('tools/result', error);
    }
    return undefined;
  };
}

const NO_RULES: string[] = [];

/** The catalogue rule a caught repeat is listed under (the store counts "repeats caught" by the event's `repeat`). */
export { REPEAT_RULE_ID };

function record(state: PluginState, exec: Readonly<ToolExecution>, result: Readonly<ToolExecutionResult>): void {
  if (exec.parent !== undefined) {
    if (!state.isOwnNestedCall(exec)) foldInnerHeal(state, exec);
    return;
  }
  const execution = state.takeExecutionNote(exec.token);
  const stream = state.takeStreamNote(String(exec.callId));
  const inner = state.takeInnerHeals(String(exec.callId));
  const store = state.telemetry;
  if (!store) return;
  // A sub-call recovery that did not recover healed nothing: if the program still succeeded, it would have anyway.
  const innerAttempt = inner !== undefined && (inner.recovered || result.isError);
  const healed =
    (stream !== undefined && stream.receipts.length > 0) || execution?.recovery !== undefined || innerAttempt;
  if (!healed && !result.isError && stream === undefined && execution === undefined && inner === undefined) {
    // The common case, kept allocation-light: a call nobody touched that worked.
    const model = agentModel(exec.agent);
    store.record({
      callId: String(exec.callId),
      tool: exec.name,
      category: 'ok',
      outcome: 'passthrough',
      ruleIds: NO_RULES,
      tokensSaved: 0,
      ...(model === undefined ? {} : { model }),
    });
    return;
  }
  store.record(buildEvent(state, exec, result, stream, execution, inner, healed));
}

/**
 * A Code-Mode sub-call the plugin recovered is not a call the model made: what was done is folded into the
 * run_code call the model sees (same root call id), so each model-visible call is counted once.
 */
function foldInnerHeal(state: PluginState, exec: Readonly<ToolExecution>): void {
  const recovery = state.takeExecutionNote(exec.token)?.recovery;
  if (!recovery) return;
  state.foldInnerHeal(String(exec.rootCallId), { name: exec.name, callId: String(exec.callId) }, recovery);
}

function buildEvent(
  state: PluginState,
  exec: Readonly<ToolExecution>,
  result: Readonly<ToolExecutionResult>,
  stream: StreamNote | undefined,
  execution: ExecutionNote | undefined,
  inner: InnerHeals | undefined,
  healed: boolean,
): TelemetryEventInput {
  const call = { name: exec.name, arguments: exec.arguments };
  const ruleIds: string[] = [];
  const changes: string[] = [];
  let category: string | undefined;
  for (const receipt of stream?.receipts ?? []) {
    ruleIds.push(receipt.ruleId);
    changes.push(receipt.why);
    category ??= receipt.category;
  }
  if (inner) {
    ruleIds.push(...inner.ruleIds);
    changes.push(...inner.changes);
    category ??= inner.category;
  }
  if (execution?.recovery) {
    ruleIds.push(execution.recovery.ruleId);
    changes.push(`recovery ${execution.recovery.ruleId}: ${execution.recovery.steps} nested call(s)`);
    category ??= execution.recovery.category;
  }
  if (execution?.repeat !== undefined) {
    // A repeat caught: the same tool, arguments and error code failed before in this session.
    ruleIds.push(REPEAT_RULE_ID);
    changes.push(`repeat: identical failure #${execution.repeat} in this session`);
  }
  // The seam that explained the error classified it once; a result the host changed since (another code, or no
  // longer an error) is classified as it is now.
  const noted = execution?.classification;
  const fresh = noted !== undefined && result.isError && noted.code === result.error.info?.code ? noted : undefined;
  const finalCategory = category ?? (fresh ?? classifyResult(call, result)).category;
  const success = !result.isError;
  const outcome: TelemetryEventInput['outcome'] = healed
    ? success
      ? 'healed-success'
      : 'healed-failed'
    : success
      ? 'passthrough'
      : 'passthrough-failed';
  const model = agentModel(exec.agent);
  // A recovered call the stream seam did not rewrite: its before/after are the call and the retry that answered it.
  const retried = execution?.recovery?.recovered ? execution.recovery.retried : undefined;
  const before = stream?.before ?? (retried === undefined ? undefined : argumentsText(exec.arguments));
  const after = stream?.after ?? (retried === undefined ? undefined : argumentsText(retried));
  return {
    callId: String(exec.callId),
    tool: stream?.modelTool ?? exec.name,
    category: finalCategory,
    outcome,
    ruleIds,
    ...(changes.length > 0 ? { changes } : {}),
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
    ...(result.isError ? { error: result.error.message } : {}),
    tokensSaved: outcome === 'healed-success' ? measuredPressure(state, exec.agent) * ROUND_TRIPS_AVOIDED_PER_HEAL : 0,
    ...(model === undefined ? {} : { model }),
    ...(execution?.repeat !== undefined ? { repeat: execution.repeat } : {}),
  };
}

/** Arguments as the JSON the model sent (the store redacts and cuts it); undefined when they do not serialise. */
function argumentsText(args: unknown): string | undefined {
  try {
    return JSON.stringify(args);
  } catch {
    return undefined;
  }
}

/** The session's current request pressure in tokens, or 0 when no meter (or no session) is there to measure. */
function measuredPressure(state: PluginState, agent: Agent | undefined): number {
  if (!agent) return 0;
  const meter = state.ctx.get('tokenMeter') as TokenMeterLike | undefined;
  if (!meter) return 0;
  try {
    const total = meter.measure(agent.session).totalTokens;
    return Number.isFinite(total) && total > 0 ? total : 0;
  } catch (error) {
    state.errors.report('tokenMeter.measure', error);
    return 0;
  }
}
