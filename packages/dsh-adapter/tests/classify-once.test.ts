/**
 * One failed call is classified once: the seam that explains the error classifies it, and the recovery plan, the
 * failure fingerprint, the hint, the repeat hint and the recorded category all read that classification (they used
 * to make five). Counted on core-rules' own `classifyResult` (mocked with a counting wrapper around the real one,
 * so every caller inside the engine counts too), through the real DSH runtime and tools, with what the model sees and
 * what is recorded checked alongside: behaviour is unchanged.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootHost, type Host } from './support/composition.js';

const counted = vi.hoisted(() => ({ calls: 0 }));

vi.mock('../../core-rules/src/classify.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../core-rules/src/classify.js')>();
  return {
    ...actual,
    classifyResult: (...args: Parameters<typeof actual.classifyResult>) => {
      counted.calls += 1;
      return actual.classifyResult(...args);
    },
  };
});

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

/** Runs one top-level call and returns its result and how many classifications it cost. */
async function classificationsOf(
  run: () => Promise<Awaited<ReturnType<Host['execute']>>>,
): Promise<{ result: Awaited<ReturnType<Host['execute']>>; classifications: number }> {
  counted.calls = 0;
  const result = await run();
  return { result, classifications: counted.calls };
}

async function recorded(callId: string) {
  return (await host!.stats()).recent.find((entry) => entry.callId === callId);
}

describe('a failed call is classified once', () => {
  it('the counter sees the engine classify (the mock is the module every caller uses)', async () => {
    const { classifyResult } = await import('@dsh-tool-normalizer/core-rules');
    counted.calls = 0;
    classifyResult({ name: 'read', arguments: {} }, { isError: false });
    expect(counted.calls).toBe(1);
  });

  it('an error without a recovery: the hint, the repeat hints and the recorded category from one classification each', async () => {
    host = await bootHost({ web: true });
    const path = host.file('a.txt', 'alpha\nbeta\n');
    for (const [index, repeat] of [
      [1, undefined],
      [2, 'this is the 2nd identical failure'],
      [3, 'Stop retrying it'],
    ] as const) {
      const callId = `past_end_${index}`;
      const { result, classifications } = await classificationsOf(() =>
        host!.execute('read', { file_path: path, offset: 50 }, { callId }),
      );
      expect(classifications).toBe(1);
      expect(result.error?.info).toEqual({ name: 'FsError', code: 'FS_NOT_FOUND' });
      expect(result.error?.message.startsWith(`offset 50 is out of range for "${path}"`)).toBe(true);
      if (repeat === undefined) expect(result.error?.message).toContain('Hint: the file has 2 lines');
      else expect(result.error?.message).toContain(repeat);
      expect(await recorded(callId)).toMatchObject({
        outcome: 'passthrough-failed',
        category: 'read-range',
        ...(index >= 2 ? { repeat: index } : {}),
      });
    }
  });

  it('a refused write: the plan, the shown file and the hint from one classification', async () => {
    host = await bootHost({ web: true });
    const path = host.file('existing.txt', 'old line\n');
    const { result, classifications } = await classificationsOf(() =>
      host!.execute('write', { file_path: path, content: 'new\n' }, { callId: 'w1' }),
    );
    expect(classifications).toBe(1);
    expect(result.error?.info?.code).toBe('FS_NOT_OBSERVED');
    expect(result.error?.message).toContain('old line');
    expect(result.error?.message).toContain("you have now seen the file's current content");
    expect(await recorded('w1')).toMatchObject({ outcome: 'healed-failed', category: 'fs-not-observed' });
  });

  it('a pre-execute denial (explained on post-execute): one classification', async () => {
    host = await bootHost({ web: true });
    host.ctx.on('tools/pre-execute', async (exec, next) =>
      exec.name === 'write' ? { kind: 'deny', reason: 'writes are disabled by policy' } : next(),
    );
    const path = host.file('b.txt', 'x\n');
    const { result, classifications } = await classificationsOf(() =>
      host!.execute('write', { file_path: path, content: 'y\n' }, { callId: 'denied' }),
    );
    expect(result.isError).toBe(true);
    expect(classifications).toBe(1);
    expect(await recorded('denied')).toMatchObject({ outcome: 'passthrough-failed', category: 'other' });
  });

  it('a retried call whose retry fails again: the original error once, the retry error once', async () => {
    host = await bootHost({ web: true });
    const path = host.file('c.txt', 'alpha\n');
    const { result, classifications } = await classificationsOf(() =>
      host!.execute('edit', { file_path: path, old_string: 'missing', new_string: 'x' }, { callId: 'e1' }),
    );
    // FS_NOT_OBSERVED (planned: read, then retry), then the retry's FS_EDIT_NOT_FOUND, which the model sees.
    expect(result.error?.info?.code).toBe('FS_EDIT_NOT_FOUND');
    expect(classifications).toBe(2);
    expect(await recorded('e1')).toMatchObject({ outcome: 'healed-failed', category: 'fs-not-observed' });
  });
});
