/**
 * The `ai-sdk-ai6` project: the tests under tests/ai6 with every `import … from 'ai'` (the package's sources
 * included) resolved to the real `ai` 6 (the devDependency `ai6`, an npm alias), which is what `npm i ai`
 * installs on Node 20 (`ai` 7 declares Node >= 22).
 */
import { defineProject } from 'vitest/config';
import { hangBounds, healerSetup, workspaceSources } from '../../vitest.shared.js';

export default defineProject({
  ...workspaceSources,
  resolve: { ...workspaceSources.resolve, alias: [{ find: /^ai$/, replacement: 'ai6' }] },
  test: { ...hangBounds, name: 'ai-sdk-ai6', include: ['tests/ai6/**/*.test.ts'], setupFiles: [healerSetup] },
});
