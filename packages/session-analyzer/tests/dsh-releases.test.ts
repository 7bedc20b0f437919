/**
 * What the analyzer knows about DSH releases: the format-to-release table, the rc.8 tool schemas it stands in with
 * (equal to the captures of the real host, descriptions aside), the host-decision classes read from the exact error
 * texts real DSH logs carry, and the mock-usage flag.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hostDecisionOf, isMockUsage, releaseOfFormat } from '../src/index.js';
import { RC8_TOOL_SCHEMAS } from '../src/release-tools.js';
import { cpuMsSince } from '../../../vitest.shared.js';

const dropDescriptions = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(dropDescriptions)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([key, item]) => !(['description', 'examples', 'title'].includes(key) && typeof item === 'string'))
            .map(([key, item]) => [key, dropDescriptions(item)]),
        )
      : value;

describe('DSH releases', () => {
  it.each([
    [0, '0.1.0-rc.8', true],
    [undefined, 'dev build', true],
    [1, 'dev build', true],
    [3, '0.1.5', false],
    [4, '0.2.x', false],
    [7, 'unknown DSH log format 7', false],
  ])('log format %s is %s (stand-in schemas: %s)', (format, label, schemas) => {
    const release = releaseOfFormat(format);
    expect(release.label).toContain(label);
    expect(release.schemas !== undefined).toBe(schemas);
  });

  it('stands in with the tool schemas real DSH rc.8 presented (tests/fixtures captures)', () => {
    const captured = ['native-tool-schemas.json', 'code-tool-schemas.json'].flatMap(
      (name) =>
        JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as {
          function: { name: string; parameters: unknown };
        }[],
    );
    expect(RC8_TOOL_SCHEMAS).toEqual(
      captured.map((tool) => ({ name: tool.function.name, parameters: dropDescriptions(tool.function.parameters) })),
    );
  });

  // error texts as real DSH logs carry them (the shared set of real logs), and the codes DSH gives
  it.each([
    ['bash is disabled by policy in this session', undefined, 'policy'],
    ['bash is disabled by codex policy in this session', undefined, 'policy'],
    ['tool output rejected by policy: retry once', undefined, 'policy'],
    ['bash requires manual approval in this session', undefined, 'policy'],
    ['the user rejected tool "bash"', undefined, 'user'],
    ['the user rejected escalating this command to "danger-full-access"', undefined, 'user'],
    ['ask_user_question was cancelled by the user', 'ASK_CANCELLED', 'user'],
    ['[sandbox: file access denied under read-only mode]', 'FS_SANDBOX_DENIED', 'sandbox'],
    ['tool call aborted before dispatch', 'ABORTED_BEFORE_DISPATCH', 'abort'],
    ['command aborted', undefined, 'abort'],
    ['unknown PTY session pty-missing', undefined, 'pty'],
    ['no PTY backend registered for "shell"', undefined, 'pty'],
    ['subagent depth 3 exceeds maxDepth 2', undefined, 'subagent'],
    ['subagent "2222" is unavailable', 'NOT_RESUMABLE', 'subagent'],
    ['background task limit reached for this owner (limit: 1)', undefined, 'limit'],
    ['tool call blocked by the PostToolUse hook', undefined, 'hook'],
    ['invalid arguments: missing required property "description"', 'INVALID_ARGS', undefined],
    ['edit requires reading "/w/a" first', 'FS_NOT_OBSERVED', undefined],
    ['unknown tool "read"', 'UNKNOWN_TOOL', undefined],
  ])('%s (%s) is a host decision: %s', (message, code, id) => {
    expect(hostDecisionOf(code, message)?.id).toBe(id);
  });

  it('matches only the head of a huge error text (30 MB finishes well under 2 s)', () => {
    const start = process.cpuUsage();
    expect(hostDecisionOf(undefined, 'blocked by '.repeat(3_000_000))).toBeUndefined();
    expect(hostDecisionOf(undefined, `unknown PTY session p1${' '.repeat(30_000_000)}`)?.id).toBe('pty');
    // CPU time, not wall time: a hang bound a loaded machine does not inflate.
    expect(cpuMsSince(start)).toBeLessThan(2_000);
  });

  it.each([
    ['deepseek-v4-flash', { inputTokens: 10, outputTokens: 5 }, true],
    ['deepseek-v4-flash', { inputTokens: 3, outputTokens: 3 }, true],
    ['smoke-model', { inputTokens: 2000, outputTokens: 5, cacheReadTokens: 0 }, true],
    ['deepseek-v4-flash', { inputTokens: 48, outputTokens: 21, cacheReadTokens: 2816 }, false],
    ['deepseek-v4-flash', { inputTokens: 2878, outputTokens: 83, cacheReadTokens: 0 }, false],
    ['deepseek-v4-flash', { inputTokens: 4, outputTokens: 5, cacheReadTokens: 9000 }, false],
  ])('usage of %s %j is a mock: %s', (model, usage, mock) => {
    expect(isMockUsage(model, usage)).toBe(mock);
  });
});
