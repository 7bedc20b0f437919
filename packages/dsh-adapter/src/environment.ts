/**
 * Builds the engine's `Environment` (the tools an agent can reach, the presentation mode, the session cwd) from
 * the live host. The tool list is read from `ctx.tools.schemas(agent)`, the host's own visibility resolver, so
 * the engine checks calls against exactly what the agent may call. Reading it costs a deep clone of every
 * schema, so it happens only on the paths that may heal (a tool-call block, an error result), never on a
 * successful call.
 */
import type { Environment, ToolMode, ToolSchema } from '@dsh-tool-normalizer/core-rules';
import { BoundedMap } from './bounded-map.js';
import { modeOfPresentedTools, RUN_CODE, sessionCwd, type Agent, type AgentRegistryLike, type Context, type GenerateOptions, type ToolExecution } from './host.js';

const MODES_REMEMBERED = 256;

export class EnvironmentReader {
  /** The mode each session's last request presented (`llm/stream` sees it; `tools/execute` does not). */
  readonly #modeBySession = new BoundedMap<string, ToolMode>(MODES_REMEMBERED);

  constructor(private readonly ctx: Context) {}

  /** The agent a model request belongs to (the loop stamps `sessionId`, which is the agent id). */
  agentOfRequest(options: GenerateOptions): Agent | undefined {
    if (options.sessionId === undefined) return undefined;
    const registry = this.ctx.get('agents') as AgentRegistryLike | undefined;
    return registry?.get(options.sessionId);
  }

  /** The environment of a model request whose tool-call blocks are being checked. */
  forRequest(options: GenerateOptions, presented: readonly { name: string; description?: string; parameters: unknown }[]): Environment {
    const agent = this.agentOfRequest(options);
    const mode = modeOfPresentedTools(presented);
    if (options.sessionId !== undefined) this.#modeBySession.set(options.sessionId, mode);
    const visible: ToolSchema[] = this.ctx.tools.schemas(agent);
    const names = new Set(visible.map((tool) => tool.name));
    // The request is the authority for what the model was shown (run_code is absent from a global view).
    for (const tool of presented) if (!names.has(tool.name)) visible.push(tool);
    const cwd = sessionCwd(agent);
    return { tools: visible, mode, ...(cwd === undefined ? {} : { cwd }) };
  }

  /** The environment of an execution (top-level or a Code-Mode sub-call) whose error may be recovered. */
  forExecution(exec: Pick<ToolExecution, 'agent' | 'parent'>): Environment {
    const agent = exec.agent;
    const runCodeVisible = this.ctx.tools.get(RUN_CODE, agent) !== undefined;
    const mode: ToolMode = runCodeVisible ? (agent ? (this.#modeBySession.get(agent.id) ?? 'code') : 'code') : 'native';
    const cwd = sessionCwd(agent);
    return {
      tools: this.ctx.tools.schemas(agent),
      mode,
      nested: exec.parent !== undefined,
      ...(cwd === undefined ? {} : { cwd }),
    };
  }

  clear(): void {
    this.#modeBySession.clear();
  }
}
