/**
 * The smaller tables: sub-call vocabularies (both names read everywhere), log formats by header version, and that the
 * package is browser-safe (no Node built-in or host import in its sources).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DSH_RELEASES, LOG_FORMATS, logFormat, releaseFacts, SUB_CALL_EVENTS, SUB_CALL_HOOKS } from '../src/index.js';

describe('sub-call vocabularies', () => {
  it('reads both event and hook names, whatever the release', () => {
    expect([...SUB_CALL_EVENTS]).toEqual(['tool/code-dispatch', 'tool/ptc-dispatch']);
    expect([...SUB_CALL_HOOKS]).toEqual(['tools/code-dispatch-log', 'tools/ptc-dispatch-log']);
    for (const version of DSH_RELEASES) {
      const words = releaseFacts(version)?.subCalls;
      expect(SUB_CALL_EVENTS.has(words?.logEvent ?? '')).toBe(true);
      expect(SUB_CALL_HOOKS.has(words?.hook ?? '')).toBe(true);
    }
  });
});

describe('log formats', () => {
  it.each([
    [undefined, 'dev build'],
    [1, 'dev build'],
    [0, '0.1.0-rc.8'],
    [3, '0.1.5'],
    [4, '0.2.x'],
  ])('format %s is written by %s', (version, releases) => {
    expect(logFormat(version)?.releases).toContain(releases);
  });

  it('knows no other format, and every release row points into the table', () => {
    expect(logFormat(2)).toBeUndefined();
    expect(logFormat(5)).toBeUndefined();
    for (const version of DSH_RELEASES) expect(LOG_FORMATS).toContain(releaseFacts(version)?.logFormat);
  });
});

describe('browser-safe', () => {
  it('imports nothing but its own modules and semver', () => {
    const dir = new URL('../src/', import.meta.url);
    for (const file of fs.readdirSync(dir)) {
      const text = fs.readFileSync(new URL(file, dir), 'utf8');
      const imports = [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
      for (const name of imports) expect(name === 'semver' || name?.startsWith('./'), `${file}: ${name}`).toBe(true);
    }
  });
});
