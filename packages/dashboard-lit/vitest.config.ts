import { defineProject } from 'vitest/config';
import { hangBounds, workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  test: {
    name: 'dashboard-lit',
    include: ['tests/**/*.test.ts'],
    // The browser tests load dist/; rebuild it first when it is missing or older than src/.
    globalSetup: ['tests/global-setup.ts'],
    ...hangBounds,
    // Browser assertions poll the page; a loaded 2-core CI machine needs more than the 1 s default.
    expect: { poll: { timeout: 10_000 } },
  },
});
