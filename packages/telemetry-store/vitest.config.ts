import { defineProject } from 'vitest/config';
import { workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  test: { name: 'telemetry-store', include: ['tests/**/*.test.ts'] },
});
