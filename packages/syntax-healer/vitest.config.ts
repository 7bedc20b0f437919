import { defineProject } from 'vitest/config';
import { hangBounds, workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  test: { ...hangBounds, name: 'syntax-healer', include: ['tests/**/*.test.ts'] },
});
