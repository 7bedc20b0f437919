import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: 'dashboard-lit',
    include: ['tests/**/*.test.ts'],
    // The browser tests load dist/; rebuild it first when it is missing or older than src/.
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
