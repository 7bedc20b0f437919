/**
 * The release table and `releaseFacts`: every known release has a row whose facts hang together (Code Mode's name,
 * its sub-call vocabulary and the accepted modes agree), the lookup is semver-aware, and an unknown version gets the
 * nearest known release's facts and says so.
 */
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import {
  CODE_SUB_CALLS,
  codeModeNameFor,
  DSH_LIVE,
  DSH_RELEASES,
  GATE_SINCE,
  PTC_SUB_CALLS,
  releaseFacts,
} from '../src/index.js';

describe('the release table', () => {
  it.each(DSH_RELEASES.map((version) => [version]))('%s has a row whose facts agree', (version) => {
    const facts = releaseFacts(version);
    expect(facts).toMatchObject({ version, known: true, basis: version });
    if (!facts) return;
    expect(facts.note).toBeUndefined();
    expect(facts.presentationModes).toContain(facts.codeModeName);
    expect(facts.presentationModes).not.toContain(facts.codeModeName === 'code' ? 'ptc' : 'code');
    expect(facts.subCalls).toBe(facts.codeModeName === 'code' ? CODE_SUB_CALLS : PTC_SUB_CALLS);
    expect(facts.sources.length).toBeGreaterThan(0);
    expect(facts.needsRc8Workarounds).toBe(version === DSH_LIVE);
  });

  it.each([
    ['0.1.0-rc.8', 'code', 0, 'settings.plugin.item', false, 'live'],
    ['0.1.1-rc.2', 'code', 0, 'settings.plugin.item', false, 'by-hand'],
    ['0.1.5-rc.3', 'ptc', 3, 'settings.plugin.item', false, 'fixture'],
    ['0.1.7-alpha.2', 'ptc', 4, 'settings.plugin.item', false, 'fixture'],
    ['0.1.7-rc.1', 'ptc', 4, 'settings.plugin.item', true, 'fixture'],
    ['0.2.0-rc.2', 'ptc', 4, 'settings.plugin.item', true, 'fixture'],
    ['0.2.1-alpha.1', 'ptc', 4, 'plugins.row.config', true, 'fixture'],
    ['0.2.1-alpha.2', 'ptc', 4, 'plugins.row.config', true, 'fixture'],
  ] as const)(
    '%s: mode %s, log format %s, options on %s, gate %s, proven %s',
    (version, mode, format, seat, gate, proof) => {
      const facts = releaseFacts(version);
      expect(facts?.codeModeName).toBe(mode);
      expect(facts?.logFormat.version).toBe(format);
      expect(facts?.optionsSeat).toBe(seat);
      expect(facts?.hasCompatibilityGate).toBe(gate);
      expect(facts?.proof).toBe(proof);
    },
  );

  it('the gate exists exactly from GATE_SINCE on', () => {
    for (const version of DSH_RELEASES)
      expect(releaseFacts(version)?.hasCompatibilityGate, version).toBe(semver.gte(version, GATE_SINCE));
  });

  it('live options: a settings namespace up to 0.1.7-rc.1, the row Config volatile fields from 0.1.7-rc.2', () => {
    for (const version of DSH_RELEASES) {
      const facts = releaseFacts(version)!;
      expect(facts.liveOptions, version).toBe(
        semver.gte(version, '0.1.7-rc.2') ? 'volatile-config' : 'settings-namespace',
      );
      // Read in source for rc.8 (live), 0.1.1-rc.2 and 0.1.7-rc.2; assumed everywhere else, and said so.
      const read = ['0.1.0-rc.8', '0.1.1-rc.2', '0.1.7-rc.2'].includes(version);
      expect(facts.unconfirmed.includes('liveOptions'), version).toBe(!read);
    }
    expect(releaseFacts('0.1.7-rc.2')?.sources.join(' ')).toMatch(/1dd6c6a3.*settings\/settings\/src\/index\.ts/);
  });

  it('rc.8 runs programs in dsh-code-runtime, 0.2.x in ptc-runtime; settings forms were renamed at 0.2.0', () => {
    expect(releaseFacts('0.1.0-rc.8')?.programRuntime.package).toBe('@deepseek-ai/dsh-code-runtime');
    expect(releaseFacts('0.2.0-rc.1')?.programRuntime.package).toBe('@deepseek-ai/dsh-ptc-runtime');
    expect(releaseFacts('0.1.7-rc.2')?.settingsForm).toBe('SettingsScope');
    expect(releaseFacts('0.2.0-rc.1')?.settingsForm).toBe('ConfigForm');
  });
});

describe('releaseFacts for versions the table does not list', () => {
  it.each([
    ['0.1.0', '0.1.0-rc.8'],
    ['0.1.1', '0.1.1-rc.2'],
    ['0.1.5', '0.1.5-rc.3'],
    ['0.1.7-rc.3', '0.1.7-rc.2'],
    ['0.1.7', '0.1.7-rc.2'],
    ['0.2.0', '0.2.0-rc.2'],
    ['0.2.1-alpha.10', '0.2.1-alpha.2'],
    ['0.3.0', '0.2.1-alpha.2'],
    ['1.0.0', '0.2.1-alpha.2'],
    ['0.0.9', '0.1.0-rc.8'],
    ['0.1.0-rc.7', '0.1.0-rc.8'],
  ])('%s is read as the nearest known release %s, and says so', (version, basis) => {
    const facts = releaseFacts(version);
    expect(facts).toMatchObject({ version, known: false, basis, needsRc8Workarounds: false });
    expect(facts?.note).toContain(basis);
    expect(facts?.unconfirmed).toContain('codeModeName');
    expect(facts?.codeModeName).toBe(releaseFacts(basis)?.codeModeName);
  });

  it.each([['latest'], [''], ['0.2'], ['v'], ['x'.repeat(10_000)], [`0.2.1-${'a'.repeat(300)}`]])(
    'is undefined for %j, which is not a version',
    (version) => {
      expect(releaseFacts(version)).toBeUndefined();
    },
  );

  it('codeModeNameFor: the host name per release; rc.8 for an unknown or missing version', () => {
    expect(codeModeNameFor('0.1.0-rc.8')).toBe('code');
    expect(codeModeNameFor('0.2.0-rc.2')).toBe('ptc');
    expect(codeModeNameFor('0.4.0')).toBe('ptc');
    expect(codeModeNameFor(undefined)).toBe('code');
    expect(codeModeNameFor('not a version')).toBe('code');
  });

  it('returns fresh objects: a caller cannot change the table', () => {
    const facts = releaseFacts('0.2.0-rc.1');
    if (facts) facts.codeModeName = 'code';
    expect(releaseFacts('0.2.0-rc.1')?.codeModeName).toBe('ptc');
  });
});
