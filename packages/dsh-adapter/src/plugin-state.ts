/**
 * What the plugin remembers about calls in flight, so the final outcome can be joined to what was done:
 * repairs made on the stream (keyed by the model's call id, before the call has an execution) and notes made
 * while executing (keyed by the execution token). Both tables are bounded and every entry is taken exactly
 * once, by `tools/result`.
 */
import type { Diagnostic, Receipt, RuleToggles } from '@dsh-tool-normalizer/core-rules';
import { BoundedMap } from './bounded-map.js';
import type { EnvironmentReader } from './environment.js';
import type { PluginErrors } from './fail-open.js';
import type { Context, ToolExecution, ToolExecutionToken } from './host.js';
import type { ToolNormalizerConfig } from './config.js';
import type { TelemetryStore } from '@dsh-tool-normalizer/telemetry-store';

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
  recovery?: { ruleId: string; category: string; recovered: boolean; steps: number };
  /** The hint that goes with the original error (a plan with `resultFrom: 'original'`). */
  hint?: string;
  /**
   * The category of the host's own error when post-execute rewrote it (a `block` decision drops `error.info`,
   * so the final result alone would classify worse).
   */
  originalCategory?: string;
}

/** What the plugin did inside a Code-Mode program, folded into the model-visible run_code call (by root call id). */
export interface InnerHeals {
  ruleIds: string[];
  changes: string[];
  category: string;
  /** At least one sub-call recovery produced the success its program saw. */
  recovered: boolean;
}

const STREAM_NOTES = 1024;
const EXECUTION_NOTES = 1024;
const HEALING_PARENTS = 1024;

/** Everything the seams share; one per plugin activation, cleared on dispose. */
export class PluginState {
  readonly streamNotes = new BoundedMap<string, StreamNote>(STREAM_NOTES);
  readonly executionNotes = new BoundedMap<ToolExecutionToken, ExecutionNote>(EXECUTION_NOTES);
  /** Recoveries of Code-Mode sub-calls, waiting for their root call's result. */
  readonly innerHeals = new BoundedMap<string, InnerHeals>(EXECUTION_NOTES);
  /** Executions currently running a recovery plan: token -> call id. Their nested calls are the plugin's own. */
  readonly healingParents = new BoundedMap<ToolExecutionToken, string>(HEALING_PARENTS);
  telemetry: TelemetryStore | undefined;
  /** The engine's rule switches, from the config. */
  readonly toggles: RuleToggles;

  constructor(
    readonly ctx: Context,
    readonly config: ToolNormalizerConfig,
    readonly environment: EnvironmentReader,
    readonly errors: PluginErrors,
  ) {
    const { autoWrapRunCode, autoBridgeDirectTools, autoObserveFiles, autoClampRanges, errorHints } = config;
    this.toggles = { autoWrapRunCode, autoBridgeDirectTools, autoObserveFiles, autoClampRanges, errorHints };
  }

  /** True for a nested call this plugin dispatched itself while recovering: it is never healed again. */
  isOwnNestedCall(exec: Pick<ToolExecution, 'parent' | 'callId'>): boolean {
    if (exec.parent === undefined) return false;
    const parentCallId = this.healingParents.get(exec.parent);
    return parentCallId !== undefined && String(exec.callId).startsWith(`${parentCallId}:heal:`);
  }

  note(token: ToolExecutionToken): ExecutionNote {
    let note = this.executionNotes.get(token);
    if (!note) {
      note = {};
      this.executionNotes.set(token, note);
    }
    return note;
  }

  clear(): void {
    this.streamNotes.clear();
    this.executionNotes.clear();
    this.healingParents.clear();
    this.innerHeals.clear();
    this.environment.clear();
  }
}
