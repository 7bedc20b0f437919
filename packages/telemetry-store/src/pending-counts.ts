/**
 * The numbers `record()` adds between two writes for calls that have no queued event: calls per (tool, category,
 * outcome) under their raw names, repeats caught and dropped events. A call whose event is queued is counted with that
 * event (in the transaction that stores its row), so a killed process never leaves a count without its event; when
 * the event leaves the queue without a row (dropped from a full queue), its call moves here. O(1) per call: names are only looked up, never redacted or copied (the writer redacts
 * each distinct name once). Distinct keys are bounded; past the bound new ones fold into "other". Pure module.
 */
import { captureString } from './capture.js';
import { OTHER, rowWithinCap } from './fold.js';
import { tokenCount } from './event.js';
import { isRepeatCaught, type Outcome, type TelemetryEventInput } from './schema.js';

/** Distinct (tool, category, outcome) triples counted between two writes before new ones fold into "other". */
const MAX_PENDING_KEYS = 2000;

export interface PendingCount {
  tool: string;
  category: string;
  outcome: Outcome;
  calls: number;
  tokensSaved: number;
}

/** What one write takes: the counts, the repeats caught and the events dropped since the last take. */
export interface TakenCounts {
  counts: PendingCount[];
  repeats: number;
  dropped: number;
}

export class PendingCounts {
  private counts = new Map<string, PendingCount>();
  repeats = 0;
  dropped = 0;

  get isEmpty(): boolean {
    return this.counts.size === 0 && this.repeats === 0 && this.dropped === 0;
  }

  values(): IterableIterator<PendingCount> {
    return this.counts.values();
  }

  /** Adds one call. */
  add(rawTool: string, rawCategory: string, outcome: Outcome, tokensSaved: number): void {
    const tool = rawTool.length > 1024 ? captureString(rawTool, 512) : rawTool;
    const category = rawCategory.length > 1024 ? captureString(rawCategory, 512) : rawCategory;
    const pending = rowWithinCap(
      this.counts,
      `${outcome}\u0000${tool}\u0000${category}`,
      MAX_PENDING_KEYS,
      () => `${outcome}\u0000${OTHER}\u0000${OTHER}`,
      (folded) => ({
        tool: folded ? OTHER : tool,
        category: folded ? OTHER : category,
        outcome,
        calls: 0,
        tokensSaved: 0,
      }),
    );
    pending.calls += 1;
    pending.tokensSaved += tokensSaved;
  }

  /** Adds the call of a queued snapshot whose event will not be stored (dropped), with its repeat. */
  addInput(input: TelemetryEventInput): void {
    this.add(input.tool, input.category, input.outcome, tokenCount(input.tokensSaved));
    if (isRepeatCaught(input)) this.repeats += 1;
  }

  /** Returns everything counted so far and starts again from zero. */
  take(): TakenCounts {
    const taken = { counts: [...this.counts.values()], repeats: this.repeats, dropped: this.dropped };
    this.clear();
    return taken;
  }

  clear(): void {
    this.counts = new Map();
    this.repeats = 0;
    this.dropped = 0;
  }
}
