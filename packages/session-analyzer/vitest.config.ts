import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: { name: 'session-analyzer', include: ['tests/**/*.test.ts'], testTimeout: 60_000 },
});
