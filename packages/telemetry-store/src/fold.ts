/**
 * "Fold into other past a cap", one place: every bounded table of counts (the store's per-tool and per-category
 * buckets, the counts pending a write, a backlog kept while the database is away, the plugin's metric series) keeps
 * at most `cap` distinct rows and counts anything new under an "other" row instead, so a model inventing thousands
 * of names cannot grow memory or make a call slower. Pure module, O(1) per call.
 */

/** The name a folded row carries (a tool, category or label value past the cap). */
export const OTHER = 'other';

/**
 * The key to count under: `key` itself while `rows` holds it or has room (fewer than `cap` rows), else `other()`
 * (its "other" row, kept even past the cap so there is always one to count under).
 */
export function keyWithinCap<K>(rows: ReadonlyMap<K, unknown>, key: K, cap: number, other: () => K): K {
  return rows.size < cap || rows.has(key) ? key : other();
}

/**
 * The row of `rows` to count under for `key` (see `keyWithinCap`), created by `create(folded)` when missing;
 * `folded` is true when it is the "other" row standing in for `key`.
 */
export function rowWithinCap<K, V>(
  rows: Map<K, V>,
  key: K,
  cap: number,
  other: () => K,
  create: (folded: boolean) => V,
): V {
  const kept = keyWithinCap(rows, key, cap, other);
  let row = rows.get(kept);
  if (row === undefined) {
    row = create(kept !== key);
    rows.set(kept, row);
  }
  return row;
}
