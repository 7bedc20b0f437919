import { defineProject } from 'vitest/config';
import { healerSetup, workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  test: { name: 'mcp-proxy', include: ['tests/**/*.test.ts'], setupFiles: [healerSetup], testTimeout: 60_000 },
});
