/**
 * The save when the process exits without close() (a graceful `process.exit`): only synchronous work runs then, and
 * the secret scan is asynchronous. So a batch a lock held up is written as built, pending counts are written under
 * names already redacted by both layers, or plain identifier-like names (anything else counts as "other"), and
 * queued events, which cannot be redacted in time, are counted as dropped rather than stored. Node only.
 */
import { OTHER } from './counters.js';
import type { StoreDatabase } from './database-lifecycle.js';
import type { CountDelta, WriteBatch } from './database.js';
import { plainName } from './event.js';
import type { EventQueue } from './event-queue.js';
import type { PendingCount, PendingCounts } from './pending-counts.js';

/** What the writer has not committed when the process exits. */
export interface UnsavedAtExit {
  database: StoreDatabase;
  profile: string;
  harness?: string;
  busyTimeoutMs: number;
  /** A batch built but held up by another process's lock. */
  unwritten: WriteBatch | undefined;
  /** What a writer cycle took and is still redacting: the pending counts and the calls of the events taken. */
  inFlight: { pending: PendingCount[]; events: number; dropped: number; repeats: number } | undefined;
  queue: EventQueue;
  pending: PendingCounts;
  knownNames: ReadonlyMap<string, string>;
}

export function saveAtExit(unsaved: UnsavedAtExit): void {
  const { database } = unsaved;
  try {
    if (!database.ready(unsaved.busyTimeoutMs)) return;
    if (unsaved.unwritten !== undefined) database.write(unsaved.unwritten);
    const inFlight = unsaved.inFlight ?? { pending: [], events: 0, dropped: 0, repeats: 0 };
    // queued events are counted with their rows when written: here their calls are counted, the events dropped
    const queued = unsaved.queue.take();
    for (const item of queued) unsaved.pending.addInput(item.input);
    const dropped = unsaved.pending.dropped + queued.length + inFlight.dropped + inFlight.events;
    const repeats = unsaved.pending.repeats + inFlight.repeats;
    const counts: CountDelta[] = [...inFlight.pending, ...unsaved.pending.values()].map((count) => ({
      tool: unsaved.knownNames.get(count.tool) ?? plainName(count.tool) ?? OTHER,
      category: unsaved.knownNames.get(count.category) ?? plainName(count.category) ?? OTHER,
      outcome: count.outcome,
      calls: count.calls,
      tokensSaved: count.tokensSaved,
    }));
    if (counts.length > 0 || dropped > 0 || repeats > 0) {
      const harness = unsaved.harness === undefined ? {} : { harness: unsaved.harness };
      database.write({ profile: unsaved.profile, ...harness, events: [], counts, repeats, dropped });
    }
    database.retry(true);
    database.close();
  } catch {
    // exiting: nothing more can be done, and an exit handler must not throw
  }
}
