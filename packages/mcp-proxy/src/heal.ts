/**
 * The healing decision for one MCP `tools/call`: the arguments are checked against the `inputSchema` the server
 * advertised in `tools/list` (its own contract); a call that passes is never touched; a failing call is repaired by
 * core-rules' repair kit (`createRepairKit`, the one every harness uses) only when the repair is unique, made of
 * rules that are safe for any server, and the repaired arguments pass the schema; anything else is left as sent
 * with the schema's complaint. No I/O.
 */
import {
  createRepairKit,
  receipt,
  validateArguments,
  type Receipt,
  type RepairKit,
  type ToolSchema,
} from '@dsh-tool-normalizer/core-rules';

/**
 * The core-rules rules that may change an MCP call. Each one reads what the model sent one way only (decoding,
 * a provider prefix on the name, an alias key the schema maps one-to-one, a lossless scalar form, a null for an
 * optional key, one value for a list the schema wants, JSON text for an object or list field). Rules that invent content (`args.fill-description` writes a description) or that model DeepSeek
 * Harness's own tools (run_code programs, the editor's paths and ranges, Code Mode bridging) are never applied to
 * a third-party server's tools, whatever the tool is called.
 */
export const MCP_RULE_IDS: ReadonlySet<string> = new Set([
  'call.strip-name-prefix',
  'args.unwrap-double-encoded',
  'args.unwrap-fenced-json',
  'args.repair-near-json',
  'args.rename-alias',
  'args.drop-null-optional',
  'args.coerce-scalar',
  'args.wrap-scalar-in-list',
  'args.parse-object-text',
]);

/** What the proxy does with one call. */
export type HealVerdict =
  /** Valid as sent, or a tool the proxy has no schema for: forwarded as it came. */
  | { kind: 'untouched'; reason: 'valid' | 'no-schema' | 'no-arguments' | 'unknown-tool' }
  /** Repaired: forward `name` and `arguments` instead. */
  | { kind: 'healed'; name: string; arguments: Record<string, unknown>; receipts: Receipt[] }
  /** Fails the schema and no single safe repair passes it. `violations` are worded like `missing required property "x"`. */
  | { kind: 'unhealable'; violations: string[]; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema's complaints about `args` (a non-object is one complaint). */
function violationsOf(tool: ToolSchema, args: unknown): string[] {
  if (!isRecord(args))
    return [`arguments must be a JSON object, got ${Array.isArray(args) ? 'an array' : typeof args}`];
  return validateArguments(tool.parameters, args);
}

const PREVIEW_CHARS = 200;

/**
 * MCP's `arguments` is a JSON object; a JSON object sent as a JSON string is encoded twice. core-rules reads one
 * layer of JSON text as the wire form of DSH's arguments, so that layer is read here, with its receipt.
 */
function objectFromText(args: string): { value: Record<string, unknown>; receipt: Receipt } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const before = args.length > PREVIEW_CHARS ? `${args.slice(0, PREVIEW_CHARS)}…` : args;
  const why = 'the arguments were a JSON object sent as a JSON string';
  return { value, receipt: receipt('args.unwrap-double-encoded', why, before, '(plain JSON object)') };
}

/** The healing decision for the tools one `tools/list` advertised. */
export interface Healer {
  /** The tools by name (the schemas calls are checked against). */
  readonly tools: ReadonlyMap<string, ToolSchema>;
  /** The verdict for a call to `name` with `args`. Never throws. */
  heal(name: unknown, args: unknown): Promise<HealVerdict>;
  /** True when `args` pass the schema of the listed tool `name` as sent (the valid path, decided at once). */
  passes(name: string, args: unknown): boolean;
}

/**
 * A healer on core-rules' repair kit, with no host profile: an MCP server's only published check is its
 * `inputSchema` (no validator of its own reaches the proxy, no cwd, no programs).
 */
export function createHealer(schemas: Iterable<ToolSchema>): Healer {
  const tools = new Map<string, ToolSchema>();
  for (const tool of schemas) if (!tools.has(tool.name)) tools.set(tool.name, tool);
  const kit = createRepairKit([...tools.values()]);
  return {
    tools,
    heal: (name, args) => healCall(tools, kit, name, args),
    passes: (name, args) => {
      const tool = tools.get(name);
      return tool !== undefined && args !== undefined && violationsOf(tool, args).length === 0;
    },
  };
}

async function healCall(
  tools: ReadonlyMap<string, ToolSchema>,
  kit: RepairKit,
  name: unknown,
  args: unknown,
): Promise<HealVerdict> {
  if (typeof name !== 'string' || tools.size === 0) return { kind: 'untouched', reason: 'no-schema' };
  if (args === undefined) return { kind: 'untouched', reason: 'no-arguments' };
  const tool = tools.get(name);
  // The valid path decides here, without the kit: a call that passes is never handed to a rule.
  const sentViolations = tool ? violationsOf(tool, args) : [];
  if (tool && sentViolations.length === 0) return { kind: 'untouched', reason: 'valid' };
  const text = typeof args === 'string' ? objectFromText(args) : undefined;
  const object = text ? text.value : args;
  const violations = tool ? violationsOf(tool, object) : [];
  const answer = tool && violations.length === 0 ? undefined : await kit.repair({ name, arguments: object });
  const refused = (reason: string): HealVerdict =>
    tool ? { kind: 'unhealable', violations, reason } : { kind: 'untouched', reason: 'unknown-tool' };
  if (answer && !answer.ok) return refused(answer.reason);
  const healedName = answer ? answer.name : name;
  const healedArgs = answer ? answer.args : (object as Record<string, unknown>);
  const receipts = [...(text ? [text.receipt] : []), ...(answer ? answer.receipts : [])];
  if (receipts.length === 0) return refused('no rule repairs');
  const unsafe = receipts.find((item) => !MCP_RULE_IDS.has(item.ruleId));
  if (unsafe) return refused(`the only repair uses ${unsafe.ruleId}, which the proxy never applies`);
  const target = tools.get(healedName);
  if (!target || violationsOf(target, healedArgs).length > 0)
    return refused('the repaired call would still fail the schema');
  return { kind: 'healed', name: target.name, arguments: healedArgs, receipts };
}

/** The one hint an `--answer-errors` result carries: what the schema says is wrong, and that nothing ran. */
export function invalidArgumentsHint(name: string, violations: readonly string[]): string {
  const listed = violations.slice(0, 3).join('; ');
  const more = violations.length > 3 ? ` (and ${violations.length - 3} more)` : '';
  return `Invalid arguments for tool "${name.slice(0, 80)}": ${listed}${more}. The tool did not run; call it again with arguments that match its inputSchema.`;
}
