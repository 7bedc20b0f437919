/**
 * Lets prom-client load inside an ES-module bundle. prom-client is CommonJS and `require`s Node built-ins
 * (`util`, `cluster`, ...); esbuild turns those into calls of a shim that uses a `require` function when one is
 * in scope and throws "Dynamic require of ... is not supported" otherwise, which is what happens in the published
 * ESM bundle. Importing this module right before prom-client provides a global `require` (Node's own, from
 * `createRequire`) only while prom-client initialises; `releaseNodeRequire()` removes it again right after, so
 * nothing else in the host ever sees it. When a `require` already exists (CommonJS, or a bundle banner that
 * defines one) this does nothing.
 */
import { createRequire } from 'node:module';

const holder = globalThis as { require?: unknown };
const provided = holder.require === undefined;
if (provided) holder.require = createRequire(import.meta.url);

/** Removes the global `require` this module added (idempotent). */
export function releaseNodeRequire(): void {
  if (provided && holder.require !== undefined) delete holder.require;
}
