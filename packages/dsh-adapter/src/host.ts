/**
 * The slice of DeepSeek Harness the plugin touches: its TYPES, plus a few small pure helpers that read host values
 * (the presentation mode of a request's tool list, the session cwd, the agent's model, the abort codes). The
 * published bundle must not import `@deepseek-ai/*` at runtime (a plugin linked from a local folder resolves imports
 * from its real path and cannot see the profile's packages), so every DSH import here is `import type`, and every
 * service is read through `ctx.get()` or the plugin's `inject`.
 */
import type { Agent } from '@deepseek-ai/dsh-agent';
import type { WebServer } from '@deepseek-ai/dsh-host-webserver';
import type { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import type { ToolMode } from '@dsh-tool-normalizer/core-rules';
import { presentationModeOf } from '@dsh-tool-normalizer/dsh-profile';

export type { Agent, SystemPrompt, WebServer };
export type { Context } from '@deepseek-ai/cordis';
export type { GenerateOptions, StreamChunk, ToolCallBlock, ContentBlock } from '@deepseek-ai/dsh-llm';
export type {
  PostToolDecision,
  ToolDispatchExecution,
  ToolExecution,
  ToolExecutionInput,
  ToolExecutionResult,
  ToolExecutionToken,
  ToolRuntime,
} from '@deepseek-ai/dsh-tools';

/** The token meter's one method the plugin uses (`@deepseek-ai/dsh-token-meter`). */
export interface TokenMeterLike {
  measure(session: Agent['session']): { totalTokens: number };
}

/** The agent registry's one method the plugin uses (`@deepseek-ai/dsh-agent`). */
export interface AgentRegistryLike {
  get(id: string): Agent | undefined;
}

/** Error codes of a cancelled call: never retried (DSH's error vocabulary, dsh-profile). */
export { ABORT_CODES } from '@dsh-tool-normalizer/dsh-profile';

/** The presentation mode from the tools a request shows the model (`options.tools`), by the host profile's rule. */
export function modeOfPresentedTools(presented: readonly { name: string }[]): ToolMode {
  return presentationModeOf(presented);
}

/** The session working directory, by the same rule as `dsh-tool-fs` (`session.header.cwd`). */
export function sessionCwd(agent: Agent | undefined): string | undefined {
  const cwd = (agent?.session as { header?: { cwd?: unknown } } | undefined)?.header?.cwd;
  return typeof cwd === 'string' && cwd.length > 0 ? cwd : undefined;
}

/** The model an agent talks to, when the agent says (`agent.options.model`). */
export function agentModel(agent: Agent | undefined): string | undefined {
  const model = (agent?.options as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' ? model : undefined;
}
