/**
 * "Fold into other past a cap" is one helper (src/fold.ts); these cases pin its promise: names are kept while there
 * is room, a name already kept stays its own row after the cap is reached, anything new past the cap counts under
 * its "other" row (which exists even past the cap), and the counters that use it fold exactly at their cap.
 */
import { describe, expect, it } from 'vitest';
import { CappedBuckets, OTHER, rowWithinCap } from '../src/query.js';
import { keyWithinCap } from '../src/fold.js';
import { PendingCounts } from '../src/pending-counts.js';

describe('rowWithinCap', () => {
  it('keeps names while there is room, then folds new ones into the other row', () => {
    const rows = new Map<string, { name: string; folded: boolean; n: number }>();
    const count = (name: string) =>
      (rowWithinCap(
        rows,
        name,
        2,
        () => OTHER,
        (folded) => ({ name, folded, n: 0 }),
      ).n += 1);
    for (const name of ['a', 'b', 'c', 'a', 'd', 'b', 'e']) count(name);
    expect([...rows.keys()]).toEqual(['a', 'b', OTHER]);
    expect(rows.get('a')).toMatchObject({ n: 2, folded: false });
    expect(rows.get('b')).toMatchObject({ n: 2, folded: false });
    // The other row was created by the first folded name ('c') and took 'd' and 'e' too.
    expect(rows.get(OTHER)).toMatchObject({ name: 'c', folded: true, n: 3 });
  });

  it('a name that is the fold key itself is never counted as folded', () => {
    const rows = new Map<string, number>([
      ['a', 1],
      ['b', 1],
    ]);
    expect(keyWithinCap(rows, OTHER, 2, () => OTHER)).toBe(OTHER);
    expect(keyWithinCap(rows, 'a', 2, () => OTHER)).toBe('a');
    expect(keyWithinCap(rows, 'z', 2, () => OTHER)).toBe(OTHER);
    expect(keyWithinCap(rows, 'z', 3, () => OTHER)).toBe('z');
  });

  it('CappedBuckets folds past its cap and counts the folded calls', () => {
    const buckets = new CappedBuckets(3);
    for (let i = 0; i < 10; i += 1) buckets.bucketFor(`tool${i}`).calls += 1;
    buckets.bucketFor('tool0').calls += 1;
    expect([...buckets.buckets.keys()]).toEqual(['tool0', 'tool1', 'tool2', OTHER]);
    expect(buckets.buckets.get(OTHER)?.calls).toBe(7);
    expect(buckets.buckets.get('tool0')?.calls).toBe(2);
    expect(buckets.foldedCalls).toBe(7);
  });

  it('PendingCounts keeps 2,000 distinct triples, then folds by outcome', () => {
    const pending = new PendingCounts();
    for (let i = 0; i < 2100; i += 1)
      pending.add(`tool${i}`, 'invalid-args', i % 2 ? 'healed-success' : 'healed-failed', 1);
    const counts = pending.take().counts;
    expect(counts).toHaveLength(2002);
    const folded = counts.filter((count) => count.tool === OTHER);
    expect(folded.map((count) => [count.outcome, count.category, count.calls]).sort()).toEqual([
      ['healed-failed', OTHER, 50],
      ['healed-success', OTHER, 50],
    ]);
    expect(counts.reduce((sum, count) => sum + count.calls, 0)).toBe(2100);
  });
});
