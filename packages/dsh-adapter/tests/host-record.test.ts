/**
 * The host's record stays whole (issue: hinted errors lost `error.info`). Through the real DSH tool runtime and the
 * real fs and editor tools, the same failing calls run with and without the plugin: every error the plugin explains
 * keeps the host's `error` object (code, name) and differs only by text appended to the host's message; with
 * `errorHints` and `trimStackTraces` off the results are identical to having no plugin. A recovered edit carries the
 * same presentation metadata a direct edit has. Identical failures escalate their hint, in bounded memory.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import { bootHost, type Host } from './support/composition.js';
import { PluginErrors } from '../src/plugin-errors.js';

const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
});

async function boot(options: Parameters<typeof bootHost>[0] = {}): Promise<Host> {
  const host = await bootHost(options);
  hosts.push(host);
  return host;
}

function text(result: ToolExecutionResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Failing calls of several classes, each in a fresh workspace layout (a, b are files; nothing is read first). */
const failingCalls: {
  what: string;
  name: string;
  args: (dir: string) => unknown;
  prepare?: (host: Host) => Promise<void>;
}[] = [
  { what: 'INVALID_ARGS (write without content)', name: 'write', args: (dir) => ({ file_path: `${dir}/new.txt` }) },
  { what: 'INVALID_ARGS (read without file_path)', name: 'read', args: () => ({ limit: 3 }) },
  { what: 'UNKNOWN_TOOL (a name registered nowhere)', name: 'frobnicate', args: () => ({}) },
  {
    what: 'FS_NOT_FOUND (read offset past the end)',
    name: 'read',
    args: (dir) => ({ file_path: `${dir}/a.txt`, offset: 50 }),
  },
  { what: 'FS_NOT_FOUND (no such file)', name: 'read', args: (dir) => ({ file_path: `${dir}/missing.txt` }) },
  {
    what: 'FS_EDIT_NOT_FOUND (anchor missing after a read)',
    name: 'edit',
    args: (dir) => ({ file_path: `${dir}/a.txt`, old_string: 'absent', new_string: 'x' }),
    prepare: async (host) => {
      await host.execute('read', { file_path: `${host.dir}/a.txt` });
    },
  },
  {
    what: 'editor view_range malformed (plain Error, no info)',
    name: 'str_replace_editor',
    args: (dir) => ({ command: 'view', path: `${dir}/a.txt`, view_range: [0] }),
  },
];

async function runBoth(
  call: (typeof failingCalls)[number],
  plugin: NonNullable<Parameters<typeof bootHost>[0]>['plugin'],
) {
  const results: ToolExecutionResult[] = [];
  const dirs: string[] = [];
  for (const options of [{ plugin: false as const }, { plugin }]) {
    const host = await boot(options);
    host.file('a.txt', 'alpha\nbeta\n');
    await call.prepare?.(host);
    results.push(await host.execute(call.name, call.args(host.dir), { callId: 'same' }));
    dirs.push(host.dir);
  }
  const [without, withPlugin] = results as [ToolExecutionResult, ToolExecutionResult];
  // The workspace paths differ between the two hosts; compare with the path normalised.
  const normalise = (value: unknown, dir: string) =>
    JSON.parse(JSON.stringify(value).replaceAll(dir, '<ws>')) as unknown;
  return {
    without: normalise(without, dirs[0]!) as ToolExecutionResult,
    withPlugin: normalise(withPlugin, dirs[1]!) as ToolExecutionResult,
  };
}

describe('an explained error keeps the host error object', () => {
  it.each(failingCalls.map((call) => [call.what, call] as const))('%s', async (_what, call) => {
    const { without, withPlugin } = await runBoth(call, {});
    expect(without.isError).toBe(true);
    expect(withPlugin.isError).toBe(true);
    // Same structured error: every field but the message is the host's, and info (code, name) is identical.
    const { message: hostMessage, ...hostRest } = without.error!;
    const { message: ourMessage, ...ourRest } = withPlugin.error!;
    expect(ourRest).toEqual(hostRest);
    // The message is the host's, then appended text (the hint) only.
    expect(ourMessage.startsWith(hostMessage)).toBe(true);
    // What the model reads is the host's `Error: <message>` block with the same appended text.
    expect(text(withPlugin)).toBe(`Error: ${ourMessage}`);
    expect(text(without)).toBe(`Error: ${hostMessage}`);
    if (ourMessage !== hostMessage) expect(ourMessage.slice(hostMessage.length)).toMatch(/^\nHint: [^\n]+$/);
    expect(withPlugin.meta).toEqual(without.meta);
  });

  it('INVALID_ARGS, UNKNOWN_TOOL and FS_NOT_FOUND errors do get a hint (the comparison above is not vacuous)', async () => {
    for (const call of failingCalls.slice(0, 4)) {
      const { without, withPlugin } = await runBoth(call, {});
      expect(withPlugin.error?.message.length, call.what).toBeGreaterThan(without.error!.message.length);
      expect(withPlugin.error?.info?.code, call.what).toBe(without.error?.info?.code);
      expect(withPlugin.error?.info?.code, call.what).toMatch(/^(INVALID_ARGS|UNKNOWN_TOOL|FS_NOT_FOUND)$/);
    }
  });

  it.each(failingCalls.map((call) => [call.what, call] as const))(
    'errorHints and trimStackTraces off: identical to no plugin (%s)',
    async (_what, call) => {
      const { without, withPlugin } = await runBoth(call, {
        errorHints: false,
        trimStackTraces: false,
        breakLoops: false,
      });
      expect(withPlugin).toEqual(without);
    },
  );
});

/** The host's own result for the same calls on a fresh host without the plugin (the last call's result). */
async function hostAlone(
  calls: { name: string; args: (dir: string) => unknown }[],
): Promise<{ result: ToolExecutionResult; dir: string }> {
  const host = await boot({ plugin: false });
  host.file('a.txt', 'alpha\nbeta\n');
  let result: ToolExecutionResult | undefined;
  for (const call of calls) result = await host.execute(call.name, call.args(host.dir), { callId: 'same' });
  return { result: result!, dir: host.dir };
}

const withoutDir = (value: unknown, dir: string) =>
  JSON.parse(JSON.stringify(value).replaceAll(dir, '<ws>')) as unknown;

const HINTS_OFF = { errorHints: false, trimStackTraces: false } as const;

describe('errorHints and trimStackTraces off, every recovery switch on: each error is the host result', () => {
  /** Each failure class the plugin touches; `healed` is what the host returns for the call the recovery runs. */
  const classes: {
    what: string;
    name: string;
    args: (dir: string) => unknown;
    healed?: { name: string; args: (dir: string) => unknown }[];
  }[] = [
    {
      what: 'write over an unread file (FS_NOT_OBSERVED)',
      name: 'write',
      args: (dir) => ({ file_path: `${dir}/a.txt`, content: 'new\n' }),
    },
    {
      what: 'edit of an unread file (FS_NOT_OBSERVED): read, then retried',
      name: 'edit',
      args: (dir) => ({ file_path: `${dir}/a.txt`, old_string: 'alpha', new_string: 'ALPHA' }),
      healed: [
        { name: 'read', args: (dir) => ({ file_path: `${dir}/a.txt` }) },
        { name: 'edit', args: (dir) => ({ file_path: `${dir}/a.txt`, old_string: 'alpha', new_string: 'ALPHA' }) },
      ],
    },
    {
      what: 'edit of an unread file whose anchor is missing: the retry fails, with the host error of that retry',
      name: 'edit',
      args: (dir) => ({ file_path: `${dir}/a.txt`, old_string: 'absent', new_string: 'x' }),
      healed: [
        { name: 'read', args: (dir) => ({ file_path: `${dir}/a.txt` }) },
        { name: 'edit', args: (dir) => ({ file_path: `${dir}/a.txt`, old_string: 'absent', new_string: 'x' }) },
      ],
    },
    {
      what: 'view_range past EOF: clamped',
      name: 'str_replace_editor',
      args: (dir) => ({ command: 'view', path: `${dir}/a.txt`, view_range: [1, 99] }),
      healed: [
        { name: 'str_replace_editor', args: (dir) => ({ command: 'view', path: `${dir}/a.txt`, view_range: [1, 3] }) },
      ],
    },
    {
      what: 'view_range malformed',
      name: 'str_replace_editor',
      args: (dir) => ({ command: 'view', path: `${dir}/a.txt`, view_range: [0] }),
    },
    {
      what: 'invalid arguments (write without content)',
      name: 'write',
      args: (dir) => ({ file_path: `${dir}/new.txt` }),
    },
    { what: 'unknown tool', name: 'frobnicate', args: () => ({}) },
    {
      what: 'read past the end (FS_NOT_FOUND)',
      name: 'read',
      args: (dir) => ({ file_path: `${dir}/a.txt`, offset: 50 }),
    },
  ];

  it.each(classes.map((entry) => [entry.what, entry] as const))('%s', async (_what, entry) => {
    const host = await boot({ plugin: HINTS_OFF });
    host.file('a.txt', 'alpha\nbeta\n');
    const ours = withoutDir(
      await host.execute(entry.name, entry.args(host.dir), { callId: 'same' }),
      host.dir,
    ) as ToolExecutionResult;
    const expected = await hostAlone(entry.healed ?? [entry]);
    const theirs = withoutDir(expected.result, expected.dir) as ToolExecutionResult;
    if (ours.isError) {
      // An error the model sees is the host's, byte for byte: the error object, the content, the meta.
      expect(ours).toEqual(theirs);
    } else {
      // A recovery: the success is what the host answers for the call the recovery ran.
      expect(entry.healed).toBeDefined();
      expect(theirs.isError).toBe(false);
      expect(text(ours)).toBe(text(theirs));
    }
    expect(text(ours)).not.toMatch(/\nHint: /);
  });

  it('the refused write is not read behind the model: nothing is added, and a blind resend is refused again', async () => {
    const host = await boot({ plugin: HINTS_OFF });
    const path = host.file('a.txt', 'alpha\nbeta\n');
    const first = await host.execute('write', { file_path: path, content: 'new\n' }, { callId: 'w1' });
    expect(text(first)).toBe(
      `Error: cannot overwrite existing "${path}" without reading it first — read the file, then retry`,
    );
    expect(host.results.filter((entry) => entry.callId.startsWith('w1:heal:'))).toEqual([]);
    const resend = await host.execute('write', { file_path: path, content: 'new\n' }, { callId: 'w2' });
    expect(resend.error?.info?.code).toBe('FS_NOT_OBSERVED');
    expect(readFileSync(path, 'utf8')).toBe('alpha\nbeta\n');
    // With hints on, the same call is read through the host and shown (the comparison above can fail).
    const hinted = await boot();
    const other = hinted.file('a.txt', 'alpha\nbeta\n');
    const shown = await hinted.execute('write', { file_path: other, content: 'new\n' }, { callId: 'w1' });
    expect(text(shown)).toContain('1: alpha');
    expect(hinted.results.filter((entry) => entry.callId.startsWith('w1:heal:')).length).toBe(1);
  });

  it('breakLoops on: an identical failure sent three times is the host result each time, and no repeat is recorded', async () => {
    const host = await boot({ plugin: HINTS_OFF, web: true });
    const plain = await boot({ plugin: false });
    for (const n of [1, 2, 3]) {
      const ours = await host.execute('write', { file_path: `${host.dir}/new.txt` }, { callId: `r${n}` });
      const theirs = await plain.execute('write', { file_path: `${plain.dir}/new.txt` }, { callId: `r${n}` });
      expect(withoutDir(ours, host.dir)).toEqual(withoutDir(theirs, plain.dir));
    }
    const stats = await host.stats();
    expect(stats.totals.repeatsCaught).toBe(0);
    expect(stats.recent.filter((event) => event.repeat !== undefined)).toEqual([]);
  });
});

describe("autoObserveFiles off: FS_NOT_OBSERVED results are the host's, with at most the hint appended", () => {
  // dsh-tool-fs already says "read the file, then retry" (no hint adds to that); the editor's text has no remedy.
  it.each([
    ['write', false, (path: string) => ({ file_path: path, content: 'new\n' })],
    ['edit', false, (path: string) => ({ file_path: path, old_string: 'alpha', new_string: 'ALPHA' })],
    [
      'str_replace_editor',
      true,
      (path: string) => ({ command: 'str_replace', path, old_str: 'alpha', new_str: 'ALPHA' }),
    ],
  ] as const)('%s of an unread file (hinted: %s)', async (name, hinted, args) => {
    const host = await boot({ plugin: { autoObserveFiles: false } });
    const plain = await boot({ plugin: false });
    const ours = withoutDir(
      await host.execute(name, args(host.file('a.txt', 'alpha\nbeta\n')), { callId: 'o1' }),
      host.dir,
    ) as ToolExecutionResult;
    const theirs = withoutDir(
      await plain.execute(name, args(plain.file('a.txt', 'alpha\nbeta\n')), { callId: 'o1' }),
      plain.dir,
    ) as ToolExecutionResult;
    expect(ours.error?.info?.code).toBe('FS_NOT_OBSERVED');
    const { message, ...rest } = ours.error!;
    const { message: hostMessage, ...hostRest } = theirs.error!;
    expect(rest).toEqual(hostRest);
    expect(ours.meta).toEqual(theirs.meta);
    if (hinted) expect(message.slice(hostMessage.length)).toMatch(/^\nHint: [^\n]+$/);
    else expect(message).toBe(hostMessage);
    expect(message.startsWith(hostMessage)).toBe(true);
    expect(text(ours)).toBe(`Error: ${message}`);
    // Nothing was read or retried, and the file is unchanged.
    expect(host.results.filter((entry) => entry.callId.startsWith('o1:heal:'))).toEqual([]);
    expect(readFileSync(`${host.dir}/a.txt`, 'utf8')).toBe('alpha\nbeta\n');
  });
});

describe('a recovered call is presented as the tool itself would be', () => {
  it('an edit recovered after FS_NOT_OBSERVED carries the same meta (diffs) as a direct edit after a read', async () => {
    const withPlugin = await boot();
    const without = await boot({ plugin: false });
    const a = withPlugin.file('a.txt', 'alpha\nbeta\n');
    const b = without.file('a.txt', 'alpha\nbeta\n');
    const recovered = await withPlugin.execute(
      'edit',
      { file_path: a, old_string: 'alpha', new_string: 'ALPHA' },
      { callId: 'e1' },
    );
    await without.execute('read', { file_path: b });
    const direct = await without.execute(
      'edit',
      { file_path: b, old_string: 'alpha', new_string: 'ALPHA' },
      { callId: 'e1' },
    );
    expect(recovered.isError).toBe(false);
    expect(readFileSync(a, 'utf8')).toBe('ALPHA\nbeta\n');
    expect(recovered.meta).toBeDefined();
    expect(JSON.stringify(recovered.meta).replaceAll(withPlugin.dir, '<ws>')).toBe(
      JSON.stringify(direct.meta).replaceAll(without.dir, '<ws>'),
    );
    expect(text(recovered).replaceAll(withPlugin.dir, '<ws>')).toBe(text(direct).replaceAll(without.dir, '<ws>'));
    // The nested retry itself has no meta (the host computes it only at top level): the value was re-presented.
    expect(withPlugin.results.find((entry) => entry.callId === 'e1:heal:2')?.result.meta).toBeUndefined();
  });
});

describe('loops: identical failures per session', () => {
  it('the 2nd names what must change, the 3rd says to stop; the host text and error object stay', async () => {
    const host = await boot();
    const path = host.file('a.txt', 'alpha\n');
    await host.execute('read', { file_path: path });
    const original = `old_string was not found in "${path}"`;
    const edit = () => host.execute('edit', { file_path: path, old_string: 'absent', new_string: 'x' });
    const first = await edit();
    expect(first.error?.message).toBe(original);
    const second = await edit();
    expect(second.error?.info?.code).toBe('FS_EDIT_NOT_FOUND');
    expect(second.error?.message).toBe(
      `${original}\nHint: this is the 2nd identical failure of this edit call (same arguments, same error); sending it again unchanged will fail again: the text to replace is not in "${path}": read the file and copy the exact current text into old_string.`,
    );
    const third = await edit();
    expect(third.error?.message).toMatch(
      /^old_string was not found in ".*"\nHint: this is the 3rd identical failure of this edit call \(same arguments, same error\)\. Stop retrying it: change approach .* or ask the user\.$/,
    );
    // Different arguments are a different failure.
    const other = await host.execute('edit', { file_path: path, old_string: 'elsewhere', new_string: 'x' });
    expect(other.error?.message).toBe(`old_string was not found in "${path}"`);
  });

  it('the 2nd missing-field failure names the field', async () => {
    const host = await boot();
    await host.execute('write', { file_path: `${host.dir}/new.txt` });
    const second = await host.execute('write', { file_path: `${host.dir}/new.txt` });
    expect(second.error?.info?.code).toBe('INVALID_ARGS');
    expect(second.error?.message).toMatch(
      /^invalid arguments: missing required property "content"\nHint: this is the 2nd identical failure of this write call .*must include "content"\.$/,
    );
  });

  it('breakLoops off: every repeat gets the ordinary hint', async () => {
    const host = await boot({ plugin: { breakLoops: false } });
    const first = await host.execute('bash', { command: 'echo hi' });
    const second = await host.execute('bash', { command: 'echo hi' });
    expect(second.error?.message).toBe(first.error?.message);
  });

  it('sessions are counted apart, and memory per session is bounded', async () => {
    const host = await boot();
    await host.execute('bash', { command: 'echo hi' });
    const otherAgent = { ...host.agent, id: 'another-session' } as typeof host.agent;
    const elsewhere = await host.ctx.tools.execute({
      callId: 'x' as never,
      name: 'bash',
      arguments: { command: 'echo hi' },
      agent: otherAgent,
      signal: new AbortController().signal,
    });
    expect(elsewhere.error?.message).not.toMatch(/identical failure/);
    for (let i = 0; i < 400; i += 1) await host.execute('bash', { command: `echo ${i}` });
    // The oldest fingerprints were forgotten: the first call counts as new again.
    const again = await host.execute('bash', { command: 'echo hi' });
    expect(again.error?.message).not.toMatch(/identical failure/);
  });

  it('the repeat is recorded in telemetry under hint.repeat-failure', async () => {
    const host = await boot({ web: true });
    await host.execute('write', { file_path: `${host.dir}/new.txt` }, { callId: 'r1' });
    await host.execute('write', { file_path: `${host.dir}/new.txt` }, { callId: 'r2' });
    const recent = (await host.stats()).recent;
    expect(recent.find((event) => event.callId === 'r1')?.ruleIds ?? []).not.toContain('hint.repeat-failure');
    expect(recent.find((event) => event.callId === 'r2')?.ruleIds).toContain('hint.repeat-failure');
    expect(recent.find((event) => event.callId === 'r2')?.outcome).toBe('passthrough-failed');
    expect(recent.find((event) => event.callId === 'r2')?.repeat).toBe(2);
    expect(recent.find((event) => event.callId === 'r1')?.repeat).toBeUndefined();
    expect((await host.stats()).totals.repeatsCaught).toBe(1);
  });
});

describe('errors that never pass tools/execute (a pre-execute denial)', () => {
  it('the first denial is left as the host wrote it; an identical second one gets the loop hint through post-execute', async () => {
    const host = await boot();
    host.ctx.on('tools/pre-execute', async (exec, next) =>
      exec.name === 'write' ? { kind: 'deny', reason: 'writes are disabled by policy' } : next(),
    );
    const path = `${host.dir}/denied.txt`;
    const first = await host.execute('write', { file_path: path, content: 'x' });
    expect(first.isError).toBe(true);
    expect(text(first)).toBe('Error: writes are disabled by policy');
    expect(first.error).toEqual({ message: 'writes are disabled by policy' });
    const second = await host.execute('write', { file_path: path, content: 'x' });
    // A block's message is its feedback text, which carries the `Error: ` the host would have written.
    expect(text(second)).toMatch(
      /^Error: writes are disabled by policy\nHint: this is the 2nd identical failure of this write call/,
    );
    expect(second.error).toEqual({ message: text(second) });
  });
});

describe('PluginErrors never throws', () => {
  it('reports a thrown value whose toString and message getter throw', () => {
    const warnings: string[] = [];
    const errors = new PluginErrors({ warn: (message) => warnings.push(message) });
    const poison = {
      toString: () => {
        throw new Error('no');
      },
    };
    const hostileError = Object.defineProperty(new Error('x'), 'message', {
      get() {
        throw poison;
      },
    });
    expect(() => errors.report('tools/execute', poison)).not.toThrow();
    expect(() => errors.report('tools/execute', hostileError)).not.toThrow();
    expect(() => errors.report('tools/execute', Object.create(null))).not.toThrow();
    expect(errors.count).toBe(3);
    expect(warnings.some((warning) => warning.includes('<unprintable thrown value>'))).toBe(true);
  });
});
