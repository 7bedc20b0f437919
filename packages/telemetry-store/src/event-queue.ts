/**
 * The bounded FIFO between `record()` and the writer: a ring, so push, drop-oldest and take are O(1) per item. A full
 * queue drops its oldest snapshot (the call is still counted). It also owns the budget of caller strings that queued
 * snapshots may keep by reference (see capture.ts): what leaves the queue returns its share. Pure module.
 */
import type { DeferBudget } from './capture.js';
import type { TelemetryEventInput } from './schema.js';

/**
 * Characters of huge caller strings all queued snapshots together may keep by reference until the writer cuts them
 * (so that record() never reads, and so never flattens, a huge string). Past it, strings are cut on the spot.
 */
const DEFER_BUDGET_CHARS = 256 * 1024 * 1024;

export interface QueuedEvent {
  /** The bounded snapshot; huge strings in it may still be kept by reference (`resolveCapture` cuts them). */
  input: TelemetryEventInput;
  at: number;
  /** Characters of the caller's strings this snapshot keeps by reference (returned to the budget when it leaves). */
  deferredChars: number;
}

export class EventQueue {
  readonly deferBudget: DeferBudget = { remaining: DEFER_BUDGET_CHARS, used: 0 };
  private readonly items: (QueuedEvent | undefined)[];
  private head = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<QueuedEvent | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Adds an item; returns the oldest item when the queue was full and it was dropped to make room. */
  push(item: QueuedEvent): QueuedEvent | undefined {
    let dropped: QueuedEvent | undefined;
    if (this.count === this.capacity) {
      dropped = this.items[this.head];
      this.release(this.head);
      this.head = (this.head + 1) % this.capacity;
      this.count -= 1;
    }
    this.items[(this.head + this.count) % this.capacity] = item;
    this.count += 1;
    return dropped;
  }

  /** Removes and returns the oldest `max` items (all of them by default). */
  take(max = this.count): QueuedEvent[] {
    const taken: QueuedEvent[] = [];
    const n = Math.min(max, this.count);
    for (let i = 0; i < n; i += 1) {
      taken.push(this.items[this.head] as QueuedEvent);
      this.release(this.head);
      this.head = (this.head + 1) % this.capacity;
    }
    this.count -= n;
    if (this.count === 0) this.head = 0;
    return taken;
  }

  private release(index: number): void {
    this.deferBudget.remaining += (this.items[index] as QueuedEvent).deferredChars;
    this.items[index] = undefined;
  }
}
