/**
 * Test set-up for the packages that run core-rules: hands core-rules the syntax healer from its TypeScript sources.
 * core-rules loads the healer on first use with a Node `require`, which reads built files only (vitest resolves the
 * workspace to sources, which Node cannot run); core-rules' tests/lazy-healer.test.ts proves that path on dist.
 */
import { useHealer } from './packages/core-rules/src/healer.js';
import * as syntaxHealer from './packages/syntax-healer/src/index.js';

useHealer(syntaxHealer);
