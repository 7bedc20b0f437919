/**
 * The Agents SDK's seam for tool-call healing: the model. The runner (`@openai/agents-core` 0.20.0) reads every
 * function call from the model's response and decides before any tool runs: an unknown name ends the run with
 * `ModelBehaviorError` (`processModelResponse`), arguments that are not JSON go back to the model as "An error
 * occurred while parsing tool arguments" (`parseToolArguments` JSON.parses them before the tool is reached), and
 * tool input guardrails can allow or reject a call but never rewrite it. So a wrapped `Model` heals each
 * `function_call` of a response (`getResponse`, and the `response_done` event of `getStreamedResponse`, which is
 * what the runner executes) with core-rules' repair kit, against the tools' JSON Schemas as the request sent them
 * to the model. A call that passes every check, and every call the kit does not repair, is the very item the model
 * sent, and a response with nothing repaired is the very object: the SDK's own handling and errors apply unchanged.
 */
import type {
  FunctionCallItem,
  Model,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  SerializedTool,
  StreamEvent,
} from '@openai/agents';
import { createRepairKit, dshHostChecks, type KitAnswer, type RepairKit } from '@dsh-tool-normalizer/core-rules';
import type { HealingOptions, HealReport } from './types.js';

/** Kits kept per distinct tool set (an agent's tools rarely change between turns; handoffs switch agents). */
const MAX_KITS = 16;

interface Healer {
  /** `output` with its broken function calls healed: the very array when none was. */
  heal<Item extends { type?: string }>(output: Item[], request: ModelRequest): Promise<Item[]>;
}

function isFunctionCall(item: { type?: string }): item is FunctionCallItem {
  return item.type === 'function_call';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a property's schema admits `null` (`type: [..., 'null']`, or a `null` branch of `anyOf`). */
function admitsNull(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.some(admitsNull);
}

/**
 * A strict tool's schema as the SDK's own parser reads it. For the model, the SDK's strict conversion
 * (`toOpenAIStrictToolSchema`) makes every property required and an optional one nullable; its zod parser then
 * drops those nulls (`stripStrictNullsForZodSchema`) and accepts the property missing. Judged by the strict schema,
 * a repaired `{file_path}` for a tool with an optional `offset` would fail; so a nullable property is not required
 * here, at every depth. What the SDK's parser still rejects (a `.nullable()` field it requires) it rejects with its
 * own error, as it would the call as sent.
 */
function asParsed(schema: unknown, depth = 0): unknown {
  if (depth > 64 || !isRecord(schema))
    return Array.isArray(schema) ? schema.map((item) => asParsed(item, depth + 1)) : schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema))
    copy[key] = key === 'enum' || key === 'const' ? value : asParsed(value, depth + 1);
  if (Array.isArray(schema.required) && isRecord(schema.properties)) {
    const properties = schema.properties;
    copy.required = schema.required.filter((key) => !(typeof key === 'string' && admitsNull(properties[key])));
  }
  return copy;
}

/** A top-level function tool of a request: a schema the kit can read (namespaced tools are left to the SDK). */
function kitToolsOf(tools: readonly SerializedTool[]) {
  return tools.flatMap((tool) =>
    tool.type === 'function' && !tool.namespace && isRecord(tool.parameters)
      ? [
          {
            name: tool.name,
            description: tool.description,
            parameters: tool.strict ? asParsed(tool.parameters) : tool.parameters,
          },
        ]
      : [],
  );
}

function send(options: HealingOptions, call: FunctionCallItem, answer: KitAnswer): void {
  if (!options.onReport || (answer.ok && !answer.changed)) return;
  const base = { callId: call.callId, requestedTool: call.name, before: call.arguments };
  const report: HealReport = answer.ok
    ? {
        ...base,
        tool: answer.name,
        category: answer.name !== call.name ? 'unknown-tool' : (answer.receipts[0]?.category ?? 'invalid-args'),
        repaired: true,
        ruleIds: answer.receipts.map((receipt) => receipt.ruleId),
        receipts: answer.receipts,
        changes: answer.receipts.map((receipt) => receipt.why),
        after: answer.args,
      }
    : {
        ...base,
        tool: call.name,
        category: 'invalid-args',
        repaired: false,
        ruleIds: [],
        receipts: [],
        changes: [],
        reason: answer.reason,
      };
  try {
    options.onReport(report);
  } catch {
    // A failing report callback must not change what the SDK does.
  }
}

function healerFor(options: HealingOptions): Healer {
  const kits = new Map<string, RepairKit>();
  const kitFor = (request: ModelRequest): RepairKit => {
    const tools = kitToolsOf(request.tools);
    const key = JSON.stringify(tools);
    let kit = kits.get(key);
    if (!kit) {
      kit = createRepairKit(tools, {
        ...(options.toggles ? { toggles: options.toggles } : {}),
        ...(options.cwd ? { cwd: options.cwd } : {}),
        hostChecks: options.hostChecks ?? dshHostChecks,
        ...(options.programs ? { programs: options.programs } : {}),
      });
      if (kits.size >= MAX_KITS) kits.delete(kits.keys().next().value as string);
      kits.set(key, kit);
    }
    return kit;
  };

  return {
    async heal<Item extends { type?: string }>(output: Item[], request: ModelRequest): Promise<Item[]> {
      if (!output.some(isFunctionCall)) return output;
      const kit = kitFor(request);
      // Names the runner resolves to something else than a top-level function tool: never renamed, never healed.
      const reserved = new Set<string>([
        ...request.handoffs.map((handoff) => handoff.toolName),
        ...request.tools.filter((tool) => tool.type !== 'function' || tool.namespace).map((tool) => tool.name),
      ]);
      let changed = false;
      const healed = await Promise.all(
        output.map(async (item) => {
          if (!isFunctionCall(item) || item.namespace || reserved.has(item.name)) return item;
          try {
            const answer = await kit.repair({ name: item.name, arguments: item.arguments });
            send(options, item, answer);
            if (!answer.ok || !answer.changed || reserved.has(answer.name)) return item;
            changed = true;
            return { ...item, name: answer.name, arguments: JSON.stringify(answer.args) } as Item;
          } catch {
            return item;
          }
        }),
      );
      return changed ? healed : output;
    },
  };
}

/** `model` with its responses' broken function calls healed before the runner reads them. */
export function healModel(model: Model, options: HealingOptions = {}): Model {
  const healer = healerFor(options);
  const healed: Model = {
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      const response = await model.getResponse(request);
      const output = await healer.heal(response.output, request);
      return output === response.output ? response : { ...response, output };
    },
    async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
      for await (const event of model.getStreamedResponse(request)) {
        if (event.type !== 'response_done') {
          yield event;
          continue;
        }
        const output = await healer.heal(event.response.output, request);
        yield output === event.response.output ? event : { ...event, response: { ...event.response, output } };
      }
    },
  };
  if (model.getRetryAdvice) healed.getRetryAdvice = (args) => model.getRetryAdvice?.(args);
  if (model.supportsPromptModelSelection !== undefined)
    Object.defineProperty(healed, 'supportsPromptModelSelection', { value: model.supportsPromptModelSelection });
  return healed;
}

/** `provider` whose every model is healed: `new Runner({ modelProvider: healModelProvider(new OpenAIProvider()) })`. */
export function healModelProvider(provider: ModelProvider, options: HealingOptions = {}): ModelProvider {
  return {
    async getModel(name?: string) {
      return healModel(await provider.getModel(name), options);
    },
  };
}
