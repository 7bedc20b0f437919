import { defineProject } from 'vitest/config';
import { workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  test: { name: 'mcp-proxy', include: ['tests/**/*.test.ts'], testTimeout: 60_000 },
});
