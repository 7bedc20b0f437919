/**
 * Shared vitest settings: tests import workspace packages from their TypeScript sources, so a test run
 * never depends on a stale build. Browser tests of built output opt out by importing files from dist directly.
 */
import { fileURLToPath } from 'node:url';

const packagesDir = fileURLToPath(new URL('./packages/', import.meta.url));

export const workspaceAliases = [
  {
    find: /^@dsh-tool-normalizer\/([a-z-]+)\/([a-z-]+)$/,
    replacement: `${packagesDir}$1/src/$2.ts`,
  },
  {
    find: /^@dsh-tool-normalizer\/([a-z-]+)$/,
    replacement: `${packagesDir}$1/src/index.ts`,
  },
];
