/**
 * What the analyzer knows about the DSH releases that write session logs, in one place: which release a log's
 * format version points to (and whose tool schemas stand in when the log records none), the names the releases
 * give Code-Mode sub-call events, the error classes no call repair can change (settled from the error alone), and
 * the model names and usage shapes of DSH's test mocks. Sources for each fact: docs/host-facts.md#session-log-formats.
 */
import type { ToolSchema } from '@dsh-tool-normalizer/core-rules';
import { RC8_TOOL_SCHEMAS } from './release-tools.js';

export interface LogRelease {
  /** The session header's `version` (undefined when the header has none). */
  format: number | undefined;
  /** Which DSH release(s) write this format, in words. */
  label: string;
  /** Tool schemas known for that release (stand-in when the log records no tool list), or undefined. */
  schemas: readonly ToolSchema[] | undefined;
  /** Where `schemas` come from, said per failure row. */
  schemasLabel: string | undefined;
}

/**
 * The release a log's format version points to. Format 0: 0.1.0-rc.8 and 0.1.1-rc.2; 3: 0.1.5; 4: 0.1.7 and 0.2.x.
 * Headers without a version and format 1 come from June-July 2026 dev builds that predate rc.8's format 0
 * (their events have the same shapes): rc.8's schemas are the closest captured ones and are used, said so per row.
 */
export function releaseOfFormat(format: number | undefined): LogRelease {
  if (format === 0)
    return {
      format,
      label: 'DSH 0.1.0-rc.8 / 0.1.1-rc.2 (log format 0)',
      schemas: RC8_TOOL_SCHEMAS,
      schemasLabel: 'tool schemas of DSH 0.1.0-rc.8 (log format 0)',
    };
  if (format === undefined || format === 1)
    return {
      format,
      label: `DSH dev build before 0.1.0-rc.8 (log format ${format ?? 'none'})`,
      schemas: RC8_TOOL_SCHEMAS,
      schemasLabel: `tool schemas of DSH 0.1.0-rc.8, the closest captured release (dev build, log format ${format ?? 'none'})`,
    };
  if (format === 3) return { format, label: 'DSH 0.1.5 (log format 3)', schemas: undefined, schemasLabel: undefined };
  if (format === 4)
    return { format, label: 'DSH 0.1.7 / 0.2.x (log format 4)', schemas: undefined, schemasLabel: undefined };
  return { format, label: `unknown DSH log format ${format}`, schemas: undefined, schemasLabel: undefined };
}

/**
 * Log events of one settled Code-Mode sub-call: `tool/code-dispatch` (rc.8 to 0.1.x, Code Mode named `code`) and
 * `tool/ptc-dispatch` (0.1.7 and 0.2.x, Code Mode named `ptc`; it may carry `error: { name, code }`).
 * The plugin hooks were renamed with them (`tools/code-dispatch-log` → `tools/ptc-dispatch-log`); logs hold events only.
 */
export const SUB_CALL_EVENTS: ReadonlySet<string> = new Set(['tool/code-dispatch', 'tool/ptc-dispatch']);

/** A class of failures that is a host decision or a host state: no repair of the call's name or arguments changes it. */
export interface HostDecisionClass {
  id: string;
  label: string;
  codes: readonly string[];
  /** Message shapes (the error text without `Error: `) of the host's plain Errors of this class, which carry no code. */
  messages: readonly RegExp[];
}

/** Checked in order; the first class that matches the error's code or text settles it. Captured texts: docs/host-facts.md. */
export const HOST_DECISION_CLASSES: readonly HostDecisionClass[] = [
  {
    id: 'policy',
    label: 'denied by a policy of the session',
    codes: ['POLICY_DENIED'],
    messages: [
      /^\S+ is disabled by (\w+ )?policy/,
      /^tool output rejected by (\w+ )?policy/,
      /requires manual approval/,
    ],
  },
  {
    id: 'user',
    label: 'the user said no',
    codes: ['ASK_CANCELLED', 'USER_REJECTED'],
    messages: [/^the user rejected /i, /^The user chose to keep planning/, /was cancelled by the user/],
  },
  {
    id: 'sandbox',
    label: 'sandbox denied or unavailable',
    codes: ['FS_SANDBOX_DENIED', 'SANDBOX_UNAVAILABLE', 'SANDBOX_DENIED'],
    messages: [/^\[sandbox: /, /no sandbox backend is usable/],
  },
  {
    id: 'hook',
    label: 'blocked by a hook',
    codes: ['HOOK_BLOCKED', 'HOOK_DENIED'],
    messages: [/\b(blocked|denied|rejected) by (a |the )?(\S+ )?hook\b/i, /^hook \S+ (blocked|denied)/i],
  },
  {
    id: 'abort',
    label: 'aborted or interrupted',
    codes: ['ABORTED', 'ABORTED_BEFORE_DISPATCH', 'TOOL_OUTCOME_UNKNOWN'],
    messages: [/^command aborted/, /^tool call aborted/, /^tool call skipped because the step was aborted/],
  },
  {
    id: 'pty',
    label: 'no such terminal (PTY) session',
    codes: [],
    messages: [/^unknown PTY session /, /^no PTY backend registered /],
  },
  {
    id: 'subagent',
    label: 'subagent limits and state',
    codes: ['NOT_RESUMABLE', 'DELEGATED_CALLER'],
    messages: [
      /^subagent depth \d+ exceeds maxDepth \d+/,
      /^subagent run (failed|hit its token limit)/,
      /^subagent ".*" is unavailable/,
      /^unknown task /,
    ],
  },
  {
    id: 'limit',
    label: 'a host limit (background tasks, image size or input)',
    codes: [],
    messages: [/^background task limit reached/, /exceeds the \d+px limit/, /does not declare image input/],
  },
];

/** Host decision texts are one short sentence: only the head of a (possibly huge) error text is matched. */
const DECISION_TEXT_CHARS = 2048;

/** The host-decision class of a failure, from its code first, else its message; undefined when none matches. */
export function hostDecisionOf(code: string | undefined, message: string): HostDecisionClass | undefined {
  if (code) {
    const byCode = HOST_DECISION_CLASSES.find((entry) => entry.codes.includes(code));
    if (byCode) return byCode;
  }
  const head = message.slice(0, DECISION_TEXT_CHARS);
  return HOST_DECISION_CLASSES.find((entry) => entry.messages.some((pattern) => pattern.test(head)));
}

/** Model names of DSH's own test mocks (the shared real-log set names `smoke-model`, `cli-mock` and `fixture`). */
const MOCK_MODELS = /^(smoke-model|cli-mock|fixture)$|mock/i;

/**
 * True when a request's recorded usage is a test mock's, not a provider's: a mock model name, or a usage with no
 * cache field and at most 16 input tokens (DSH's scripted test models report 1-10 input tokens and no cache; the
 * DeepSeek API always reports `cacheReadTokens`, 0 included, and no real request with a system prompt is that small).
 */
export function isMockUsage(model: string | undefined, usage: Record<string, unknown>): boolean {
  if (model && MOCK_MODELS.test(model)) return true;
  const input = typeof usage.inputTokens === 'number' ? usage.inputTokens : 0;
  return usage.cacheReadTokens === undefined && usage.cacheWriteTokens === undefined && input <= 16;
}
