/**
 * `PluginErrors`: fail-open bookkeeping. A plugin exception must never turn a working call into a failure nor lose
 * the host's own result. Each seam catches, falls back to the host's behaviour and reports here; the error is
 * counted (served with the stats) and logged once per distinct seam and message. Reporting never throws, even for
 * a thrown value whose `message` getter or `toString` throws.
 */
export interface WarnSink {
  warn(message: string): void;
}

const MAX_DISTINCT_LOGGED = 64;

/** A printable description of any thrown value; never throws. */
export function describeThrown(error: unknown): { message: string; detail: string } {
  try {
    if (error instanceof Error) {
      const message = typeof error.message === 'string' ? error.message : '<no message>';
      const stack = error.stack;
      return { message, detail: typeof stack === 'string' ? stack : message };
    }
    const message = String(error);
    return { message, detail: message };
  } catch {
    return { message: '<unprintable thrown value>', detail: '<unprintable thrown value>' };
  }
}

export class PluginErrors {
  #count = 0;
  readonly #logged = new Set<string>();

  constructor(private readonly sink: WarnSink) {}

  /** How many plugin errors were contained since the plugin started. */
  get count(): number {
    return this.#count;
  }

  report(seam: string, error: unknown): void {
    this.#count += 1;
    const { message, detail } = describeThrown(error);
    const key = `${seam}\u0000${message}`;
    if (this.#logged.has(key) || this.#logged.size >= MAX_DISTINCT_LOGGED) return;
    this.#logged.add(key);
    try {
      this.sink.warn(`tool-normalizer: ${seam} failed open (the host's own behaviour was kept): ${detail}`);
    } catch {
      // A broken logger must not break the call either.
    }
  }
}
