/**
 * Seam 4: the final outcome of each call is joined to what the plugin did and recorded: healed-success only
 * when the plugin acted AND the model saw a success; tokens saved come from the token meter (x1 round-trip),
 * 0 without one; the plugin's own nested calls are never counted; a bridged Code-Mode call is recorded under
 * the tool the model named.
 */
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { bootHost, toolCallChunks, type Host } from './support/composition.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

describe('tools/result joins outcomes', () => {
  it('counts a recovered call as healed-success with measured tokens, and its nested calls not at all', async () => {
    host = await bootHost({ web: true, meteredTokens: 7788 });
    const path = host.file('existing.txt', 'alpha\n');
    await host.execute('edit', { file_path: path, old_string: 'alpha', new_string: 'A' }, { callId: 'healed' });
    const stats = await host.stats();
    expect(stats.totals).toMatchObject({ calls: 1, healedSuccess: 1, healedFailed: 0, tokensSaved: 7788 });
    const event = stats.recent.find((entry) => entry.callId === 'healed');
    expect(event).toMatchObject({
      tool: 'edit',
      outcome: 'healed-success',
      category: 'fs-not-observed',
      tokensSaved: 7788,
      model: 'scripted-model',
    });
    expect(event?.ruleIds).toEqual(['recover.observe-then-retry']);
    // Its before/after (what the dashboard diffs): the call, and the retry that answered it (the same call here).
    const sent = { file_path: path, old_string: 'alpha', new_string: 'A' };
    expect(JSON.parse(event?.before ?? 'null')).toEqual(sent);
    expect(JSON.parse(event?.after ?? 'null')).toEqual(sent);
  });

  it('counts 0 tokens saved without a meter', async () => {
    host = await bootHost({ web: true });
    const path = host.file('existing.txt', 'alpha\n');
    await host.execute('edit', { file_path: path, old_string: 'alpha', new_string: 'A' });
    expect((await host.stats()).totals).toMatchObject({ healedSuccess: 1, tokensSaved: 0 });
  });

  it('counts a failed recovery as healed-failed and an untouched failure as passthrough-failed', async () => {
    host = await bootHost({ web: true, meteredTokens: 1000 });
    const path = host.file('existing.txt', 'alpha\n');
    await host.execute('edit', { file_path: path, old_string: 'absent', new_string: 'x' });
    await host.execute('read', { file_path: `${host.dir}/missing.txt` });
    await host.execute('read', { file_path: path });
    const { totals } = await host.stats();
    expect(totals).toMatchObject({
      calls: 3,
      healedSuccess: 0,
      healedFailed: 1,
      passThrough: 1,
      passThroughFailed: 1,
      tokensSaved: 0,
    });
  });

  it('classifies a hinted error by the host error it still carries', async () => {
    host = await bootHost({ web: true });
    const path = host.file('a.txt', 'alpha\nbeta\n');
    const result = await host.execute('read', { file_path: path, offset: 50 }, { callId: 'past_end' });
    expect(result.error?.info).toEqual({ name: 'FsError', code: 'FS_NOT_FOUND' });
    expect(result.error?.message).toMatch(/\nHint: /);
    const event = (await host.stats()).recent.find((entry) => entry.callId === 'past_end');
    expect(event).toMatchObject({ outcome: 'passthrough-failed', category: 'read-range' });
  });

  it('joins a stream repair to the execution of the same call id', async () => {
    host = await bootHost({ web: true, mode: 'code' });
    const path = host.file('a.txt', 'alpha\n');
    const presented = host.ctx.tools.schemas(host.agent).filter((tool) => tool.name === 'run_code');
    const { blocks } = await host.stream(
      toolCallChunks(0, 'c_direct', 'read', JSON.stringify({ file_path: path })),
      presented,
    );
    const call = blocks.find((block) => block.type === 'tool-call') as { name: string; arguments: string };
    expect(call.name).toBe('run_code');
    // run_code needs Node >= 22.13 to execute; the join only needs the final result of that call id, so the
    // recorded outcome follows whatever the host answered.
    const result = await host.execute(call.name, JSON.parse(call.arguments), { callId: 'c_direct' });
    const event = (await host.stats()).recent.find((entry) => entry.callId === 'c_direct');
    expect(event?.tool).toBe('read');
    expect(event?.outcome).toBe(result.isError ? 'healed-failed' : 'healed-success');
    expect(event?.ruleIds.length).toBeGreaterThan(0);
  });

  it('folds a recovered Code-Mode sub-call into the model-visible call with the same root id (counted once)', async () => {
    host = await bootHost({ web: true, mode: 'code' });
    host.file('guide.md', 'hello\n');
    const outer = Symbol('dsh.tool.execution');
    const inner = await host.execute(
      'str_replace_editor',
      { command: 'view', path: 'guide.md' },
      { callId: 'c_run:code:1', rootCallId: 'c_run', parent: outer },
    );
    expect(inner.isError).toBe(false);
    // The run_code call itself cannot execute on Node 20 here; any final result of the root call id closes the join.
    await host.execute('run_code', { code: 'return 1', description: 'probe' }, { callId: 'c_run' });
    const stats = await host.stats();
    expect(stats.totals.calls).toBe(1);
    const event = stats.recent.find((entry) => entry.callId === 'c_run');
    expect(event?.ruleIds).toContain('recover.retry-repaired-args');
    expect(event?.changes.some((change) => change.includes('c_run:code:1'))).toBe(true);
  });

  it('does not count a run_code call as healed-success when its folded sub-call recovery did not recover', async () => {
    host = await bootHost({ web: true, mode: 'both', meteredTokens: 5000 });
    const path = host.file('stale.txt', 'one\n');
    expect((await host.execute('read', { file_path: path })).isError).toBe(false);
    writeFileSync(path, 'one changed elsewhere\n');
    const outer = Symbol('dsh.tool.execution');
    // A Code-Mode sub-call hits FS_STALE_VERSION: the plugin only re-reads (never re-applies), so nothing is healed.
    const inner = await host.execute(
      'edit',
      { file_path: path, old_string: 'one', new_string: 'ONE' },
      { callId: 'c_root:code:1', rootCallId: 'c_root', parent: outer },
    );
    expect(inner.isError).toBe(true);
    // The program caught the error and finished: the root call succeeds, but not thanks to the plugin.
    expect((await host.execute('read', { file_path: path }, { callId: 'c_root' })).isError).toBe(false);
    const stats = await host.stats();
    const event = stats.recent.find((entry) => entry.callId === 'c_root');
    expect(event?.outcome).not.toBe('healed-success');
    expect(stats.totals).toMatchObject({ healedSuccess: 0, tokensSaved: 0 });
  });

  it('does not join a repair to a later call that reuses its id (a provider numbering calls per response)', async () => {
    host = await bootHost({ web: true, meteredTokens: 5000 });
    const path = host.file('guide.md', 'hello\n');
    // Repaired on the stream, but the turn ends before it runs (no tools/result for it).
    await host.stream(
      toolCallChunks(0, 'call_0', 'str_replace_editor', JSON.stringify({ command: 'view', path: 'guide.md' })),
    );
    // The next response numbers its (valid) call call_0 again.
    const { blocks } = await host.stream(toolCallChunks(0, 'call_0', 'read', JSON.stringify({ file_path: path })));
    const call = blocks.find((block) => block.type === 'tool-call') as { name: string; arguments: string };
    expect((await host.execute(call.name, JSON.parse(call.arguments), { callId: 'call_0' })).isError).toBe(false);
    const stats = await host.stats();
    expect(stats.recent.some((entry) => entry.callId === 'call_0' && entry.outcome === 'healed-success')).toBe(false);
    expect(stats.totals).toMatchObject({ calls: 1, passThrough: 1, healedSuccess: 0, tokensSaved: 0 });
  });

  it('serves plugin errors with the stats', async () => {
    host = await bootHost({ web: true });
    const path = host.file('existing.txt', 'alpha\n');
    const original = host.ctx.tools.schemas.bind(host.ctx.tools);
    host.ctx.tools.schemas = (() => {
      throw new Error('boom');
    }) as typeof host.ctx.tools.schemas;
    await host.execute('edit', { file_path: path, old_string: 'alpha', new_string: 'A' });
    host.ctx.tools.schemas = original;
    expect((await host.stats()).pluginErrors).toBeGreaterThanOrEqual(1);
  });
});
