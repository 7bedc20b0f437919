import { defineProject } from 'vitest/config';
import { hangBounds, healerSetup, workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  test: { ...hangBounds, name: 'openai-agents', include: ['tests/**/*.test.ts'], setupFiles: [healerSetup] },
});
