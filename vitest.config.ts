import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // ai-sdk's second project runs its tests against `ai` 6 (vitest.ai6.config.ts).
    projects: ['packages/*', 'apps/*', 'packages/ai-sdk/vitest.ai6.config.ts'],
  },
});
