/**
 * The call model shared by every harness that uses the engine (design section 4). Names here are a public
 * contract: dsh-adapter, telemetry and the dashboard depend on them.
 */

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

/** Config switches of the seed plugin that turn rule families on and off. */
export interface RuleToggles {
  autoWrapRunCode: boolean;
  autoBridgeDirectTools: boolean;
  autoObserveFiles: boolean;
  autoClampRanges: boolean;
  errorHints: boolean;
}
