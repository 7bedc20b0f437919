/**
 * docs/architecture.md's package map cannot drift from the manifests: it has one row per workspace package (every
 * folder under packages/ and apps/), each row's "workspace packages it names" are exactly the workspace packages in
 * that package's package.json (dependencies, devDependencies and peerDependencies), and each names only packages of
 * rows above it, so the layering the map shows (imports one way, no cycle) is the real one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SCOPE = '@dsh-tool-normalizer/';

interface Row {
  /** The folder, as the map names it: `core-rules` for packages/core-rules, `apps/dsh-lab` as written. */
  name: string;
  names: string[];
}

/** The package map's rows: the first and the last cell, each as the package names written in backticks. */
function mapRows(): Row[] {
  const text = readFileSync(`${root}docs/architecture.md`, 'utf8');
  const section = text.split('\n## Package map\n')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split(' | ');
      const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
      return {
        name: ticked(cells[0] ?? '')[0] ?? '',
        names: ticked(cells.at(-1) ?? '').filter((name) => !name.startsWith('.')),
      };
    });
}

/** Every workspace package folder, named as the map names it. */
function folders(): { name: string; dir: string }[] {
  const list = (parent: string, named: (entry: string) => string) =>
    readdirSync(`${root}${parent}`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => ({ name: named(entry.name), dir: `${root}${parent}/${entry.name}` }));
  return [...list('packages', (entry) => entry), ...list('apps', (entry) => `apps/${entry}`)];
}

/** The workspace packages a manifest names, as the map names them (the scope left off). */
function manifestNames(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as Record<
    'dependencies' | 'devDependencies' | 'peerDependencies',
    Record<string, string> | undefined
  >;
  const all = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies };
  return Object.keys(all)
    .filter((name) => all[name]?.startsWith('workspace:'))
    .map((name) => name.replace(SCOPE, ''))
    .sort();
}

describe('docs/architecture.md package map', () => {
  const rows = mapRows();

  it('has one row per workspace package', () => {
    expect(rows.map((row) => row.name).sort()).toEqual(
      folders()
        .map((folder) => folder.name)
        .sort(),
    );
  });

  it.each(folders())('names the workspace packages of $name that its package.json names', ({ name, dir }) => {
    const row = rows.find((candidate) => candidate.name === name);
    expect([...(row?.names ?? [])].sort()).toEqual(manifestNames(dir));
  });

  it('names in each row only packages of the rows above it (imports one way)', () => {
    const above = new Set<string>();
    for (const row of rows) {
      for (const name of row.names) expect(above.has(name), `${row.name} names ${name}, not above it`).toBe(true);
      above.add(row.name);
    }
  });
});
