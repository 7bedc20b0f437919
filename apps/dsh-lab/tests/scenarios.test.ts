/** The scenario catalogue is well-formed data, and its expectation checker can fail. */
import { describe, expect, it } from 'vitest';
import { checkModelSees, codeScenarios, nativeScenarios, scenarioScript, type Scenario } from '../src/index.js';

const all: Scenario[] = [...nativeScenarios, ...codeScenarios];

describe('scenario catalogue', () => {
  it('has unique ids, each the id of its own call, in the right mode', () => {
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
    for (const s of all) {
      expect(s.call.id).toBe(s.id);
      expect(s.id.startsWith(s.mode === 'native' ? 'n_' : 'c_')).toBe(true);
    }
  });

  it('covers the design failure classes in both modes', () => {
    const classes = (list: readonly Scenario[]) => new Set(list.map((s) => s.category));
    expect([...classes(nativeScenarios)]).toEqual(
      expect.arrayContaining([
        'invalid-args',
        'editor-path',
        'editor-range',
        'fs-not-observed',
        'fs-stale-version',
        'fs-edit-anchor',
        'unknown-tool',
      ]),
    );
    expect([...classes(codeScenarios)]).toEqual(
      expect.arrayContaining([
        'invalid-args',
        'code-mode-direct-call',
        'code-syntax',
        'inner-invalid-args',
        'code-runtime',
        'fs-not-observed',
      ]),
    );
  });

  it('expects a healed call to turn a baseline error into a success, and a kept error to stay an error', () => {
    for (const s of all) {
      if (s.withPlugin.outcome === 'healed') expect(s.withPlugin.isError, s.id).toBe(false);
      if (s.withPlugin.outcome === 'kept-error')
        expect([s.withoutPlugin.isError, s.withPlugin.isError], s.id).toEqual([true, true]);
      if (s.withPlugin.outcome === 'pass-through') expect(s.withoutPlugin.isError, s.id).toBe(false);
    }
  });

  it('scripts setup calls before each scenario call and ends with a text', () => {
    const steps = scenarioScript(nativeScenarios);
    const ids = steps.flatMap((step) => ('toolCalls' in step ? step.toolCalls.map((c) => c.id) : []));
    expect(ids.indexOf('n_stale_read')).toBeLessThan(ids.indexOf('n_stale_edit'));
    expect(ids.indexOf('n_stale_touch')).toBe(ids.indexOf('n_stale_edit') - 1);
    expect(steps.at(-1)).toHaveProperty('text');
  });
});

describe('checkModelSees', () => {
  it('accepts a matching text and reports every mismatch otherwise', () => {
    expect(
      checkModelSees(
        'Error: unknown tool "x" in /w',
        { isError: true, startsWith: 'Error: unknown', includes: ['{{ws}}'] },
        '/w',
      ),
    ).toEqual([]);
    expect(checkModelSees('fine', { isError: true }, '/w')).toHaveLength(1);
    expect(checkModelSees('fine', { isError: false, exact: 'fine!' }, '/w')).toHaveLength(1);
    expect(checkModelSees('fine', { isError: false, excludes: ['fin'] }, '/w')).toHaveLength(1);
    expect(checkModelSees(undefined, { isError: false }, '/w')).toEqual([
      'the model never saw a tool message for this call',
    ]);
  });
});
