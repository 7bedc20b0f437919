/**
 * The scripted model on its own (no DSH): what it streams, what it records, when it plays a retry, and that it
 * is bounded. DSH's deepseek provider is the real client in the real-host tier; here plain fetch plays it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel, type ScriptStep } from '../src/index.js';

const TOOLS = [{ type: 'function', function: { name: 'bash', parameters: {} } }];
let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function ask(body: Record<string, unknown>): Promise<{ status: number; events: any[] }> {
  const res = await fetch(`${model!.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const events = text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice(6))
    .map((data) => (data === '[DONE]' ? '[DONE]' : JSON.parse(data)));
  return { status: res.status, events };
}

const streamedArguments = (events: any[]) =>
  events
    .flatMap((e) => (e === '[DONE]' ? [] : e.choices))
    .flatMap((c: any) => c.delta?.tool_calls ?? [])
    .map((t: any) => t.function?.arguments ?? '')
    .join('');
const streamedText = (events: any[]) =>
  events
    .flatMap((e) => (e === '[DONE]' ? [] : e.choices))
    .map((c: any) => c.delta?.content ?? '')
    .join('');
const agentRequest = (messages: unknown[] = []) => ({ model: 'm', stream: true, tools: TOOLS, messages });

describe('scripted model', () => {
  it('binds 127.0.0.1 on an ephemeral port', async () => {
    model = await startScriptedModel([]);
    expect(model.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('streams raw argument strings verbatim, malformed JSON included, and ends with [DONE]', async () => {
    const raw = '{"command": "echo hi", "description": "unterminated';
    model = await startScriptedModel([{ toolCalls: [{ id: 'c1', name: 'bash', arguments: raw }] }]);
    const { status, events } = await ask(agentRequest());
    expect(status).toBe(200);
    expect(streamedArguments(events)).toBe(raw);
    expect(events.at(-1)).toBe('[DONE]');
    const finish = events
      .flatMap((e) => (e === '[DONE]' ? [] : e.choices))
      .map((c: any) => c.finish_reason)
      .filter(Boolean);
    expect(finish).toEqual(['tool_calls']);
  });

  it('answers title requests (no tools) without consuming a step, and records every request', async () => {
    model = await startScriptedModel([{ text: 'first step' }]);
    const title = await ask({ model: 'm', messages: [{ role: 'user', content: 'title?' }] });
    expect(streamedText(title.events)).toBe('Scripted session');
    const agent = await ask(agentRequest());
    expect(streamedText(agent.events)).toBe('first step');
    expect(model.requests.map((r) => [r.isAgent, r.answeredWith])).toEqual([
      [false, null],
      [true, 'text'],
    ]);
    expect(model.requests[1]!.estimatedTokens).toBe(Math.ceil(model.requests[1]!.bodyChars / 4));
  });

  it('plays retryOnError only when the model saw an error for that step', async () => {
    const script: ScriptStep[] = [
      {
        toolCalls: [{ id: 'a', name: 'bash', arguments: {} }],
        retryOnError: { toolCalls: [{ id: 'a_retry', name: 'bash', arguments: {} }] },
      },
      {
        toolCalls: [{ id: 'b', name: 'bash', arguments: {} }],
        retryOnError: { toolCalls: [{ id: 'b_retry', name: 'bash', arguments: {} }] },
      },
      { text: 'done' },
    ];
    model = await startScriptedModel(script);
    await ask(agentRequest());
    // a failed: the retry comes next
    await ask(agentRequest([{ role: 'tool', tool_call_id: 'a', content: 'Error: invalid arguments' }]));
    // a_retry worked, then b worked: no retry for b
    await ask(agentRequest([{ role: 'tool', tool_call_id: 'a_retry', content: 'ok' }]));
    const last = await ask(agentRequest([{ role: 'tool', tool_call_id: 'b', content: 'fine' }]));
    expect(model.requests.map((r) => r.answeredWith)).toEqual(['a', 'a_retry', 'b', 'text']);
    expect(streamedText(last.events)).toBe('done');
  });

  it('is bounded: after the script (or maxRequests) it only answers with a closing text', async () => {
    model = await startScriptedModel(
      [
        { toolCalls: [{ id: 'x', name: 'bash', arguments: {} }] },
        { toolCalls: [{ id: 'y', name: 'bash', arguments: {} }] },
      ],
      { maxRequests: 1 },
    );
    await ask(agentRequest());
    const second = await ask(agentRequest());
    expect(streamedArguments(second.events)).toBe('');
    expect(streamedText(second.events)).toMatch(/complete/);
  });

  it('rejects other routes and non-JSON bodies with an error status', async () => {
    model = await startScriptedModel([]);
    expect((await fetch(`${model.baseUrl}/v1/models`)).status).toBe(404);
    const bad = await fetch(`${model.baseUrl}/chat/completions`, { method: 'POST', body: 'not json' });
    expect(bad.status).toBe(400);
  });
});
