import { defineProject } from 'vitest/config';
import { hangBounds, healerSetup, workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  test: {
    ...hangBounds,
    name: 'ai-sdk',
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/ai6/**'],
    setupFiles: [healerSetup],
  },
});
