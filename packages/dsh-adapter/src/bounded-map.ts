/**
 * A Map with a fixed capacity that forgets its oldest entry first. Every per-call table of the plugin is one of
 * these, so a model that invents thousands of call ids or tool names cannot grow memory or slow a call down.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`BoundedMap capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  set(key: K, value: V): void {
    if (this.#entries.has(key)) this.#entries.delete(key);
    else if (this.#entries.size >= this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, value);
  }

  /** Remove and return the entry (each receipt is joined to exactly one result). */
  take(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) this.#entries.delete(key);
    return value;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
