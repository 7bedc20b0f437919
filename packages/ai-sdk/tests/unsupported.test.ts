/**
 * A tool set written for `ai` 4 or older (`parameters`, no `inputSchema`) cannot be read: without a refusal every
 * call would go on unhealed and nothing would say so. `healToolCalls` and `createToolInputRefinement` refuse it at
 * set-up with an error that names what to install.
 */
import { type ToolSet, tool } from 'ai';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createToolInputRefinement, healToolCalls } from '../src/index.js';

const ai4Tools = {
  bash: { description: 'Run a shell command', parameters: z.object({ command: z.string() }), execute: async () => '' },
} as unknown as ToolSet;

it('refuses ai 4 tools at set-up, naming the versions to install', () => {
  expect(() => healToolCalls(ai4Tools)).toThrow(/supports ai 6 and 7: tool "bash" has `parameters`.*ai@\^7.*ai@\^6/);
  expect(() => createToolInputRefinement(ai4Tools)).toThrow(/supports ai 6 and 7/);
});

it('takes ai 6 and 7 tools', () => {
  const tools = { bash: tool({ inputSchema: z.object({ command: z.string() }), execute: async () => '' }) };
  expect(() => healToolCalls(tools)).not.toThrow();
});
