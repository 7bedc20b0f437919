/**
 * `dsmlTextMiddleware` in the real AI SDK (`wrapLanguageModel`, `generateText`, `streamText`, `MockLanguageModelV4`):
 * a DSML tool-call block that vLLM/SGLang left in the model's text (core-rules' fixtures, written from the public
 * reports) becomes the calls it names and those tools run with exactly those arguments; a malformed or cut block,
 * an unknown tool, a `tool_choice: none` call and a cut (`length`) finish stay text; a response without a block
 * comes back as the very object (generate) or the very parts (stream).
 */
import {
  generateText,
  jsonSchema,
  type LanguageModelMiddleware,
  streamText,
  type ToolSet,
  tool,
  wrapLanguageModel,
} from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CUT_BLOCK,
  D,
  OPENCODE_24566_MALFORMED,
  OPENSQUILLA_985_AS_POSTED,
  OPENSQUILLA_985_TWO_CALLS,
  SGLANG_17141_V32,
  SGLANG_35736,
  VLLM_54686_PROBE,
  VLLM_54686_TOOL,
} from '../../core-rules/tests/dsml-text-fixtures.js';
import { dsmlTextMiddleware, type RepairReport } from '../src/index.js';
import { NONE_REASON } from '../src/dsml-text.js';
import type { Executions } from './sdk-loop.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

type Finish = 'stop' | 'length' | 'tool-calls';

/** The text cut into deltas of `size` characters (so a tag spans deltas). */
function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/** A mock model that answers with `text` only (one text part, or text deltas), finishing with `finish`. */
function textModel(text: string, finish: Finish = 'stop', size = 5) {
  return new MockLanguageModelV4({
    doGenerate: {
      content: [{ type: 'text', text }],
      finishReason: { unified: finish, raw: finish === 'tool-calls' ? 'tool_calls' : finish },
      usage,
      warnings: [],
    },
    doStream: {
      stream: convertArrayToReadableStream([
        { type: 'stream-start' as const, warnings: [] },
        { type: 'text-start' as const, id: 't1' },
        ...chunks(text, size).map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
        { type: 'text-end' as const, id: 't1' },
        { type: 'finish' as const, finishReason: { unified: finish, raw: finish }, usage },
      ]),
    },
  });
}

function recording(executions: Executions, name: string) {
  return async (input: unknown) => {
    executions.push({ tool: name, input });
    return `${name} ran`;
  };
}

/** The fixtures' tools: `jsonSchema()` (no validate) and zod, as users declare them. */
function fixtureTools(executions: Executions): ToolSet {
  const object = (properties: Record<string, unknown>, required: string[]) =>
    jsonSchema({ type: 'object', properties, required } as never);
  return {
    Bash: tool({
      description: 'Run a shell command',
      inputSchema: z.object({ command: z.string() }),
      execute: recording(executions, 'Bash'),
    }),
    get_weather: tool({
      description: 'Weather for a city',
      inputSchema: object({ location: { type: 'string' } }, ['location']),
      execute: recording(executions, 'get_weather'),
    }),
    exec_command: tool({
      description: 'Run a command',
      inputSchema: object({ cmd: { type: 'string' } }, ['cmd']),
      execute: recording(executions, 'exec_command'),
    }),
    [VLLM_54686_TOOL.name]: tool({
      description: VLLM_54686_TOOL.description,
      inputSchema: jsonSchema(VLLM_54686_TOOL.parameters as never),
      execute: recording(executions, VLLM_54686_TOOL.name),
    }),
  };
}

type Driver = 'generateText' | 'streamText';

interface RunOptions {
  finish?: Finish;
  tools?: (executions: Executions) => ToolSet;
  toolChoice?: 'none';
  size?: number;
}

async function run(driver: Driver, text: string, options: RunOptions = {}) {
  const executions: Executions = [];
  const reports: RepairReport[] = [];
  const model = wrapLanguageModel({
    model: textModel(text, options.finish, options.size),
    middleware: dsmlTextMiddleware({ onReport: (report) => reports.push(report) }),
  });
  const tools = (options.tools ?? fixtureTools)(executions);
  const settings = {
    model,
    tools,
    prompt: 'do the task',
    ...(options.toolChoice ? { toolChoice: options.toolChoice } : {}),
  };
  if (driver === 'generateText') {
    const result = await generateText(settings);
    return { executions, reports, text: result.text, finishReason: result.finishReason, calls: result.toolCalls };
  }
  const result = streamText(settings);
  let streamed = '';
  for await (const part of result.fullStream) if (part.type === 'text-delta') streamed += part.text;
  expect(await result.text).toBe(streamed);
  return {
    executions,
    reports,
    text: streamed,
    finishReason: await result.finishReason,
    calls: await result.toolCalls,
  };
}

const AROUND = ['Let me look.\n', '\nI will wait for the result.'] as const;

describe.each<Driver>(['generateText', 'streamText'])('dsmlTextMiddleware with %s', (driver) => {
  it.each([
    ['sglang #35736 (V4 tool_calls)', SGLANG_35736, [{ tool: 'Bash', input: { command: 'pwd' } }]],
    [
      'sglang #17141 (V3.2 function_calls)',
      SGLANG_17141_V32,
      [{ tool: 'get_weather', input: { location: 'Beijing' } }],
    ],
    ['vllm #54686 probe', VLLM_54686_PROBE, [{ tool: 'record_item', input: { name: 'alpha', note: 'first' } }]],
    [
      'opensquilla #985 (two calls)',
      OPENSQUILLA_985_TWO_CALLS,
      [
        {
          tool: 'exec_command',
          input: { cmd: "Get-Item -LiteralPath 'D:\\deskop_.nbt' | Select-Object FullName,Length,LastWriteTime" },
        },
        {
          tool: 'exec_command',
          input: { cmd: "Get-FileHash -Algorithm SHA256 -LiteralPath 'D:\\deskop_.nbt' | Format-List" },
        },
      ],
    ],
  ])('%s: the block becomes the calls, the tools run with exactly those arguments', async (_name, block, expected) => {
    const { executions, text, finishReason, calls, reports } = await run(driver, AROUND[0] + block + AROUND[1]);
    expect(executions).toEqual(expected);
    expect(text).toBe(AROUND[0] + AROUND[1]);
    expect(finishReason).toBe('tool-calls');
    expect(calls.map((call) => call.toolName)).toEqual(expected.map((call) => call.tool));
    expect(reports.map((report) => [report.seam, report.repaired, report.ruleIds[0]])).toEqual(
      expected.map(() => ['text', true, 'call.dsml-text-to-call']),
    );
  });

  it('a 300 KB parameter in one-character deltas is healed (a bound against quadratic work)', async () => {
    const content = 'y'.repeat(300 * 1024);
    const block = VLLM_54686_PROBE.replace('>first<', `>${content}<`);
    // Quadratic work over 300k deltas would take minutes: the test's bound (no wall-clock assert; the speed is
    // bench/dsml-text.bench.mjs's).
    const { executions } = await run(driver, block, { size: 1 });
    expect(executions).toEqual([{ tool: 'record_item', input: { name: 'alpha', note: content } }]);
  }, 120_000);

  it('a block that is the whole text leaves no text behind', async () => {
    const { executions, text } = await run(driver, SGLANG_35736, { size: 1 });
    expect(executions).toEqual([{ tool: 'Bash', input: { command: 'pwd' } }]);
    expect(text).toBe('');
  });

  it("under toolChoice 'none' the block stays text, nothing runs, and one refusal names the choice", async () => {
    const sent = AROUND[0] + SGLANG_35736 + AROUND[1];
    const { executions, text, calls, reports } = await run(driver, sent, { toolChoice: 'none', size: 3 });
    expect(executions).toEqual([]);
    expect(calls).toEqual([]);
    expect(text).toBe(sent);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ seam: 'text', tool: '', repaired: false, reason: NONE_REASON });
    // plain text under 'none' reports nothing
    expect((await run(driver, 'just text', { toolChoice: 'none' })).reports).toEqual([]);
  });

  it('an empty tool-calls finish with the block in the text is healed too', async () => {
    const { executions } = await run(driver, SGLANG_35736, { finish: 'tool-calls' });
    expect(executions).toEqual([{ tool: 'Bash', input: { command: 'pwd' } }]);
  });

  it.each<[string, string, RunOptions]>([
    ['a malformed opening tag (opencode #24566)', OPENCODE_24566_MALFORMED, {}],
    ['a block cut before its closing tag', CUT_BLOCK, {}],
    ['prose inside the block (opensquilla #985 as posted)', OPENSQUILLA_985_AS_POSTED, {}],
    ['two blocks', `${SGLANG_35736}\n${SGLANG_35736}`, {}],
    ['a block after a bare DSML mention', `a stray ${D} mention, then ${SGLANG_35736}`, {}],
    ['a block after a bare DSML mention, one character a delta', `a stray ${D} mention ${SGLANG_35736}`, { size: 1 }],
    ['a block after a stray closing tag', `</${D}invoke> and ${SGLANG_35736}`, { size: 3 }],
    ['a complete block under a length finish', SGLANG_35736, { finish: 'length' as const }],
    [
      'a complete block when the caller said toolChoice none (sglang #35736)',
      SGLANG_35736,
      { toolChoice: 'none' as const },
    ],
    [
      'a block naming a tool the call does not have',
      SGLANG_35736,
      {
        tools: (executions: Executions) => ({
          [VLLM_54686_TOOL.name]: tool({
            inputSchema: jsonSchema(VLLM_54686_TOOL.parameters as never),
            execute: recording(executions, VLLM_54686_TOOL.name),
          }),
        }),
      },
    ],
    [
      'a call whose arguments fail the schema',
      `<${D}tool_calls>\n<${D}invoke name="get_weather">\n<${D}parameter name="location" string="false">42</${D}parameter>\n</${D}invoke>\n</${D}tool_calls>`,
      {},
    ],
  ])('%s is left as text and nothing runs', async (_name, block, options) => {
    const sent = AROUND[0] + block + AROUND[1];
    const { executions, text, finishReason, calls } = await run(driver, sent, options);
    expect(executions).toEqual([]);
    expect(calls).toEqual([]);
    expect(text).toBe(sent);
    expect(finishReason).toBe(options.finish ?? 'stop');
  });
});

/** The middleware's own answer for one model call, next to the model's (no SDK in between). */
const middleware = dsmlTextMiddleware() as Required<LanguageModelMiddleware>;
const params = {
  prompt: [],
  tools: [
    {
      type: 'function' as const,
      name: 'Bash',
      inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
    },
  ],
};

async function streamParts(model: MockLanguageModelV4, wrap: boolean) {
  const result = wrap
    ? await middleware.wrapStream({
        doStream: () => model.doStream(params),
        doGenerate: () => model.doGenerate(params),
        params,
        model,
      })
    : await model.doStream(params);
  const parts: unknown[] = [];
  for await (const part of result.stream) parts.push(part);
  return parts;
}

describe('responses without a block are untouched', () => {
  const texts = [
    'plain text',
    'a < b and c <｜ not DSML, and a dangling <',
    'ends on half a tag <｜DS',
    `prose that mentions ${D} without a tag`,
    '',
  ];

  it.each(texts)('generate: the very result object for %j', async (text) => {
    const model = textModel(text);
    const sent = await model.doGenerate(params);
    const answer = await middleware.wrapGenerate({
      doGenerate: async () => sent,
      doStream: () => model.doStream(params),
      params,
      model,
    });
    expect(answer).toBe(sent);
  });

  it.each(texts.flatMap((text) => [1, 2, 7].map((size) => [text, size] as const)))(
    'stream: the same parts, in order, for %j in deltas of %i',
    async (text, size) => {
      const raw = await streamParts(textModel(text, 'stop', size), false);
      const wrapped = await streamParts(textModel(text, 'stop', size), true);
      expect(wrapped).toEqual(raw);
    },
  );

  it('a response that already has a tool call keeps its text block and its call', async () => {
    const call = { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'Bash', input: '{"command":"ls"}' };
    const withCall = () =>
      new MockLanguageModelV4({
        doStream: {
          stream: convertArrayToReadableStream([
            call,
            { type: 'text-start' as const, id: 't1' },
            { type: 'text-delta' as const, id: 't1', delta: SGLANG_35736 },
            { type: 'text-end' as const, id: 't1' },
            { type: 'finish' as const, finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' }, usage },
          ]),
        },
        doGenerate: {
          content: [{ type: 'text', text: SGLANG_35736 }, call],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        },
      });
    const model = withCall();
    const sent = await model.doGenerate(params);
    const answer = await middleware.wrapGenerate({
      doGenerate: async () => sent,
      doStream: () => model.doStream(params),
      params,
      model,
    });
    expect(answer).toBe(sent);
    const raw = await streamParts(withCall(), false);
    expect(raw).toHaveLength(5);
    expect(await streamParts(withCall(), true)).toEqual(raw);
  });

  it('generate: 20 MB of text around a complete block is left as the very object', async () => {
    // Deltas of 1 MiB: the mock's stream (unused here) would otherwise hold 4 million parts.
    const model = textModel(`${'z'.repeat(20 * 1024 * 1024)}${SGLANG_35736}`, 'stop', 1024 * 1024);
    const sent = await model.doGenerate(params);
    const answer = await middleware.wrapGenerate({
      doGenerate: async () => sent,
      doStream: () => model.doStream(params),
      params,
      model,
    });
    expect(answer).toBe(sent);
  });

  it('a stream with a tag and no finish comes out as sent', async () => {
    const parts = [
      { type: 'text-start' as const, id: 't1' },
      { type: 'text-delta' as const, id: 't1', delta: `before ${SGLANG_35736}` },
      { type: 'text-end' as const, id: 't1' },
    ];
    const model = new MockLanguageModelV4({ doStream: { stream: convertArrayToReadableStream(parts) } });
    expect(await streamParts(model, true)).toEqual(parts);
  });

  it('text past the bound of the kit after a tag comes out as sent', async () => {
    const big = 'x'.repeat(64 * 1024);
    const deltas = [`<${D}tool_calls>`, ...Array.from({ length: 20 }, () => big)];
    const model = textModel(deltas.join(''), 'stop', 64 * 1024);
    const raw = await streamParts(textModel(deltas.join(''), 'stop', 64 * 1024), false);
    expect(await streamParts(model, true)).toEqual(raw);
  });
});
