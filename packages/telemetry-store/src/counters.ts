/**
 * Counters kept as events arrive, so stats never re-read the log. Per-tool and per-category maps are capped:
 * past the cap, new names fold into "other", so a model inventing thousands of tool names cannot make every
 * call slower (each update is O(1) and nothing is copied per call). Pure module.
 */
import type { Bucket, Outcome, Summary, Totals } from './schema.js';
import { EVENT_LIMITS, SCHEMA_VERSION } from './schema.js';
import { OTHER, keyWithinCap, rowWithinCap } from './fold.js';
import { redact } from './redact.js';

export { OTHER };

/** Longest tool or category name used as a counter key; longer names are cut. */
export const MAX_KEY_CHARS = EVENT_LIMITS.nameChars;

export function emptyTotals(): Totals {
  return {
    calls: 0,
    healedSuccess: 0,
    healedFailed: 0,
    passThrough: 0,
    passThroughFailed: 0,
    tokensSaved: 0,
    repeatsCaught: 0,
  };
}

export function emptyBucket(): Bucket {
  return { calls: 0, failures: 0, healedSuccess: 0, healedFailed: 0, tokensSaved: 0 };
}

/** True when the model saw a failure for this outcome. */
export function isSurfacedFailure(outcome: Outcome): boolean {
  return outcome === 'healed-failed' || outcome === 'passthrough-failed';
}

function addOutcome(bucket: Bucket, outcome: Outcome, tokensSaved: number): void {
  bucket.calls += 1;
  if (outcome === 'healed-success') bucket.healedSuccess += 1;
  else if (outcome === 'healed-failed') {
    bucket.healedFailed += 1;
    bucket.failures += 1;
  } else if (outcome === 'passthrough-failed') bucket.failures += 1;
  bucket.tokensSaved += tokensSaved;
}

function addBucket(into: Bucket, from: Bucket): void {
  into.calls += from.calls;
  into.failures += from.failures;
  into.healedSuccess += from.healedSuccess;
  into.healedFailed += from.healedFailed;
  into.tokensSaved += from.tokensSaved;
}

/** A map of buckets with at most `cap` names besides "other". */
export class CappedBuckets {
  readonly buckets = new Map<string, Bucket>();
  /** Calls counted under "other" because the cap was reached (since the last reset). */
  foldedCalls = 0;

  constructor(readonly cap: number) {}

  /** The bucket for `name`, creating it or falling back to "other" past the cap. O(1). */
  bucketFor(name: string): Bucket {
    // names arrive as display names: already redacted and cut (see displayName)
    const other = () => OTHER;
    if (keyWithinCap(this.buckets, name, this.cap, other) !== name) this.foldedCalls += 1;
    return rowWithinCap(this.buckets, name, this.cap, other, emptyBucket);
  }

  add(name: string, bucket: Bucket): void {
    addBucket(this.bucketFor(name), bucket);
  }

  clear(): void {
    this.buckets.clear();
    this.foldedCalls = 0;
  }

  /** Copies the buckets under redacted names (names come from the model and could carry a secret). */
  toRecord(): Record<string, Bucket> {
    const record: Record<string, Bucket> = Object.create(null) as Record<string, Bucket>;
    for (const [name, bucket] of this.buckets) {
      const safeName = redact(name);
      const existing = record[safeName];
      if (existing) addBucket(existing, bucket);
      else record[safeName] = { ...bucket };
    }
    return { ...record };
  }
}

export interface CounterOptions {
  /** Most distinct tool names counted separately (default 200). */
  maxTools?: number;
  /** Most distinct categories counted separately (default 100). */
  maxCategories?: number;
}

/** All counters of one store: totals plus capped per-tool and per-category buckets. */
export class Counters {
  totals: Totals = emptyTotals();
  readonly tools: CappedBuckets;
  readonly categories: CappedBuckets;
  since: number;

  constructor(since: number, options: CounterOptions = {}) {
    this.since = since;
    this.tools = new CappedBuckets(options.maxTools ?? 200);
    this.categories = new CappedBuckets(options.maxCategories ?? 100);
  }

  /** Counts one call (`repeatCaught`: it was a repeat caught, see `isRepeatCaught`). O(1). */
  add(tool: string, category: string, outcome: Outcome, tokensSaved: number, repeatCaught = false): void {
    const totals = this.totals;
    totals.calls += 1;
    if (repeatCaught) totals.repeatsCaught += 1;
    if (outcome === 'healed-success') totals.healedSuccess += 1;
    else if (outcome === 'healed-failed') totals.healedFailed += 1;
    else if (outcome === 'passthrough') totals.passThrough += 1;
    else totals.passThroughFailed += 1;
    totals.tokensSaved += tokensSaved;
    addOutcome(this.tools.bucketFor(tool), outcome, tokensSaved);
    addOutcome(this.categories.bucketFor(category), outcome, tokensSaved);
  }

  /** Adds every counter of a summary (used when restoring and when merging with another process's file). */
  addSummary(summary: Summary): void {
    const totals = this.totals;
    totals.calls += summary.totals.calls;
    totals.healedSuccess += summary.totals.healedSuccess;
    totals.healedFailed += summary.totals.healedFailed;
    totals.passThrough += summary.totals.passThrough;
    totals.passThroughFailed += summary.totals.passThroughFailed;
    totals.tokensSaved += summary.totals.tokensSaved;
    totals.repeatsCaught += summary.totals.repeatsCaught;
    for (const [name, bucket] of Object.entries(summary.tools)) this.tools.add(name, bucket);
    for (const [name, bucket] of Object.entries(summary.categories)) this.categories.add(name, bucket);
    this.since = Math.min(this.since, summary.since);
  }

  /** Adds every counter of another Counters (no redaction: both are in-memory views). */
  addCounters(other: Counters): void {
    for (const key of Object.keys(this.totals) as (keyof Totals)[]) this.totals[key] += other.totals[key];
    for (const [name, bucket] of other.tools.buckets) this.tools.add(name, bucket);
    for (const [name, bucket] of other.categories.buckets) this.categories.add(name, bucket);
    this.since = Math.min(this.since, other.since);
  }

  clone(): Counters {
    const copy = new Counters(this.since, { maxTools: this.tools.cap, maxCategories: this.categories.cap });
    copy.addCounters(this);
    copy.tools.foldedCalls = this.tools.foldedCalls;
    copy.categories.foldedCalls = this.categories.foldedCalls;
    return copy;
  }

  reset(since: number): void {
    this.totals = emptyTotals();
    this.tools.clear();
    this.categories.clear();
    this.since = since;
  }

  isEmpty(): boolean {
    return this.totals.calls === 0;
  }

  toSummary(updatedAt: number): Summary {
    return {
      v: SCHEMA_VERSION,
      kind: 'tool-normalizer-summary',
      since: this.since,
      updatedAt,
      totals: { ...this.totals },
      tools: this.tools.toRecord(),
      categories: this.categories.toRecord(),
    };
  }
}
