import { defineProject } from 'vitest/config';
import { workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  test: { name: 'ai-sdk', include: ['tests/**/*.test.ts'] },
});
