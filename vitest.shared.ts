/**
 * Shared vitest settings: tests import workspace packages from their TypeScript sources, so a test run
 * never depends on a stale build. Every workspace package's `exports` entries carry a `@dsh-tool-normalizer/source`
 * condition pointing at the entry's source file; vitest (here) and esbuild (the meta-package's bundle) resolve with
 * that condition first, and `pnpm pack` strips it (`.pnpmfile.cjs`), so the published manifests never name a
 * source file. Browser tests of built output opt out by importing files from dist directly.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The export condition that maps a workspace package to its TypeScript sources. */
export const SOURCE_CONDITION = '@dsh-tool-normalizer/source';

// Setting `conditions` replaces Vite's defaults, so prepend to the defaults of the Vite that vitest runs on.
const vitestRequire = createRequire(createRequire(import.meta.url).resolve('vitest/package.json'));
const vite: { defaultClientConditions: string[]; defaultServerConditions: string[] } = await import(
  pathToFileURL(vitestRequire.resolve('vite')).href
);

/** Resolution options for a vitest project: the source condition first, for browser-like and Node (SSR) modules. */
export const workspaceSources = {
  resolve: { conditions: [SOURCE_CONDITION, ...vite.defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, ...vite.defaultServerConditions] } },
};

/** `setupFiles` entry for projects whose tests run core-rules: it hands core-rules the healer from sources. */
export const healerSetup = fileURLToPath(new URL('./vitest.healer.ts', import.meta.url));

/**
 * Every project's per-test and per-hook time limits. They are hang bounds, not speed checks (speed is measured in
 * bench scripts): vitest's 5 s default failed heavy tests on a 2-core CI machine while other work loaded it, so a
 * test that really hangs still fails, after 2 minutes. Projects that boot real hosts set larger ones.
 */
export const hangBounds = { testTimeout: 120_000, hookTimeout: 120_000 };

/**
 * CPU milliseconds this process spent since `since` (user + system, every thread): the clock for tests' hang bounds
 * on work that must stay linear, which a loaded machine that takes the CPU away does not inflate, while quadratic
 * work still exceeds them. Speed itself is measured in bench scripts.
 */
export function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** The value of `work()` and the CPU milliseconds it took (see `cpuMsSince`). */
export function cpuTimed<T>(work: () => T): { value: T; ms: number } {
  const start = process.cpuUsage();
  const value = work();
  return { value, ms: cpuMsSince(start) };
}
