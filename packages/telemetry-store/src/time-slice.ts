/**
 * Keeps the writer from holding the host's event loop: work that runs on DSH's main thread calls `pause()` between
 * texts and events, and the slicer yields to the event loop (setImmediate) once a slice has used its budget. A yield
 * costs a few microseconds when nothing else is waiting. Pure module (setImmediate exists in Node and in workers).
 */
import { performance } from 'node:perf_hooks';

/** Milliseconds of writer work between two yields (the host's event loop waits at most this plus one step). */
export const SLICE_BUDGET_MS = 4;

export class TimeSlicer {
  private start = performance.now();

  constructor(private readonly budgetMs = SLICE_BUDGET_MS) {}

  /** Yields to the event loop when this slice has run for its budget; otherwise resolves at once. */
  async pause(): Promise<void> {
    if (performance.now() - this.start < this.budgetMs) return;
    await this.yield();
  }

  /** Yields to the event loop now and starts a new slice (before a step known to be long on its own). */
  async yield(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.start = performance.now();
  }
}
