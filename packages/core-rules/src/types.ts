/**
 * The call model shared by every harness that uses the engine. Names here are a public contract: dsh-adapter,
 * telemetry and the dashboard depend on them. Rule, category and switch ids are derived from the catalogue.
 */
import type { DiagnosticKind as HealerDiagnosticKind } from '@dsh-tool-normalizer/syntax-healer';
import type { CategoryId, RuleId, SwitchId } from './catalogue.js';
import type { RuleToggles, ToggleKey } from './toggles.js';

export type { CategoryId, RuleId, RuleToggles, SwitchId, ToggleKey };

export type ToolMode = 'native' | 'code' | 'both';

/** A tool call as the model sent it. `arguments` may be an object, a JSON string, double-encoded, or fenced. */
export interface ToolCall {
  name: string;
  arguments: unknown;
}

/** A tool as the host publishes it (`ctx.tools.schemas(agent)` in DSH): `parameters` is a JSON Schema. */
export interface ToolSchema {
  name: string;
  description?: string;
  parameters: unknown;
}

export interface Environment {
  /** Every tool the agent can reach (in Code Mode: the tools callable inside run_code, plus run_code). */
  tools: readonly ToolSchema[];
  mode: ToolMode;
  /** The session working directory; relative editor paths are resolved only when it is known. */
  cwd?: string;
  /** True for an inner Code-Mode sub-call (DSH: the execution carries a `parent`). */
  nested?: boolean;
}

/** A tool result as DSH returns it. */
export interface ToolResultLike {
  isError: boolean;
  error?: { message: string; info?: { code?: string; name?: string } };
  content?: unknown;
}

/** Every kind a `Diagnostic` can carry. */
export type DiagnosticKind = HealerDiagnosticKind | 'unrepairable';

/** A compile problem of a run_code program that could not be repaired (the syntax healer's diagnostic). */
export interface Diagnostic {
  /** The healer's diagnostic kind, or `unrepairable` when it failed without naming one. */
  kind: DiagnosticKind;
  message: string;
  line?: number;
  column?: number;
}

/** Proof of one repair: which rule, why it fired, and short previews of the text before and after. */
export interface Receipt {
  ruleId: RuleId;
  category: CategoryId;
  why: string;
  before: string;
  after: string;
}

/**
 * The answer of `normalizeCall`. Unchanged calls come back as the same object with `changed: false`, no
 * receipts, and a `reason`. A changed call always carries `arguments` as a plain JSON object.
 */
export interface NormalizeResult {
  call: ToolCall;
  changed: boolean;
  receipts: Receipt[];
  reason?: string;
  /** Set when a run_code program could not be repaired: feed it to `hintFor`. */
  diagnostic?: Diagnostic;
}

/** One nested call of a recovery plan. `observe` steps only read; `retry` re-issues a repaired or original call. */
export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
  role: 'observe' | 'retry';
}

/**
 * A small, serialisable recovery: run `steps` in order as nested calls, stop at the first failing step.
 * `resultFrom: 'last-step'` answers with the last step's result; `'original'` keeps the original error
 * and appends `hint`.
 */
export interface RecoveryPlan {
  ruleId: RuleId;
  category: CategoryId;
  steps: PlannedCall[];
  resultFrom: 'last-step' | 'original';
  hint?: string;
}

/** What `classifyResult` says about a result: a stable category id, the host error code, and whether it is a known mechanical failure class. */
export interface Classification {
  category: CategoryId;
  code?: string;
  known: boolean;
}

/** One entry of the rule catalogue (dashboard rule cards, README table). */
export interface RuleInfo {
  id: RuleId;
  category: CategoryId;
  title: string;
  description: string;
  /** The config switch that enables the rule. */
  option: ToggleKey;
  /** When the rule acts: before the call runs, after an error result (recovery), or on the error text (hint). */
  stage: 'normalize' | 'recover' | 'hint';
  /** `file#export` under core-rules' src/ where the rule is written. */
  implementation: string;
}

/** One rule switch: its config description and the options card's English label and hint. */
export interface SwitchInfo {
  id: SwitchId;
  description: string;
  label: string;
  hint: string;
}

/** A result category (stable id) with its dashboard label. `known` marks the mechanical failure classes. */
export interface CategoryInfo {
  id: CategoryId;
  label: string;
  known: boolean;
}
