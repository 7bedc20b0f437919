/**
 * Builds the engine's `Environment` (the tools an agent can reach, the presentation mode, the session cwd) from
 * the live host. The tool list is read from `ctx.tools.schemas(agent)`, the host's own visibility resolver, so
 * the engine checks calls against exactly what the agent may call. Reading it costs a deep clone of every
 * schema, so it happens only on the paths that may heal (a tool-call block, an error result), never on a
 * successful call, and it is read once per agent until the registry says its tools changed (`tools/change`, which
 * the host emits on every register, unregister, restriction and presentation-mode change). The environment of a
 * model request is kept per presented-tools array (the host freezes the request), so a response with several
 * tool calls, or a request retried with the same array, reuses it.
 */
import { type Environment, RUN_CODE, type ToolMode, type ToolSchema } from '@dsh-tool-normalizer/core-rules';
import { BoundedMap } from './bounded-map.js';
import {
  modeOfPresentedTools,
  sessionCwd,
  type Agent,
  type AgentRegistryLike,
  type Context,
  type GenerateOptions,
  type ToolExecution,
} from './host.js';

const MODES_REMEMBERED = 256;

type PresentedTools = readonly { name: string; description?: string; parameters: unknown }[];

/** The key under which the tools of a request without an agent are kept. */
const NO_AGENT = {};

export class EnvironmentReader {
  /** The mode each session's last request presented (`llm/stream` sees it; `tools/execute` does not). */
  readonly #modeBySession = new BoundedMap<string, ToolMode>(MODES_REMEMBERED);
  /** `ctx.tools.schemas(agent)` per agent, frozen; dropped whenever the registry changes. */
  #visibleByAgent = new WeakMap<object, readonly ToolSchema[]>();
  /** Per presented-tools array, per agent: the request environment without its cwd; dropped with the above. */
  #requestTools = new WeakMap<PresentedTools, WeakMap<object, { tools: readonly ToolSchema[]; mode: ToolMode }>>();

  constructor(private readonly ctx: Context) {
    ctx.on('tools/change', () => this.#forgetTools());
  }

  #forgetTools(): void {
    this.#visibleByAgent = new WeakMap();
    this.#requestTools = new WeakMap();
  }

  /** What the agent may call, as the host's own visibility resolver says (read once per registry state). */
  #visibleTools(agent: Agent | undefined): readonly ToolSchema[] {
    const key = agent ?? NO_AGENT;
    let visible = this.#visibleByAgent.get(key);
    if (visible === undefined) {
      visible = Object.freeze(this.ctx.tools.schemas(agent) as ToolSchema[]);
      this.#visibleByAgent.set(key, visible);
    }
    return visible;
  }

  /** The agent a model request belongs to (the loop stamps `sessionId`, which is the agent id). */
  agentOfRequest(options: GenerateOptions): Agent | undefined {
    if (options.sessionId === undefined) return undefined;
    const registry = this.ctx.get('agents') as AgentRegistryLike | undefined;
    return registry?.get(options.sessionId);
  }

  /** The environment of a model request whose tool-call blocks are being checked. */
  forRequest(options: GenerateOptions, presented: PresentedTools): Environment {
    const agent = this.agentOfRequest(options);
    const key = agent ?? NO_AGENT;
    let byAgent = this.#requestTools.get(presented);
    let known = byAgent?.get(key);
    if (known === undefined) {
      const visible = this.#visibleTools(agent);
      const names = new Set(visible.map((tool) => tool.name));
      // The request is the authority for what the model was shown (run_code is absent from a global view).
      const missing = presented.filter((tool) => !names.has(tool.name)) as ToolSchema[];
      known = {
        tools: missing.length === 0 ? visible : Object.freeze([...visible, ...missing]),
        mode: modeOfPresentedTools(presented),
      };
      if (byAgent === undefined) {
        byAgent = new WeakMap();
        this.#requestTools.set(presented, byAgent);
      }
      byAgent.set(key, known);
    }
    if (options.sessionId !== undefined) this.#modeBySession.set(options.sessionId, known.mode);
    const cwd = sessionCwd(agent);
    return cwd === undefined
      ? { tools: known.tools as ToolSchema[], mode: known.mode }
      : { tools: known.tools as ToolSchema[], mode: known.mode, cwd };
  }

  /** The environment of an execution (top-level or a Code-Mode sub-call) whose error may be recovered. */
  forExecution(exec: Pick<ToolExecution, 'agent' | 'parent'>): Environment {
    const agent = exec.agent;
    const runCodeVisible = this.ctx.tools.get(RUN_CODE, agent) !== undefined;
    const mode: ToolMode = runCodeVisible ? (agent ? (this.#modeBySession.get(agent.id) ?? 'code') : 'code') : 'native';
    const cwd = sessionCwd(agent);
    return {
      tools: this.#visibleTools(agent) as ToolSchema[],
      mode,
      nested: exec.parent !== undefined,
      ...(cwd === undefined ? {} : { cwd }),
    };
  }

  clear(): void {
    this.#modeBySession.clear();
    this.#forgetTools();
  }
}
