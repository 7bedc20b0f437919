import { defineProject } from 'vitest/config';
import { healerSetup, workspaceSources } from '../../vitest.shared.js';

// The real-host tier boots DSH (Node 24 child processes) and shares one cache and DSH_HOME per run kind,
// so its files run one after another and get generous time for a cold provisioning (install of DSH rc.8).
export default defineProject({
  ...workspaceSources,
  test: {
    name: 'dsh-lab',
    include: ['tests/**/*.test.ts'],
    setupFiles: [healerSetup],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
