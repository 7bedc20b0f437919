/**
 * The engine's one door to the syntax healer (and so to Babel's parser), opened on first use: importing
 * core-rules, or healing a native call, never loads Babel; the first run_code program the engine compiles,
 * heals or parses does. The API stays synchronous:
 * - in Node (unbundled) the healer is loaded with a `require` made by `module.createRequire`, reached through
 *   `process.getBuiltinModule` (Node >= 20.16 / 22.3; `require` of the healer's ES module needs Node >= 20.19 /
 *   22.12), so nothing here imports `node:module` and a browser bundle still builds;
 * - in a bundle the plain `require("@dsh-tool-normalizer/syntax-healer")` is what esbuild sees: it inlines the
 *   healer as a module initialised on that first call, and drops it with the functions below when nothing calls them
 *   (a bundle that keeps packages external gets esbuild's throwing `require`, and the Node path above then runs);
 * - anywhere else (an older Node, a runtime without either), `useHealer` hands the healer in.
 * Call sites import the wrappers below under the healer's own names.
 */
import type * as SyntaxHealer from '@dsh-tool-normalizer/syntax-healer';

/** What the engine uses of syntax-healer. */
export type Healer = Pick<
  typeof SyntaxHealer,
  | 'applyEdits'
  | 'calledTools'
  | 'compilesLikeHost'
  | 'healProgram'
  | 'lineOf'
  | 'parseProgram'
  | 'propertyKey'
  | 'staticString'
  | 'toolCallSites'
>;

let healer: Healer | undefined;

/** Hands the healer in (`useHealer(await import('@dsh-tool-normalizer/syntax-healer'))`) where it cannot be loaded. */
export function useHealer(given: Healer): void {
  healer = given;
}

/** Whether the healer has been loaded or handed in (Babel's parser is then loaded too). */
export function healerLoaded(): boolean {
  return healer !== undefined;
}

type Builtins = { getBuiltinModule?: (id: string) => unknown };
type NodeModule = { createRequire(url: string): (id: string) => unknown };

function loadHealer(): Healer {
  const nodeModule = (globalThis as { process?: Builtins }).process?.getBuiltinModule?.('node:module') as
    | NodeModule
    | undefined;
  // A bundle that inlines the healer defines `require`; one that leaves it external has a `require` that throws.
  if (typeof require === 'function') {
    try {
      return require('@dsh-tool-normalizer/syntax-healer') as Healer;
    } catch (error) {
      if (!nodeModule) throw error;
    }
  }
  if (!nodeModule)
    throw new Error(
      'core-rules cannot load the syntax healer here; call useHealer(await import("@dsh-tool-normalizer/syntax-healer")) first',
    );
  return nodeModule.createRequire(import.meta.url)('@dsh-tool-normalizer/syntax-healer') as Healer;
}

function syntaxHealer(): Healer {
  healer ??= loadHealer();
  return healer;
}

export const applyEdits: Healer['applyEdits'] = (...args) => syntaxHealer().applyEdits(...args);
export const calledTools: Healer['calledTools'] = (...args) => syntaxHealer().calledTools(...args);
export const compilesLikeHost: Healer['compilesLikeHost'] = (...args) => syntaxHealer().compilesLikeHost(...args);
export const healProgram: Healer['healProgram'] = (...args) => syntaxHealer().healProgram(...args);
export const lineOf: Healer['lineOf'] = (...args) => syntaxHealer().lineOf(...args);
export const parseProgram: Healer['parseProgram'] = (...args) => syntaxHealer().parseProgram(...args);
export const propertyKey: Healer['propertyKey'] = (...args) => syntaxHealer().propertyKey(...args);
export const staticString: Healer['staticString'] = (...args) => syntaxHealer().staticString(...args);
export const toolCallSites: Healer['toolCallSites'] = (...args) => syntaxHealer().toolCallSites(...args);

/** Whether `code` compiles the way the host compiles a run_code program (false for anything but text). */
export function programCompiles(code: unknown): boolean {
  return typeof code === 'string' && compilesLikeHost(code).ok;
}
