/**
 * The REAL host compile step, for the agreement test: run by a Node >= 22.15 binary (not by vitest).
 * Reads a JSON array of programs on stdin and prints a JSON array of verdicts `{ ok, message? }`, using
 * exactly the steps of dsh-code-runtime-worker-thread rc.8: wrap, node:module.stripTypeScriptTypes in
 * strip mode, slice the body, strict AsyncFunction with the parameters tools, ToolCallError, console.
 * It deliberately does not import the healer, so it is an independent oracle.
 */
import { stripTypeScriptTypes } from 'node:module';
import { readFileSync } from 'node:fs';

const prefix = 'async function __dsh_program__() {\n';
const suffix = '\n}';
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;

const programs = JSON.parse(readFileSync(0, 'utf8'));
const verdicts = programs.map((program) => {
  try {
    const wrapped = stripTypeScriptTypes(prefix + program + suffix, { mode: 'strip' });
    const body = wrapped.slice(prefix.length, wrapped.length - suffix.length);
    new AsyncFunction('tools', 'ToolCallError', 'console', "'use strict';\n" + body);
    return { ok: true };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
});
process.stdout.write(JSON.stringify({ node: process.version, verdicts }));
