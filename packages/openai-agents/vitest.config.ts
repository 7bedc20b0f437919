import { defineProject } from 'vitest/config';
import { healerSetup, workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  test: { name: 'openai-agents', include: ['tests/**/*.test.ts'], setupFiles: [healerSetup] },
});
