/**
 * Fixed-capacity ring buffer for the most recent events: O(1) per push, oldest overwritten, iteration newest
 * first. Pure module.
 */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`ring buffer capacity must be a positive integer, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count += 1;
  }

  clear(): void {
    this.items.fill(undefined);
    this.next = 0;
    this.count = 0;
  }

  /** Items from newest to oldest. */
  *newestFirst(): IterableIterator<T> {
    for (let i = 1; i <= this.count; i += 1) {
      yield this.items[(this.next - i + this.capacity) % this.capacity] as T;
    }
  }
}
