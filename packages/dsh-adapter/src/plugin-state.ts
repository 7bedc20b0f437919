/**
 * `PluginState`: what the plugin remembers about calls in flight, so the final outcome can be joined to what was
 * done, and what it remembers per session (identical failures, for loop hints). Repairs made on the stream are
 * keyed by the model's call id (before the call has an execution); notes made while executing are keyed by the
 * execution token. Every table is bounded and every per-call entry is taken exactly once, by `tools/result`. The
 * seams go through the intent methods below rather than the tables.
 */
import {
  type CategoryId,
  type Classification,
  type Diagnostic,
  type Receipt,
  type RecoveryPlan,
  type RuleId,
  type RuleToggles,
  TOGGLE_KEYS,
} from '@dsh-tool-normalizer/core-rules';
import type { TelemetryStore } from '@dsh-tool-normalizer/telemetry-store';
import { BoundedMap } from './bounded-map.js';
import type { ToolNormalizerConfig } from './config.js';
import type { EnvironmentReader } from './environment.js';
import type { Context, ToolExecution, ToolExecutionToken } from './host.js';
import type { PluginErrors } from './plugin-errors.js';

/** A tool-call block repaired on `llm/stream`, or left alone with a diagnostic for the hint. */
export interface StreamNote {
  /** The tool the model named. */
  modelTool: string;
  /** The tool that runs (differs when a Code-Mode direct call was bridged into run_code). */
  tool: string;
  receipts: Receipt[];
  /** The raw argument text the model sent (telemetry redacts and bounds it). */
  before?: string;
  /** The argument text that runs. */
  after?: string;
  /** Why an unrepairable program failed, for the hint. */
  diagnostic?: Diagnostic;
}

/** What happened while executing one call. */
export interface ExecutionNote {
  /** A recovery plan ran (its rule and category), and whether its result is what the model sees. */
  recovery?: {
    ruleId: RuleId;
    category: CategoryId;
    recovered: boolean;
    steps: number;
    /** The arguments of the plan's retry step (absent when the plan only observes): the event's "after". */
    retried?: Record<string, unknown>;
  };
  /** The error the model sees was explained (hint, trimmed frames, shown file) by the execute seam. */
  explained?: boolean;
  /** This call's failure was the Nth identical one in its session (N >= 2). */
  repeat?: number;
  /**
   * How the error the model was told about was classified, once, by the seam that explained it (recovery plan,
   * fingerprint, hints and the recorded category all read this one).
   */
  classification?: Classification;
}

/** What the plugin did inside a Code-Mode program, folded into the model-visible run_code call (by root call id). */
export interface InnerHeals {
  ruleIds: RuleId[];
  changes: string[];
  category: CategoryId;
  /** At least one sub-call recovery produced the success its program saw. */
  recovered: boolean;
}

const STREAM_NOTES = 1024;
const EXECUTION_NOTES = 1024;
const HEALING_PARENTS = 1024;
/** Sessions whose identical failures are counted, and distinct failures remembered per session. */
const SESSIONS_COUNTED = 256;
const FAILURES_PER_SESSION = 128;

/** Everything the seams share; one per plugin activation, cleared on dispose. */
export class PluginState {
  /** Written by the stream seam; read (and taken) by the execute and result seams through the methods below. */
  readonly #streamNotes = new BoundedMap<string, StreamNote>(STREAM_NOTES);
  readonly #executionNotes = new BoundedMap<ToolExecutionToken, ExecutionNote>(EXECUTION_NOTES);
  /** Recoveries of Code-Mode sub-calls, waiting for their root call's result. */
  readonly #innerHeals = new BoundedMap<string, InnerHeals>(EXECUTION_NOTES);
  /** Executions currently running a recovery plan: token -> call id. Their nested calls are the plugin's own. */
  readonly #healingParents = new BoundedMap<ToolExecutionToken, string>(HEALING_PARENTS);
  /** Per session: failure fingerprint -> how many times it failed identically. */
  readonly #failures = new BoundedMap<string, BoundedMap<string, number>>(SESSIONS_COUNTED);
  telemetry: TelemetryStore | undefined;
  /** The engine's rule switches, from the config. */
  readonly toggles: RuleToggles;

  constructor(
    readonly ctx: Context,
    readonly config: ToolNormalizerConfig,
    readonly environment: EnvironmentReader,
    readonly errors: PluginErrors,
  ) {
    this.toggles = Object.fromEntries(TOGGLE_KEYS.map((key) => [key, config[key]])) as RuleToggles;
  }

  /** True for a nested call this plugin dispatched itself while recovering: it is never healed again. */
  isOwnNestedCall(exec: Pick<ToolExecution, 'parent' | 'callId'>): boolean {
    if (exec.parent === undefined) return false;
    const parentCallId = this.#healingParents.get(exec.parent);
    return parentCallId !== undefined && String(exec.callId).startsWith(`${parentCallId}:heal:`);
  }

  /** The nested calls `token`'s execution dispatches from now on are the plugin's own (until `endHealing`). */
  beginHealing(token: ToolExecutionToken, callId: string): void {
    this.#healingParents.set(token, callId);
  }

  endHealing(token: ToolExecutionToken): void {
    this.#healingParents.delete(token);
  }

  /** Records that a recovery plan runs for this execution; the returned note is updated as its steps run. */
  beginRecovery(
    token: ToolExecutionToken,
    plan: Pick<RecoveryPlan, 'ruleId' | 'category'> & Partial<Pick<RecoveryPlan, 'steps'>>,
  ): NonNullable<ExecutionNote['recovery']> {
    const retried = plan.steps?.findLast((step) => step.role === 'retry')?.arguments;
    const recovery = {
      ruleId: plan.ruleId,
      category: plan.category,
      recovered: false,
      steps: 0,
      ...(retried === undefined ? {} : { retried }),
    };
    this.#note(token).recovery = recovery;
    return recovery;
  }

  /** Records that the execute seam already explained this execution's error (post-execute leaves it alone). */
  markExplained(token: ToolExecutionToken, repeat: number | undefined, classification?: Classification): void {
    const note = this.#note(token);
    note.explained = true;
    if (repeat !== undefined && repeat >= 2) note.repeat = repeat;
    if (classification !== undefined) note.classification = classification;
  }

  /** Records how an error explained outside the execute seam (post-execute) was classified, for the result seam. */
  noteClassification(token: ToolExecutionToken, classification: Classification): void {
    this.#note(token).classification = classification;
  }

  wasExplained(token: ToolExecutionToken): boolean {
    return this.#executionNotes.get(token)?.explained === true;
  }

  /** The note of a finished execution, removed (each is joined to exactly one result). */
  takeExecutionNote(token: ToolExecutionToken): ExecutionNote | undefined {
    return this.#executionNotes.size === 0 ? undefined : this.#executionNotes.take(token);
  }

  /** The diagnostic the stream seam left for a top-level call (why its program could not be repaired). */
  streamDiagnostic(callId: string): Diagnostic | undefined {
    return this.#streamNotes.size === 0 ? undefined : this.#streamNotes.get(callId)?.diagnostic;
  }

  /**
   * Records what the stream seam did to a top-level call. `undefined` forgets a note an earlier block with the same
   * id left (one that never ran), so it is not joined to this call.
   */
  setStreamNote(callId: string, note: StreamNote | undefined): void {
    if (note) this.#streamNotes.set(callId, note);
    else if (this.#streamNotes.size > 0) this.#streamNotes.delete(callId);
  }

  /** The stream seam's note for a finished top-level call, removed. */
  takeStreamNote(callId: string): StreamNote | undefined {
    return this.#streamNotes.size === 0 ? undefined : this.#streamNotes.take(callId);
  }

  /** Folds a Code-Mode sub-call's recovery into the record of its model-visible run_code call. */
  foldInnerHeal(
    rootCallId: string,
    subCall: { name: string; callId: string },
    recovery: NonNullable<ExecutionNote['recovery']>,
  ): void {
    const heals = this.#innerHeals.get(rootCallId) ?? {
      ruleIds: [],
      changes: [],
      category: recovery.category,
      recovered: false,
    };
    heals.recovered ||= recovery.recovered;
    heals.ruleIds.push(recovery.ruleId);
    heals.changes.push(
      `inner ${subCall.name} (${subCall.callId}): ${recovery.ruleId}${recovery.recovered ? '' : ' (did not recover)'}`,
    );
    this.#innerHeals.set(rootCallId, heals);
  }

  takeInnerHeals(rootCallId: string): InnerHeals | undefined {
    return this.#innerHeals.size === 0 ? undefined : this.#innerHeals.take(rootCallId);
  }

  /**
   * Counts one failure of a session by its fingerprint and returns how many identical failures that session has
   * had (1 for the first). Memory is bounded: the oldest sessions and the oldest fingerprints are forgotten.
   */
  countFailure(sessionId: string, fingerprint: string): number {
    let session = this.#failures.get(sessionId);
    if (!session) {
      session = new BoundedMap<string, number>(FAILURES_PER_SESSION);
      this.#failures.set(sessionId, session);
    }
    const count = (session.get(fingerprint) ?? 0) + 1;
    session.set(fingerprint, count);
    return count;
  }

  /** How many sessions the loop counter holds, and how many fingerprints for `sessionId` (bounded-memory checks). */
  failureCounterSize(sessionId: string): { sessions: number; fingerprints: number } {
    return { sessions: this.#failures.size, fingerprints: this.#failures.get(sessionId)?.size ?? 0 };
  }

  #note(token: ToolExecutionToken): ExecutionNote {
    let note = this.#executionNotes.get(token);
    if (!note) {
      note = {};
      this.#executionNotes.set(token, note);
    }
    return note;
  }

  clear(): void {
    this.#streamNotes.clear();
    this.#executionNotes.clear();
    this.#healingParents.clear();
    this.#innerHeals.clear();
    this.#failures.clear();
    this.environment.clear();
  }
}
