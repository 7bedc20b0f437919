/**
 * The same repair under `streamText`: the SDK's mock model streams a broken tool call; the repaired call's
 * tool runs in the same step and the stream shows the repaired input, while a cut-off call streams the SDK's
 * own tool error.
 */
import { streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createToolCallRepair, type RepairReport } from '../src/index.js';
import { codingTools, type Executions } from './sdk-loop.js';

function streamingModel(toolName: string, input: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: {
      stream: convertArrayToReadableStream([
        { type: 'stream-start', warnings: [] },
        { type: 'tool-call', toolCallId: 'call-1', toolName, input },
        {
          type: 'finish',
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 5, text: 5, reasoning: 0 },
          },
        },
      ]),
    },
  });
}

async function stream(toolName: string, input: string) {
  const executions: Executions = [];
  const reports: RepairReport[] = [];
  const result = streamText({
    model: streamingModel(toolName, input),
    tools: codingTools(executions),
    prompt: 'do the task',
    repairToolCall: createToolCallRepair({ onReport: (report) => reports.push(report) }),
  });
  const parts: { type: string; [key: string]: unknown }[] = [];
  for await (const part of result.fullStream) parts.push(part as (typeof parts)[number]);
  return { executions, reports, parts, steps: await result.steps };
}

describe('streamText', () => {
  it('a near-JSON call with an alias key streams the repaired call and runs it in the same step', async () => {
    const { executions, parts, steps, reports } = await stream('bash', "{'cmd': 'npm run build'}");
    expect(steps).toHaveLength(1);
    expect(executions).toEqual([
      { tool: 'bash', input: { command: 'npm run build', description: expect.any(String) } },
    ]);
    const call = parts.find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({ toolName: 'bash', input: { command: 'npm run build' } });
    expect(parts.some((part) => part.type === 'tool-result')).toBe(true);
    expect(reports[0]!.ruleIds).toEqual(['args.repair-near-json', 'args.rename-alias', 'args.fill-description']);
  });

  it("a cut-off call streams the SDK's own tool error and nothing runs", async () => {
    const { executions, parts, reports } = await stream('bash', '{"command": "rm -rf /srv/app/releases/20');
    expect(executions).toEqual([]);
    const error = parts.find((part) => part.type === 'tool-error');
    expect(String(error?.error)).toMatch(/AI_InvalidToolInputError|Invalid input for tool bash/);
    expect(reports[0]).toMatchObject({ repaired: false, category: 'invalid-args' });
  });
});
