/**
 * `dsh-tool-normalizer doctor`, its static checks on real profile folders laid out the way `dsh plugin add` writes
 * them (package.json with dsh.profile.bundles, cordis.patch.yml), and the subcommand dispatcher. The headless boot
 * check needs a real DSH: it is exercised by hand against the lab's DSH (see the package README).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkNode, checkProfile, HMR_ROW } from '../src/cli/doctor.js';
import { main, SUBCOMMANDS } from '../src/cli/main.js';

function profile(files: {
  deps?: Record<string, string>;
  bundles?: string[];
  patch?: string;
  homePatch?: string;
}): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-doctor-test-'));
  const dir = path.join(home, 'profiles', 'headless');
  fs.mkdirSync(dir, { recursive: true });
  const manifest = {
    name: 'dsh-profile-headless',
    private: true,
    dependencies: files.deps ?? {},
    dsh: { profile: { bundles: files.bundles ?? ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-headless'] } },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  if (files.patch !== undefined) fs.writeFileSync(path.join(dir, 'cordis.patch.yml'), files.patch);
  if (files.homePatch !== undefined) fs.writeFileSync(path.join(home, 'cordis.patch.yml'), files.homePatch);
  return home;
}

const healthy = {
  deps: { '@deepseek-ai/cordis-plugin-hmr': '1.0.17', 'dsh-tool-normalizer': '0.1.0' },
  bundles: ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-headless', 'dsh-tool-normalizer'],
  patch: HMR_ROW,
};

describe('doctor: Node', () => {
  it('Node 20 is a problem that names DSH rc.8 and its silent "failed to load"', () => {
    const finding = checkNode('20.20.2');
    expect(finding.status).toBe('problem');
    expect(finding.detail).toContain('DSH 0.1.0-rc.8 needs Node >= 22.15');
    expect(finding.detail).toContain('"failed to load" with nothing logged');
    expect(finding.fix).toBeDefined();
  });

  it.each([
    ['22.15.0', 'ok'],
    ['22.14.9', 'problem'],
    ['24.1.0', 'ok'],
    ['23.0.0', 'ok'],
  ])('Node %s: %s', (version, status) => {
    expect(checkNode(version).status).toBe(status);
  });
});

describe('doctor: a profile', () => {
  it('a healthy profile has no problem', () => {
    const findings = checkProfile(profile(healthy), 'headless');
    expect(findings.filter((f) => f.status === 'problem')).toEqual([]);
    expect(findings.map((f) => f.check)).toEqual([
      'profile headless: plugin row',
      'profile headless: DSH rc.8 workaround: hmr pin',
      'profile headless: DSH rc.8 workaround: hmr row',
    ]);
  });

  it('a fresh profile: plugin missing, hmr not pinned, no hmr row; each with its fix', () => {
    const findings = checkProfile(profile({}), 'headless');
    const problems = findings.filter((f) => f.status === 'problem');
    expect(problems.map((f) => f.check)).toEqual([
      'profile headless: plugin row',
      'profile headless: DSH rc.8 workaround: hmr pin',
      'profile headless: DSH rc.8 workaround: hmr row',
    ]);
    expect(problems[0]!.fix).toBe('`dsh plugin --profile headless add dsh-tool-normalizer`');
    expect(problems[1]!.fix).toBe('`dsh plugin --profile headless add @deepseek-ai/cordis-plugin-hmr@1.0.17`');
    expect(problems[1]!.detail).toContain('hmr.registerConfig is not a function');
    expect(problems[2]!.fix).toContain(HMR_ROW);
  });

  it('the empty patch layer `dsh plugin add` writes ([] under comments): the fix replaces the list, since a row appended after [] is invalid YAML', () => {
    const fresh = '# Your patch layer for this dsh profile, applied after every bundle layer:\n[]\n';
    const finding = checkProfile(profile({ ...healthy, patch: fresh }), 'headless').find((f) =>
      f.check.endsWith('hmr row'),
    );
    expect(finding?.status).toBe('problem');
    expect(finding?.fix).toMatch(/^Replace the empty list \(\[\]\) in .*cordis\.patch\.yml with:\n/);
    const withOtherRow = checkProfile(
      profile({ ...healthy, patch: '- id: other\n  disabled: true\n' }),
      'headless',
    ).find((f) => f.check.endsWith('hmr row'));
    expect(withOtherRow?.fix).toMatch(/^Add to the list in /);
  });

  it('a disabled hmr row is still a problem', () => {
    const findings = checkProfile(profile({ ...healthy, patch: '- id: hmr\n  disabled: true\n' }), 'headless');
    expect(findings.find((f) => f.check.endsWith('hmr row'))?.status).toBe('problem');
  });

  it('an invalid option is reported with the option, expected, got and the file that set it', () => {
    const home = profile({ ...healthy, homePatch: '- id: tool-normalizer\n  config:\n    autoWrapRunCode: "yes"\n' });
    const finding = checkProfile(home, 'headless').find((f) => f.check.endsWith('plugin options'));
    expect(finding?.status).toBe('problem');
    expect(finding?.detail).toContain('option "autoWrapRunCode" must be a boolean, got string "yes"');
    expect(finding?.detail).toContain(path.join(home, 'cordis.patch.yml'));
  });

  it('a profile patch that is not YAML is a problem, not a crash', () => {
    const findings = checkProfile(profile({ ...healthy, patch: '- id: hmr\n  disabled: [\n' }), 'headless');
    expect(findings.some((f) => f.check.endsWith('cordis.patch.yml') && f.status === 'problem')).toBe(true);
  });
});

describe('the dsh-tool-normalizer command', () => {
  it('dispatches subcommands from one table and rejects unknown ones with exit 2', async () => {
    expect(Object.keys(SUBCOMMANDS)).toContain('doctor');
    const errors: string[] = [];
    const original = console.error;
    console.error = (text: string) => errors.push(text);
    try {
      expect(await main(['nope'])).toBe(2);
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toContain('unknown command "nope"');
  });
});
