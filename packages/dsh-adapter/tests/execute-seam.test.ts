/**
 * Seams 2-4 through the real DSH tool runtime and the real fs tools: recoveries run as nested calls through the
 * whole host pipeline (the observation policy accepts the nested read), each ends in ONE model-visible result;
 * FS_STALE_VERSION and cancelled calls are never retried; errors nobody healed keep their text and gain one
 * hint; the plugin's own nested calls are never healed again; a plugin failure never costs the host's result.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools';
import { bootHost, type Host } from './support/composition.js';

let host: Host | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await host?.dispose();
  host = undefined;
});

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

describe('FS_NOT_OBSERVED: read, then retry once', () => {
  it('edit of an unread file lands and the model sees one success', async () => {
    host = await bootHost();
    const path = host.file('existing.txt', 'alpha\nbeta\n');
    const result = await host.execute(
      'edit',
      { file_path: path, old_string: 'alpha', new_string: 'ALPHA' },
      { callId: 'n_e_edit_unread' },
    );
    expect(result.isError).toBe(false);
    expect(text(result)).toContain('has been updated successfully');
    expect(readFileSync(path, 'utf8')).toBe('ALPHA\nbeta\n');
    const nested = host.results.filter((entry) => entry.callId.startsWith('n_e_edit_unread:heal:'));
    expect(nested.map((entry) => [entry.callId, entry.name, entry.parent])).toEqual([
      ['n_e_edit_unread:heal:1', 'read', true],
      ['n_e_edit_unread:heal:2', 'edit', true],
    ]);
  });

  it('write over an unread file is never retried: the model sees the error, the file as read shows it, and one hint', async () => {
    host = await bootHost();
    const path = host.file('existing.txt', 'old line 1\nold line 2\n');
    const result = await host.execute('write', { file_path: path, content: 'new\n' }, { callId: 'w1' });
    const original = `cannot overwrite existing "${path}" without reading it first — read the file, then retry`;
    expect(result.isError).toBe(true);
    expect(result.error?.info).toEqual({ name: 'FsError', code: 'FS_NOT_OBSERVED' });
    expect(result.error?.message.startsWith(`${original}\n`)).toBe(true);
    expect(text(result)).toBe(`Error: ${result.error?.message}`);
    // The file's content in the shape the host's read renders it, then exactly one hint.
    const read = host.results.find((entry) => entry.callId === 'w1:heal:1');
    expect(read?.name).toBe('read');
    expect(read?.result.isError).toBe(false);
    expect(result.error?.message).toBe(
      `${original}\n${text(read!.result)}\nHint: nothing was written; you have now seen the file's current content (above); resend the write if you still mean to replace it.`,
    );
    expect(text(read!.result)).toContain('old line 2');
    expect(readFileSync(path, 'utf8')).toBe('old line 1\nold line 2\n');
    expect(host.results.map((entry) => entry.callId)).toEqual(['w1:heal:1', 'w1']);
    // The observation was real: the same write, resent, lands.
    const resent = await host.execute('write', { file_path: path, content: 'new\n' });
    expect(resent.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('new\n');
  });

  it('a refused write whose read fails claims nothing was shown (no "you have now seen the file" hint)', async () => {
    host = await bootHost();
    host.ctx.on('tools/pre-execute', async (exec, next) =>
      exec.name === 'read' ? { kind: 'deny', reason: 'reads are disabled' } : next(),
    );
    const path = host.file('existing.txt', 'old\n');
    const result = await host.execute('write', { file_path: path, content: 'new\n' }, { callId: 'w3' });
    expect(result.error?.info?.code).toBe('FS_NOT_OBSERVED');
    expect(result.error?.message).toBe(
      `cannot overwrite existing "${path}" without reading it first — read the file, then retry`,
    );
    expect(host.results.find((entry) => entry.callId === 'w3:heal:1')?.result.isError).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('old\n');
  });

  it('a refused write of a long file shows a bounded excerpt (at most 200 lines, as read renders them)', async () => {
    host = await bootHost();
    const path = host.file('long.txt', Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n'));
    const result = await host.execute('write', { file_path: path, content: 'x' });
    expect(result.error?.info?.code).toBe('FS_NOT_OBSERVED');
    expect(result.error?.message).toContain('line 200');
    expect(result.error?.message).not.toContain('line 201\n');
    expect(result.error?.message.length).toBeLessThan(14_000);
  });

  it('autoObserveFiles off: a refused write is left exactly as the host wrote it', async () => {
    host = await bootHost({ plugin: { autoObserveFiles: false, errorHints: false } });
    const path = host.file('existing.txt', 'old\n');
    const result = await host.execute('write', { file_path: path, content: 'new\n' }, { callId: 'w2' });
    expect(text(result)).toBe(
      `Error: cannot overwrite existing "${path}" without reading it first — read the file, then retry`,
    );
    expect(host.results.map((entry) => entry.callId)).toEqual(['w2']);
  });

  it('a retry that still fails answers with its own error, and is not healed again', async () => {
    host = await bootHost();
    const path = host.file('existing.txt', 'alpha\n');
    const result = await host.execute(
      'edit',
      { file_path: path, old_string: 'nowhere', new_string: 'x' },
      { callId: 'anchor' },
    );
    expect(result.isError).toBe(true);
    expect(result.error?.info?.code).toBe('FS_EDIT_NOT_FOUND');
    expect(
      host.results.filter((entry) => entry.callId.startsWith('anchor:heal:')).map((entry) => entry.callId),
    ).toEqual(['anchor:heal:1', 'anchor:heal:2']);
    expect(readFileSync(path, 'utf8')).toBe('alpha\n');
  });

  it('does nothing with autoObserveFiles off', async () => {
    host = await bootHost({ plugin: { autoObserveFiles: false, errorHints: false } });
    const path = host.file('existing.txt', 'alpha\n');
    const result = await host.execute('edit', { file_path: path, old_string: 'alpha', new_string: 'A' });
    expect(result.error?.info?.code).toBe('FS_NOT_OBSERVED');
    expect(readFileSync(path, 'utf8')).toBe('alpha\n');
  });
});

describe('FS_STALE_VERSION: never re-applied', () => {
  it('refreshes the observation, keeps the newer file and answers with the original error plus a hint', async () => {
    host = await bootHost();
    const path = host.file('stale.txt', 'one\n');
    expect((await host.execute('read', { file_path: path })).isError).toBe(false);
    writeFileSync(path, 'one changed elsewhere\n');
    const result = await host.execute(
      'edit',
      { file_path: path, old_string: 'one', new_string: 'ONE' },
      { callId: 'stale' },
    );
    expect(result.isError).toBe(true);
    const original = `cannot edit "${path}": file changed since it was read — re-read the file, then retry`;
    expect(text(result).startsWith(`Error: ${original}`)).toBe(true);
    expect(text(result).length).toBeGreaterThan(`Error: ${original}`.length);
    expect(readFileSync(path, 'utf8')).toBe('one changed elsewhere\n');
    expect(host.results.filter((entry) => entry.callId.startsWith('stale:heal:')).map((entry) => entry.name)).toEqual([
      'read',
    ]);
  });
});

describe('str_replace_editor', () => {
  it('view_range past the end is clamped to the reported line count in one round-trip', async () => {
    host = await bootHost();
    const path = host.file('ten.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const result = await host.execute('str_replace_editor', { command: 'view', path, view_range: [5, 99] });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain('line 10');
  });

  it('a relative path in an inner Code-Mode sub-call is resolved against the session cwd', async () => {
    host = await bootHost({ mode: 'code' });
    host.file('guide.md', 'hello guide\n');
    const outer = Symbol('dsh.tool.execution');
    const result = await host.execute(
      'str_replace_editor',
      { command: 'view', path: 'guide.md' },
      { callId: 'outer:code:1', parent: outer },
    );
    expect(result.isError).toBe(false);
    expect(text(result)).toContain('hello guide');
  });
});

describe('a retry the host cannot render for the original arguments', () => {
  it('an inner read({path}) gets the host\'s own error, never "output.render failed"', async () => {
    host = await bootHost({ mode: 'code' });
    const path = host.file('guide.md', 'hello guide\n');
    const outer = Symbol('dsh.tool.execution');
    const result = await host.execute('read', { path }, { callId: 'outer:code:1', rootCallId: 'outer', parent: outer });
    expect(result.isError).toBe(true);
    expect(result.error?.message).not.toContain('render');
    expect(result.error?.message.startsWith('invalid arguments: missing required property "file_path"')).toBe(true);
    // The retry did run (and read the file): its value was not answered because read renders from the call's
    // own arguments (parseReadArgs), which lack file_path.
    const retry = host.results.find((entry) => entry.callId === 'outer:code:1:heal:1');
    expect(retry?.name).toBe('read');
    expect(retry?.result.isError).toBe(false);
  });

  it('a top-level read({path}) in native mode is answered the same way', async () => {
    host = await bootHost();
    const path = host.file('guide.md', 'hello guide\n');
    const result = await host.execute('read', { path }, { callId: 'r1' });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('render failed');
    expect(text(result).startsWith('Error: invalid arguments: missing required property "file_path"')).toBe(true);
  });
});

describe('unknown tools', () => {
  it('are not recovered at execution: the host would turn the success back into UNKNOWN_TOOL after side effects', async () => {
    host = await bootHost();
    const path = host.file('fixture.txt', 'line 1\n');
    const result = await host.execute('write_file', { file_path: path, content: 'clobbered\n' }, { callId: 'u1' });
    expect(text(result).startsWith('Error: unknown tool "write_file"')).toBe(true);
    expect(host.results.map((entry) => entry.callId)).toEqual(['u1']);
    expect(readFileSync(path, 'utf8')).toBe('line 1\n');
  });
});

describe('cancellation', () => {
  it('never retries a cancelled call', async () => {
    host = await bootHost();
    const path = host.file('existing.txt', 'alpha\n');
    const controller = new AbortController();
    controller.abort();
    const result = await host.execute(
      'edit',
      { file_path: path, old_string: 'alpha', new_string: 'A' },
      { callId: 'cancelled', signal: controller.signal },
    );
    expect(result.isError).toBe(true);
    expect(host.results.some((entry) => entry.callId.startsWith('cancelled:heal:'))).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('alpha\n');
  });
});

describe('hints and trimming (tools/post-execute)', () => {
  it('keeps the original error text byte-identical as a prefix and adds one hint', async () => {
    host = await bootHost();
    const path = host.file('a.txt', 'alpha\nbeta\n');
    const result = await host.execute('read', { file_path: path, offset: 50 });
    const original = `offset 50 is out of range for "${path}" (2 lines)`;
    expect(result.isError).toBe(true);
    expect(text(result).startsWith(`Error: ${original}`)).toBe(true);
    expect(text(result)).not.toBe(`Error: ${original}`);
    expect(text(result).match(/Hint:/g)).toHaveLength(1);
  });

  it('adds no hint where the engine has nothing actionable to say (anchor failures)', async () => {
    host = await bootHost();
    const path = host.file('a.txt', 'alpha\n');
    await host.execute('read', { file_path: path });
    const result = await host.execute('edit', { file_path: path, old_string: 'absent', new_string: 'x' });
    expect(text(result)).toBe(`Error: old_string was not found in "${path}"`);
  });

  it('keeps an inner Code-Mode sub-call error a byte-identical prefix of what its program catches (no "Error: " added)', async () => {
    host = await bootHost({ mode: 'both' });
    const path = host.file('a.txt', 'alpha\nbeta\n');
    const outer = Symbol('dsh.tool.execution');
    const result = await host.execute(
      'read',
      { file_path: path, offset: 50 },
      { callId: 'outer:code:1', rootCallId: 'outer', parent: outer },
    );
    const original = `offset 50 is out of range for "${path}" (2 lines)`;
    expect(result.isError).toBe(true);
    // The run_code bridge rejects the program's promise with exactly error.message.
    expect(result.error?.message.startsWith(`${original}\nHint:`)).toBe(true);
  });

  it('shows the host error unchanged when errorHints is off', async () => {
    host = await bootHost({ plugin: { errorHints: false } });
    const path = host.file('a.txt', 'alpha\nbeta\n');
    const result = await host.execute('read', { file_path: path, offset: 50 });
    expect(text(result)).toBe(`Error: offset 50 is out of range for "${path}" (2 lines)`);
  });
});

describe('stack-frame trimming', () => {
  const frames =
    '\n    at dispatch (/home/u/.dsh/profiles/node_modules/.pnpm/@deepseek-ai+dsh-tools@0.1.0-rc.8/node_modules/@deepseek-ai/dsh-tools/lib/index.js:3165:12)\n    at async run (/home/u/.dsh/profiles/node_modules/.pnpm/x@1/node_modules/x/worker.cjs:10:5)';
  const register = (h: Host) =>
    h.ctx.tools.register(
      defineContentToolFixture({
        name: 'flaky',
        description: 'fails with a stack trace',
        parameters: {},
        async execute() {
          throw new Error(`backend exploded${frames}`);
        },
      }),
    );

  it('removes frames pointing into the package store and keeps the message', async () => {
    host = await bootHost();
    register(host);
    const result = await host.execute('flaky', {});
    expect(text(result).startsWith('Error: backend exploded')).toBe(true);
    expect(text(result)).not.toContain('.pnpm');
  });

  it('keeps them with trimStackTraces off', async () => {
    host = await bootHost({ plugin: { trimStackTraces: false } });
    register(host);
    const result = await host.execute('flaky', {});
    expect(text(result)).toBe(`Error: backend exploded${frames}`);
  });
});

describe('valid calls are untouched', () => {
  it('a successful call returns the host result with the same content as without the plugin', async () => {
    const withPlugin = await bootHost();
    const without = await bootHost({ plugin: false });
    try {
      const a = withPlugin.file('a.txt', 'alpha\nbeta\n');
      const b = without.file('a.txt', 'alpha\nbeta\n');
      const left = await withPlugin.execute('read', { file_path: a });
      const right = await without.execute('read', { file_path: b });
      expect(text(left).replace(withPlugin.dir, '<dir>')).toBe(text(right).replace(without.dir, '<dir>'));
      expect(withPlugin.results).toHaveLength(1);
    } finally {
      await withPlugin.dispose();
      await without.dispose();
    }
  });
});

describe('fail open', () => {
  it('a plugin exception while recovering keeps the host error and is counted', async () => {
    host = await bootHost();
    const path = host.file('existing.txt', 'alpha\n');
    vi.spyOn(host.ctx.tools, 'schemas').mockImplementation(() => {
      throw new Error('boom inside the plugin');
    });
    const result = await host.execute('edit', { file_path: path, old_string: 'alpha', new_string: 'A' });
    expect(result.isError).toBe(true);
    expect(result.error?.info?.code).toBe('FS_NOT_OBSERVED');
    expect(text(result).startsWith(`Error: edit requires reading "${path}" first`)).toBe(true);
  });
});
