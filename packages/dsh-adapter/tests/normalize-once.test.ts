/**
 * One call is normalized once on its way through the execute seam: the repaired-arguments verdict the recovery plan
 * asks for (`normalizeCall` of the call as a nested call) is the one the invalid-arguments hint reads (they used to
 * make one each). Counted on core-rules' own `normalizeCall` and `repairArguments` (mocked with counting wrappers
 * around the real ones, so every caller inside the engine counts too), through the real DSH runtime and tools, with
 * what the model sees and what is recorded checked alongside: behaviour is unchanged. Where a second normalization
 * stays, the test says why.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootHost, type Host, toolCallChunks } from './support/composition.js';

const counted = vi.hoisted(() => ({ calls: 0 }));

vi.mock('../../core-rules/src/normalize.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../core-rules/src/normalize.js')>();
  return {
    ...actual,
    normalizeCall: (...args: Parameters<typeof actual.normalizeCall>) => {
      counted.calls += 1;
      return actual.normalizeCall(...args);
    },
    repairArguments: (...args: Parameters<typeof actual.repairArguments>) => {
      counted.calls += 1;
      return actual.repairArguments(...args);
    },
  };
});

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

/** Runs `run` and returns its value and how many normalizations it cost. */
async function normalizationsOf<T>(run: () => Promise<T>): Promise<{ value: T; normalizations: number }> {
  counted.calls = 0;
  const value = await run();
  return { value, normalizations: counted.calls };
}

async function recorded(callId: string) {
  return (await host!.stats()).recent.find((entry) => entry.callId === callId);
}

const MISSING_FILE_PATH = 'invalid arguments: missing required property "file_path"';

describe('a failed call is normalized once', () => {
  it('the counter sees the engine normalize (the mock is the module every caller uses)', async () => {
    const { normalizeCall } = await import('@dsh-tool-normalizer/core-rules');
    counted.calls = 0;
    normalizeCall({ name: 'read', arguments: {} }, { tools: [], mode: 'native' });
    expect(counted.calls).toBe(1);
  });

  it('an unrepairable INVALID_ARGS: the plan and the hint read one normalization', async () => {
    host = await bootHost({ web: true });
    const { value: result, normalizations } = await normalizationsOf(() =>
      host!.execute('read', { limit: 3 }, { callId: 'r1' }),
    );
    expect(normalizations).toBe(1);
    expect(result.error?.info?.code).toBe('INVALID_ARGS');
    expect(result.error?.message).toBe(
      `${MISSING_FILE_PATH}\nHint: add "file_path" and resend; read requires "file_path".`,
    );
    expect(await recorded('r1')).toMatchObject({ outcome: 'passthrough-failed', category: 'invalid-args' });
  });

  it('a repaired retry the tool cannot render for the sent arguments: the plan and the hint read one normalization', async () => {
    // read({limit: "2"}) is retried as read({limit: 2}); the host renders a waterfall's success with the call's own
    // arguments, which fails, so the model gets the host's error (explained: the hint asks the same question).
    host = await bootHost({ web: true });
    const path = host.file('a.txt', 'one\ntwo\nthree\n');
    const { value: result, normalizations } = await normalizationsOf(() =>
      host!.execute('read', { file_path: path, limit: '2' }, { callId: 'r2' }),
    );
    expect(normalizations).toBe(1);
    expect(result.error?.message).toBe('invalid arguments: "limit" must be a number');
    const event = await recorded('r2');
    expect(event).toMatchObject({ outcome: 'healed-failed', category: 'invalid-args' });
    expect(event?.ruleIds).toEqual(['recover.retry-repaired-args']);
  });

  it('a switch off: the hint normalizes again, with the default switches it always used', async () => {
    // The hint's ready-to-paste example is made with every rule on; the plan's with the plugin's switches. With one
    // switch off the two questions differ, so the hint keeps its own normalization (behaviour unchanged).
    host = await bootHost({ web: true, plugin: { autoWrapRunCode: false } });
    const { value: result, normalizations } = await normalizationsOf(() =>
      host!.execute('read', { limit: 3 }, { callId: 'r3' }),
    );
    expect(normalizations).toBe(2);
    expect(result.error?.message).toBe(
      `${MISSING_FILE_PATH}\nHint: add "file_path" and resend; read requires "file_path".`,
    );
  });

  it('an error that needs no repair verdict costs no normalization', async () => {
    host = await bootHost({ web: true });
    const path = host.file('b.txt', 'alpha\nbeta\n');
    const { value: result, normalizations } = await normalizationsOf(() =>
      host!.execute('read', { file_path: path, offset: 50 }, { callId: 'r4' }),
    );
    expect(normalizations).toBe(0);
    expect(result.error?.message).toContain('Hint: the file has 2 lines');
  });

  it('a Code-Mode sub-call with a relative editor path: retried once from one normalization', async () => {
    host = await bootHost({ web: true, mode: 'code' });
    host.file('guide.md', 'hello\n');
    const outer = Symbol('dsh.tool.execution');
    const { value: result, normalizations } = await normalizationsOf(() =>
      host!.execute(
        'str_replace_editor',
        { command: 'view', path: 'guide.md' },
        { callId: 'c_run:code:1', rootCallId: 'c_run', parent: outer },
      ),
    );
    expect(result.isError).toBe(false);
    expect(normalizations).toBe(1);
  });

  it('through the stream: the block is normalized on llm/stream, the call that ran once more in the execute seam', async () => {
    // The stream seam checks the model's block against the tools the request presented, before the call exists; the
    // execute seam asks about the call that ran, as the host parsed it, against the tools the session's agent can
    // reach. Different inputs, so the stream's verdict is not reused (see the report / README).
    host = await bootHost({ web: true });
    const { value: streamed, normalizations: onStream } = await normalizationsOf(() =>
      host!.stream(toolCallChunks(0, 's1', 'read', '{"limit":3}')),
    );
    expect(onStream).toBe(1);
    const block = streamed.blocks.find((entry) => entry.type === 'tool-call') as { arguments: string } | undefined;
    expect(block?.arguments).toBe('{"limit":3}');
    const { value: result, normalizations: onExecute } = await normalizationsOf(() =>
      host!.execute('read', JSON.parse(block!.arguments), { callId: 's1' }),
    );
    expect(onExecute).toBe(1);
    expect(result.error?.message).toBe(
      `${MISSING_FILE_PATH}\nHint: add "file_path" and resend; read requires "file_path".`,
    );
  });
});
