/**
 * Runs the WHOLE healer under a Node >= 22.15 child, where it uses node:module.stripTypeScriptTypes.
 * argv[2] is an ESM bundle of src/index.ts (built by the test with esbuild); stdin is a JSON array of
 * programs; stdout is `{ backend, results, fast }` with one HealResult per program and, where the bundle exports
 * `plainJavaScriptVerdict`, the fast path's answer per program (`null` where it leaves the verdict to the strip).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const healer = await import(pathToFileURL(process.argv[2]).href);
const programs = JSON.parse(readFileSync(0, 'utf8'));
const results = programs.map((code) => healer.healProgram(code));
const fast =
  typeof healer.plainJavaScriptVerdict === 'function'
    ? programs.map((code) => healer.plainJavaScriptVerdict(code) ?? null)
    : undefined;
process.stdout.write(JSON.stringify({ node: process.version, backend: healer.stripBackend(), results, fast }));
