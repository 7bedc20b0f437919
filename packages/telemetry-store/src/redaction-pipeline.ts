/**
 * The writer's redaction of queued snapshots into stored events: this package's own rules (`redactTexts`, one
 * argument or error text at a time), then secretlint (`scanSecrets`, one call per event), pausing between those steps
 * (TimeSlicer) so the host's event loop never waits for a whole batch. Tool and category names are redacted once per distinct name and shared by events and counts.
 * Display names already redacted by both layers are remembered for the exit-time save. Node only (secretlint).
 */
import { resolveCapture } from './capture.js';
import { MAX_KEY_CHARS, OTHER } from './counters.js';
import { boundEvent, cutLabel, redactTexts, type RedactedTexts } from './event.js';
import type { QueuedEvent } from './event-queue.js';
import type { TelemetryEvent, TelemetryEventInput } from './schema.js';
import { scanSecrets } from './secret-scan.js';
import { errorCode } from './store-options.js';
import type { TimeSlicer } from './time-slice.js';

/** Raw names remembered with their redacted display names for an exit-time save. */
const MAX_KNOWN_NAMES = 4096;
const UNAVAILABLE = '[REDACTED: secret scan unavailable]';

/** The own-rules redaction of one argument or error text, alone (so the writer can pause between texts). */
function ownRules(input: TelemetryEventInput, field: 'before' | 'after' | 'error'): string | undefined {
  const only: TelemetryEventInput = { tool: '', category: '', outcome: input.outcome, ruleIds: [] };
  if (field === 'error') {
    if (typeof input.error !== 'string') return undefined;
    only.error = input.error;
  } else {
    if (input[field] === undefined) return undefined;
    only[field] = input[field];
  }
  return redactTexts(only)[field];
}

export class RedactionPipeline {
  /** Display names this process already passed through both redaction layers (what an exit-time save may use). */
  readonly knownNames = new Map<string, string>();
  private warnedScan = false;

  constructor(private readonly warn: (message: string) => void) {}

  /**
   * secretlint over the texts of one event, or of a batch's names, in one call (its cost per call dominates for short
   * texts); where it fails, the unavailable marker for every non-empty text (warned once).
   */
  private async scan(texts: readonly string[]): Promise<string[]> {
    if (texts.every((text) => text === '')) return [...texts];
    try {
      return await scanSecrets(texts);
    } catch (error) {
      if (!this.warnedScan) {
        this.warnedScan = true;
        this.warn(`secretlint could not run (${errorCode(error)}); free text is stored as ${UNAVAILABLE}`);
      }
      return texts.map((text) => (text === '' ? text : UNAVAILABLE));
    }
  }

  /** Display names for a batch: each raw name redacted once (both layers), then cut; shared by events and counts. */
  async displayNames(raw: Iterable<string>, slicer: TimeSlicer): Promise<Map<string, string>> {
    const names = [...new Set(raw)];
    const own: string[] = [];
    for (const name of names) {
      await slicer.pause();
      own.push(redactTexts({ tool: name, category: '', outcome: 'passthrough', ruleIds: [] }).tool);
    }
    await slicer.pause();
    const scanned = await this.scan(own);
    const display = new Map(names.map((name, i) => [name, cutLabel(scanned[i] as string, MAX_KEY_CHARS)]));
    for (const [name, shown] of display) {
      if (this.knownNames.size >= MAX_KNOWN_NAMES) break;
      if (name.length <= MAX_KEY_CHARS) this.knownNames.set(name, shown);
    }
    return display;
  }

  /** The stored event of one queued snapshot, or undefined when its input cannot be read (a hostile value). */
  async buildEvent(
    item: QueuedEvent,
    names: Map<string, string>,
    id: string,
    profile: string,
    slicer: TimeSlicer,
  ): Promise<TelemetryEvent | undefined> {
    let texts: RedactedTexts;
    let input: TelemetryEventInput;
    try {
      input = await resolveCapture(item.input, () => slicer.yield());
      // the short texts together, then each argument and error text alone
      texts = redactTexts({ ...input, before: undefined, after: undefined, error: undefined });
      await slicer.pause();
      const before = ownRules(input, 'before');
      await slicer.pause();
      const after = input.after === input.before ? before : ownRules(input, 'after');
      await slicer.pause();
      const error = ownRules(input, 'error');
      if (before !== undefined) texts.before = before;
      if (after !== undefined) texts.after = after;
      if (error !== undefined) texts.error = error;
    } catch {
      return undefined;
    }
    const free = [
      texts.callId ?? '',
      texts.model ?? '',
      texts.before ?? '',
      texts.after ?? '',
      texts.error ?? '',
      ...texts.ruleIds,
      ...texts.changes,
    ];
    await slicer.pause();
    const [callId, model, before, after, error, ...rest] = await this.scan(free);
    const redacted: RedactedTexts = {
      tool: names.get(item.input.tool) ?? OTHER,
      category: names.get(item.input.category) ?? OTHER,
      ruleIds: rest.slice(0, texts.ruleIds.length),
      changes: rest.slice(texts.ruleIds.length),
    };
    if (texts.callId !== undefined) redacted.callId = callId as string;
    if (texts.model !== undefined) redacted.model = model as string;
    if (texts.before !== undefined) redacted.before = before as string;
    if (texts.after !== undefined) redacted.after = after as string;
    if (texts.error !== undefined) redacted.error = error as string;
    const event = boundEvent(redacted, item.input, id, item.at);
    event.profile = profile;
    return event;
  }
}
