/**
 * Generated redaction sweep: more than 150 realistic secret shapes (tests/secret-shapes.ts), each with a fresh
 * random secret, placed in every field a caller can fill (arguments at several nesting and escaping depths,
 * program code beside secretlint directives, error text, callId, changes, tool, category and model names). After a
 * real flush, every file the store wrote (the database, its WAL and shared-memory files as raw bytes, the journal)
 * and the stats and events payloads must contain no 10-character piece of any labelled or provider-prefixed
 * secret. The unlabelled class is measured by bench/sweep.bench.mjs, not asserted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_EVENTS_LIMIT } from '../src/feed.js';
import { openStore, tempDir } from './helpers.js';
import { PLACEMENTS, SHAPES, findLeaks } from './secret-shapes.js';

describe('redaction sweep', () => {
  it('leaks no piece of any labelled or provider-prefixed fresh secret to any file or payload', async () => {
    const dir = tempDir();
    const { store } = openStore({ dir, maxQueuedEvents: 5000 });
    const secrets: { secret: string; label: string }[] = [];
    const shapes = Object.entries(SHAPES).filter(([, shape]) => shape.cls !== 'unlabelled');
    expect(Object.keys(SHAPES).length).toBeGreaterThanOrEqual(150);
    for (const [shapeName, shape] of shapes) {
      for (const [placeName, place] of Object.entries(PLACEMENTS)) {
        const { secret, value } = shape.make();
        secrets.push({ secret, label: `${shapeName} in ${placeName}` });
        store.record({ tool: 'bash', category: 'SHELL', outcome: 'healed-failed', ruleIds: ['r'], ...place(value) });
      }
    }
    expect(secrets.length).toBeGreaterThanOrEqual(1500);
    await store.flush();
    const payloads = [JSON.stringify(store.stats({ limit: 1000 }))];
    for (let offset = 0; offset < 1000; offset += MAX_EVENTS_LIMIT)
      payloads.push(JSON.stringify(await store.queryEvents({ offset, limit: MAX_EVENTS_LIMIT })));
    const files = readdirSync(dir).map((name) => readFileSync(join(dir, name)).toString('latin1'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    const inPayloads = findLeaks(secrets, payloads);
    const inFiles = findLeaks(secrets, files);
    const leaks = [...inPayloads].map((label) => `${label} (payload)`);
    leaks.push(...[...inFiles].filter((label) => !inPayloads.has(label)).map((label) => `${label} (file)`));
    expect(leaks.sort()).toEqual([]);
    await store.close();
  }, 180_000);
});
