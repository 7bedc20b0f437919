/**
 * The writer never holds the host's event loop for long: 24 events with crafted 1 MB arguments (the issue's
 * secret-named JSON key followed by a long run of backslashes, as a command, a nested value and an error text, and
 * a plain 1 MB program) are recorded and written while the event loop is watched. No timing is asserted (a loaded
 * machine stretches any bound; the figures are measured in bench/stall.bench.mjs): the test checks that the writer
 * gives the loop a turn before each huge text it cuts (`resolveCapture` calls the writer's yield before each one),
 * and that every event is stored while a setImmediate ticker keeps turning. Real files.
 */
import { describe, expect, it } from 'vitest';
import { captureInput, resolveCapture } from '../src/capture.js';
import type { TelemetryEventInput } from '../src/index.js';
import { openStore, tempDir } from './helpers.js';

const MB = 1024 * 1024;

function craftedInputs(count: number): TelemetryEventInput[] {
  const slashes = '\\'.repeat(MB);
  const shapes: ((i: number) => Partial<TelemetryEventInput>)[] = [
    (i) => ({ before: { command: `{"api_key":"${slashes}${i}"}` } }),
    (i) => ({ before: { config: { password: `${slashes}${i}`, token: `"${slashes}` } } }),
    (i) => ({ error: `{"client_secret": "${slashes}${i}` }),
    (i) => ({ before: { code: `const x = ${i};\n`.repeat(MB / 16) } }),
  ];
  return Array.from({ length: count }, (_, i) => ({
    tool: 'bash',
    category: 'SHELL_EXIT',
    outcome: 'healed-failed' as const,
    ruleIds: ['r'],
    ...(shapes[i % shapes.length] as (i: number) => Partial<TelemetryEventInput>)(i),
  }));
}

describe('the writer and the event loop', () => {
  it('24 events with crafted 1 MB arguments are all stored while the loop keeps turning', async () => {
    const { store } = openStore({ dir: tempDir() });
    store.record({ tool: 'warm', category: 'C', outcome: 'healed-failed', ruleIds: [], error: 'warm up' });
    await store.flush(); // secretlint's first load is a one-time cost, not the writer's
    const inputs = craftedInputs(24);
    for (const input of inputs) store.record(input); // the caller's path, measured in telemetry.bench.mjs
    let turns = 0;
    let watching = true;
    const tick = () => {
      turns += 1;
      if (watching) setImmediate(tick);
    };
    setImmediate(tick);
    await store.flush();
    watching = false;
    expect(store.stats().storage.storedEvents).toBe(25);
    // 30 huge texts (every fourth event has two) are each cut in a turn of their own (unit-tested below)
    expect(turns).toBeGreaterThanOrEqual(30);
    await store.close();
  }, 120_000);
});

describe('cutting huge texts', () => {
  it('gives the caller a yield before each huge text of an event (never two flattenings in one turn)', async () => {
    const budget = { remaining: 64 * MB, used: 0 };
    const huge = (c: string) => `${c} `.repeat(MB / 2); // a rope, as concatenation builds it
    const captured = captureInput(
      {
        tool: 't',
        category: 'c',
        outcome: 'healed-failed',
        ruleIds: [],
        before: { a: huge('a'), nested: [huge('b')] },
        after: { c: huge('c') },
        error: huge('d'),
      },
      budget,
    );
    expect(budget.used).toBe(4 * MB); // all four were kept by reference, not read on the caller's path
    const order: string[] = [];
    let cuts = 0;
    const resolved = await resolveCapture(captured, async () => {
      order.push(`yield before cut ${cuts}`);
      cuts += 1;
    });
    expect(order).toEqual([0, 1, 2, 3].map((n) => `yield before cut ${n}`));
    const before = resolved.before as { a: string; nested: string[] };
    const cut = (c: string) => new RegExp(`^(${c} )+\\.\\.\\.\\[\\d+ chars omitted\\]\\.\\.\\.(${c} )+$`);
    expect(before.a).toMatch(cut('a'));
    expect(before.nested[0]).toMatch(cut('b'));
    expect((resolved.after as { c: string }).c).toMatch(cut('c'));
    expect(resolved.error).toMatch(cut('d'));
  });
});
