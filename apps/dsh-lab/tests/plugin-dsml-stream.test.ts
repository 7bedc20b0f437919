/**
 * Real DSH rc.8 headless, the scripted model on 127.0.0.1 answering the way DeepSeek served by vLLM/SGLang does:
 * 1. a whole DSML call left in the text with `finish_reason: "stop"` and no `tool_calls` (sgl-project/sglang
 *    #35736, the report's exact content: `Bash` running `pwd`);
 * 2. `finish_reason: "tool_calls"` with no call and no content (vllm-project/vllm #53255; deepseek-ai/DeepSeek-V3 #944);
 * 3. a closing text.
 * Without the plugin the turn ends at 1 with the markup as the answer (the control). With it, the host runs the
 * call (native `bash`, or bridged into run_code in Code Mode), the model sees `pwd`'s output, the stored assistant
 * message holds the call and not the markup, the empty tool-calls finish is retried by the host as its own
 * EMPTY_RESPONSE, and the session ends with the closing text.
 */
import { describe, expect, it } from 'vitest';
import { SGLANG_35736 } from '../../../packages/core-rules/tests/dsml-text-fixtures.js';
import { type ChatMessage, runSession, type ScriptStep, type SessionRun, type ToolsMode } from '../src/index.js';

const steps: ScriptStep[] = [
  { text: SGLANG_35736 },
  { text: '', finishReason: 'tool_calls' },
  { text: 'The working directory is printed above.' },
];

const agentRequests = (run: SessionRun) => run.requests.filter((request) => request.isAgent);
const messagesOf = (run: SessionRun): ChatMessage[] => agentRequests(run).at(-1)?.body.messages ?? [];
const contentText = (message: ChatMessage | undefined) =>
  typeof message?.content === 'string'
    ? message.content
    : Array.isArray(message?.content)
      ? message.content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('')
      : '';

describe('without the plugin (the control)', () => {
  it('ends the turn with the DSML markup as the answer: the call never runs', async () => {
    const run = await runSession({ mode: 'native', plugin: false, label: 'dsml-control', steps });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(agentRequests(run)).toHaveLength(1);
    expect(run.stdout).toContain('｜DSML｜invoke');
  });
});

describe.each<ToolsMode>(['native', 'code'])('with the plugin, %s mode', (mode) => {
  let run: SessionRun;

  it('plays the whole script and exits 0', async () => {
    run = await runSession({ mode, plugin: true, label: `dsml-${mode}`, steps });
    expect(run.exitCode, run.stderr).toBe(0);
    // 1: the DSML text; 2: the empty tool-calls finish; 3: the host's retry of it; the closing text answered 3.
    expect(agentRequests(run)).toHaveLength(3);
  });

  it('runs the call the text held: the model sees pwd print the workspace', () => {
    const messages = agentRequests(run)[1]?.body.messages ?? [];
    const assistant = messages.findLast((message) => message.role === 'assistant');
    const calls = assistant?.tool_calls ?? [];
    expect(calls).toHaveLength(1);
    expect(calls[0]?.function.name).toBe(mode === 'code' ? 'run_code' : 'bash');
    expect(contentText(assistant)).not.toContain('｜DSML｜');
    const tool = messages.find((message) => message.role === 'tool' && message.tool_call_id === calls[0]?.id);
    expect(contentText(tool)).toContain(run.workspace);
    expect(contentText(tool).startsWith('Error: ')).toBe(false);
  });

  it('retries the empty tool-calls finish the way the host retries an empty response', () => {
    const [, second, third] = agentRequests(run);
    // The retry resends the same conversation: nothing was appended for the empty completion.
    expect(third?.body.messages).toEqual(second?.body.messages);
    expect(messagesOf(run).filter((message) => message.role === 'assistant')).toHaveLength(1);
  });

  it("records the heal in the plugin's event log under the call's id", async () => {
    const { readFileSync } = await import('node:fs');
    expect(run.eventLogPath).toBeDefined();
    const log = readFileSync(run.eventLogPath ?? '', 'utf8');
    expect(log).toContain('call.dsml-text-to-call');
  });
});
