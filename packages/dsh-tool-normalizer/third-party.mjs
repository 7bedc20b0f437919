/**
 * What the published files bundle from other people, read from esbuild's metafiles (never a hand list): every
 * input file that lives in a `node_modules` package is traced to its package folder, whose package.json gives the
 * name, version and licence and whose LICENSE/COPYING/NOTICE files give the licence text. `build.mjs` writes two
 * files from it into the tarball: dist/THIRD_PARTY_NOTICES.md (each package with its licence text) and dist/sbom.cdx.json
 * (a CycloneDX 1.5 JSON bill of materials). The SBOM is plain JSON written here (a dozen fields per package); a
 * generator library would add a dependency for no check we do not already make. The release check
 * (scripts/release-check.mjs) compares the SBOM with the packages the shipped bundles name in their path comments.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Licence files a package may ship (LICENSE, LICENSE.md, LICENSE.BSD, license, COPYING, NOTICE, …). */
const LICENCE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;

/** The folder of the package that holds `file` (its nearest package.json with a name and version), or undefined. */
function packageDirOf(file) {
  let dir = path.dirname(file);
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const parsed = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      if (typeof parsed.name === 'string' && typeof parsed.version === 'string') return dir;
    }
    dir = path.dirname(dir);
  }
  return undefined;
}

/** A package.json `license` as one SPDX expression (the old `{type}` and `licenses: [...]` forms included). */
function licenceOf(manifest) {
  if (typeof manifest.license === 'string' && manifest.license.trim()) return manifest.license.trim();
  if (manifest.license && typeof manifest.license.type === 'string') return manifest.license.type;
  if (Array.isArray(manifest.licenses) && manifest.licenses.length > 0)
    return manifest.licenses.map((entry) => entry.type ?? String(entry)).join(' OR ');
  return undefined;
}

/**
 * The third-party packages behind the inputs of the given metafiles (inputs are relative to `workingDir`, the
 * builds' `absWorkingDir`). Only folders under a `node_modules` directory count: workspace packages are this
 * project's own code (MIT, the package's LICENSE). Throws for a bundled package without a declared licence, so
 * nothing of unknown licence is shipped.
 */
export function bundledPackages(metafiles, workingDir) {
  const byKey = new Map();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      if (input.includes(':')) continue; // esbuild namespaces (e.g. `<runtime>`): no file behind them
      const file = path.resolve(workingDir, input);
      if (!file.split(path.sep).includes('node_modules')) continue;
      const dir = packageDirOf(file);
      if (!dir) throw new Error(`${input}: no package.json with a name and version above it`);
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      const key = `${manifest.name}@${manifest.version}`;
      if (byKey.has(key)) continue;
      const license = licenceOf(manifest);
      if (!license) throw new Error(`${key} (bundled from ${input}) declares no licence`);
      const licenceFiles = fs
        .readdirSync(dir)
        .filter((name) => LICENCE_FILE.test(name))
        .sort()
        .map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8').trim() }));
      byKey.set(key, {
        name: manifest.name,
        version: manifest.version,
        license,
        homepage: typeof manifest.homepage === 'string' ? manifest.homepage : undefined,
        licenceFiles,
      });
    }
  }
  return [...byKey.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** THIRD_PARTY_NOTICES.md: one section per bundled package with its licence and the text of its licence files. */
export function renderNotices(self, packages) {
  const lines = [
    `# Third-party notices for ${self.name} ${self.version}`,
    '',
    `The files of this package bundle the ${packages.length} packages below (generated at build time from the`,
    "bundler's list of inputs; the same list is in sbom.cdx.json). Each is used under its own licence, quoted here",
    'from the package as it was bundled.',
    '',
  ];
  for (const pkg of packages) {
    lines.push(`## ${pkg.name} ${pkg.version}`, '', `License: ${pkg.license}`);
    if (pkg.homepage) lines.push(`Homepage: ${pkg.homepage}`);
    lines.push('');
    if (pkg.licenceFiles.length === 0)
      lines.push(`The package ships no licence file; its package.json declares ${pkg.license}.`, '');
    for (const file of pkg.licenceFiles) lines.push(`${file.name}:`, '', '```text', file.text, '```', '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** `pkg:npm/...` package URL (the scope's `@` percent-encoded, as the purl spec asks). */
export function purlOf(name, version) {
  return `pkg:npm/${name.replace(/^@/, '%40')}@${version}`;
}

/** A single SPDX id goes in `license.id`; anything with an operator is an `expression`. */
function cyclonedxLicence(license) {
  return /^[A-Za-z0-9.+-]+$/.test(license) ? [{ license: { id: license } }] : [{ expression: license }];
}

/**
 * sbom.cdx.json: CycloneDX 1.5 with the package itself as metadata.component and every bundled package as a
 * library component that it depends on. No timestamp and a serial number derived from the content, so the same
 * inputs give the same bytes.
 */
export function renderSbom(self, packages, tools = []) {
  const root = purlOf(self.name, self.version);
  const components = packages.map((pkg) => {
    const scope = pkg.name.startsWith('@') ? pkg.name.slice(0, pkg.name.indexOf('/')) : undefined;
    const purl = purlOf(pkg.name, pkg.version);
    return {
      type: 'library',
      'bom-ref': purl,
      ...(scope ? { group: scope } : {}),
      name: scope ? pkg.name.slice(scope.length + 1) : pkg.name,
      version: pkg.version,
      scope: 'required',
      licenses: cyclonedxLicence(pkg.license),
      purl,
      ...(pkg.homepage ? { externalReferences: [{ type: 'website', url: pkg.homepage }] } : {}),
    };
  });
  const body = {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    version: 1,
    metadata: {
      tools: { components: tools.map((tool) => ({ type: 'application', ...tool })) },
      component: {
        type: 'library',
        'bom-ref': root,
        name: self.name,
        version: self.version,
        licenses: cyclonedxLicence(self.license),
        purl: root,
      },
    },
    components,
    // Only the root's edges are known (the bundle holds each of these); what each package depends on is not
    // recorded, so no claim is made about it.
    dependencies: [{ ref: root, dependsOn: components.map((c) => c['bom-ref']) }],
  };
  const hex = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const serial = `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return `${JSON.stringify({ bomFormat: body.bomFormat, specVersion: body.specVersion, serialNumber: serial, ...body }, null, 2)}\n`;
}
