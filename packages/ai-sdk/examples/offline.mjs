/**
 * Runnable example (no network, no API key): the AI SDK's own mock model sends a broken `bash` call and a call
 * to a tool name that does not exist; the repair fixes both before the tools run. Run it after a build:
 *   pnpm --filter @dsh-tool-normalizer/ai-sdk run build && node packages/ai-sdk/examples/offline.mjs
 * With a real provider, replace `model` by e.g. `openai('gpt-5')`; nothing else changes.
 */
import { generateText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { healToolCalls } from '@dsh-tool-normalizer/ai-sdk';

const tools = {
  bash: tool({
    description: 'Run a shell command',
    inputSchema: z.object({ command: z.string(), description: z.string() }),
    execute: async ({ command }) => `ran: ${command}`,
  }),
  read: tool({
    description: 'Read a file',
    inputSchema: z.object({ file_path: z.string() }),
    execute: async ({ file_path }) => `contents of ${file_path}`,
  }),
};

const model = new MockLanguageModelV4({
  doGenerate: {
    content: [
      { type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: "{'cmd': 'ls -la',}" },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'read_file', input: '{"file_path": "README.md"}' },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    },
    warnings: [],
  },
});

const result = await generateText({
  model,
  tools,
  prompt: 'List the files, then read the README.',
  ...healToolCalls(tools, {
    onReport: (report) =>
      console.log(
        `${report.seam}: ${report.repaired ? 'applied' : 'declined'}: ${report.requestedTool} -> ${report.tool} [${report.ruleIds.join(', ')}]`,
      ),
  }),
});

for (const part of result.steps[0].content) {
  if (part.type === 'tool-result') console.log(`${part.toolName}(${JSON.stringify(part.input)}) => ${part.output}`);
  if (part.type === 'tool-error') console.log(`${part.toolName} failed: ${part.error}`);
}
