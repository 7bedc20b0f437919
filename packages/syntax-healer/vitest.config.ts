import { defineProject } from 'vitest/config';
import { workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  test: { name: 'syntax-healer', include: ['tests/**/*.test.ts'] },
});
