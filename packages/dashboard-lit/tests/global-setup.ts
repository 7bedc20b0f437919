/**
 * Makes sure the browser and Node tests run against a current build: when `dist/` is missing or older than
 * any source file, runs the package build (`tsc -b` then `build.mjs`) once before the tests start.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const OUTPUTS = ['dist/index.js', 'dist/define.js', 'dist/feed.js', 'dist/dsh-settings.js', 'dist/tn-dashboard.js'];

function newestSource(): number {
  // recursive: the stylesheets live in src/styles/
  const sources = readdirSync(join(packageDir, 'src'), { recursive: true, encoding: 'utf8' }).map((name) =>
    join(packageDir, 'src', name),
  );
  sources.push(join(packageDir, 'build.mjs'));
  return Math.max(...sources.map((file) => statSync(file).mtimeMs));
}

export function isBuildStale(): boolean {
  const outputs = OUTPUTS.map((file) => join(packageDir, file));
  if (!outputs.every((file) => existsSync(file))) return true;
  return Math.min(...outputs.map((file) => statSync(file).mtimeMs)) < newestSource();
}

export default function setup(): void {
  if (!isBuildStale()) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', packageDir], { stdio: 'inherit' });
  execFileSync(process.execPath, [join(packageDir, 'build.mjs')], { stdio: 'inherit', cwd: packageDir });
}
