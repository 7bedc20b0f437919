/**
 * Runs the WHOLE healer under a Node >= 22.15 child, where it uses node:module.stripTypeScriptTypes.
 * argv[2] is an ESM bundle of src/index.ts (built by the test with esbuild); stdin is a JSON array of
 * programs; stdout is `{ backend, results }` with one HealResult per program.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const healer = await import(pathToFileURL(process.argv[2]).href);
const programs = JSON.parse(readFileSync(0, 'utf8'));
const results = programs.map((code) => healer.healProgram(code));
process.stdout.write(JSON.stringify({ node: process.version, backend: healer.stripBackend(), results }));
