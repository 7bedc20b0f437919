/**
 * Calls recorded by another harness (a store opened with `harness`, as the MCP proxy opens it) share the directory
 * with DSH's: their events say which harness recorded them, `harnessCalls()` counts them per harness and outcome
 * across the processes sharing the file, DSH's own calls are never counted there, and `clear()` erases them too.
 */
import { describe, expect, it } from 'vitest';
import { createTelemetryStore } from '../src/index.js';
import { healed, openStore, tempDir } from './helpers.js';

describe('harness', () => {
  it("labels the events of a harness store and counts its calls, never DSH's", async () => {
    const dir = tempDir();
    const dsh = openStore({ dir }).store;
    const mcp = openStore({ dir, harness: 'mcp' }).store;
    for (let i = 0; i < 3; i += 1) dsh.record(healed('edit'));
    mcp.record(healed('get-sum', { category: 'invalid-args', ruleIds: ['args.coerce-scalar'] }));
    mcp.record(healed('get-sum', { outcome: 'healed-failed', error: 'boom' }));
    mcp.record({ tool: 'get-sum', category: 'ok', outcome: 'passthrough', ruleIds: [] });
    await dsh.flush();
    await mcp.flush();

    const expected = [
      { harness: 'mcp', outcome: 'healed-failed', calls: 1 },
      { harness: 'mcp', outcome: 'healed-success', calls: 1 },
      { harness: 'mcp', outcome: 'passthrough', calls: 1 },
    ];
    // Every process sharing the directory reads the same counts, DSH's store included.
    expect(dsh.harnessCalls()).toEqual(expected);
    expect(mcp.harnessCalls({ profile: 'default' })).toEqual(expected);
    expect(mcp.harnessCalls({ profile: 'web' })).toEqual([]);
    // Both stores' calls are in the shared totals; only the harness store's events carry the label.
    expect(dsh.stats().totals.calls).toBe(6);
    const events = (await dsh.queryEvents({ limit: 100 })).events;
    expect(events.filter((event) => event.harness === 'mcp').map((event) => event.tool)).toEqual([
      'get-sum',
      'get-sum',
    ]);
    expect(events.filter((event) => event.harness === undefined).map((event) => event.tool)).toEqual([
      'edit',
      'edit',
      'edit',
    ]);
    // A category table never shows a harness row.
    expect(Object.keys(dsh.stats().categories ?? {})).not.toContain('mcp');

    await dsh.clear();
    expect(mcp.harnessCalls()).toEqual([]);
    await dsh.close();
    await mcp.close();
    // A closed store cannot read the file: undefined, which readers must not take for "no calls".
    expect(mcp.harnessCalls()).toBeUndefined();
  });

  it('keeps counting what a harness store saves at close, and refuses a harness name that is not a label', async () => {
    const dir = tempDir();
    const mcp = openStore({ dir, harness: 'mcp' }).store;
    mcp.record(healed('read_text_file'));
    await mcp.close();
    const reader = openStore({ dir }).store;
    expect(reader.harnessCalls()).toEqual([{ harness: 'mcp', outcome: 'healed-success', calls: 1 }]);
    await reader.close();
    for (const harness of ['', 'MCP', 'a b', 'x'.repeat(33), 'mcp\n', '*'])
      expect(() => createTelemetryStore({ dir, harness })).toThrow(/harness/);
  });
});
