/**
 * Failures that are a host decision or a host state (a policy, the user, the sandbox, a hook, an abort, a missing PTY,
 * subagent and host limits): no repair of a call's name or arguments changes them, so they are settled from the error
 * alone. By error code first, else by the message shapes of the host's plain Errors, which carry no code. The texts
 * are the ones real DSH logs carry (docs/host-facts.md, "Host decisions without a code"; the shared real-log set).
 */

/** A class of failures that is a host decision or a host state. */
export interface HostDecisionClass {
  id: string;
  label: string;
  codes: readonly string[];
  /** Message shapes (the error text without `Error: `) of the host's plain Errors of this class, which carry no code. */
  messages: readonly RegExp[];
}

/** Checked in order; the first class that matches the error's code or text settles it. */
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
  const head = typeof message === 'string' ? message.slice(0, DECISION_TEXT_CHARS) : '';
  return HOST_DECISION_CLASSES.find((entry) => entry.messages.some((pattern) => pattern.test(head)));
}
