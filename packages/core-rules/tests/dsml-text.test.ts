/**
 * A whole DSML tool-call block left in a model's text (DeepSeek served by vLLM or SGLang, `finish_reason: "stop"`,
 * no `tool_calls`): read only when complete (dsmlToolCalls), turned into calls only when each names one presented
 * tool and passes the host's checks (dsmlTextCalls, DSH's environment), and the same through the harness-neutral
 * kit (repairText). Fixtures: tests/dsml-text-fixtures.ts, each naming its public report.
 */
import { describe, expect, it } from 'vitest';
import { createRepairKit, dshHostChecks, dsmlTextCalls, dsmlToolCalls, hostViolations } from '../src/index.js';
import type { Environment } from '../src/types.js';
import {
  CUT_BLOCK,
  D,
  OPENCODE_24566_MALFORMED,
  OPENCODE_24566_READ,
  OPENSQUILLA_985_AS_POSTED,
  OPENSQUILLA_985_TWO_CALLS,
  SGLANG_17141_V32,
  SGLANG_35736,
  VLLM_54686_PROBE,
  VLLM_54686_TOOL,
} from './dsml-text-fixtures.js';
import { codeEnv, nativeEnv, schemaOf } from './fixtures.js';
import { cpuMsSince } from '../../../vitest.shared.js';

describe('dsmlToolCalls reads one complete block', () => {
  it('reads the sglang #35736 block as one call, the text left empty', () => {
    expect(dsmlToolCalls(SGLANG_35736)).toEqual({
      calls: [{ name: 'Bash', args: { command: 'pwd' }, markup: expect.stringContaining('invoke name="Bash"') }],
      text: '',
    });
  });

  it('reads V3.2 function_calls blocks, several invokes, and string="false" JSON values', () => {
    expect(dsmlToolCalls(SGLANG_17141_V32)?.calls.map((c) => c.args)).toEqual([{ location: 'Beijing' }]);
    expect(dsmlToolCalls(OPENSQUILLA_985_TWO_CALLS)?.calls.map((c) => c.name)).toEqual([
      'exec_command',
      'exec_command',
    ]);
    expect(dsmlToolCalls(OPENCODE_24566_READ)?.calls[0]?.args).toEqual({
      filePath: 'I:\\hrc\\usermode\\src\\hypercall\\hypercall.cpp',
      limit: 15,
      offset: 357,
    });
  });

  it('keeps the text around the block byte for byte', () => {
    const text = `I'll check the directory.\n\n${SGLANG_35736}\n\nThen I'll report.`;
    expect(dsmlToolCalls(text)?.text).toBe("I'll check the directory.\n\n\n\nThen I'll report.");
  });

  it.each<[string, string]>([
    ['a cut block (no closing tag)', CUT_BLOCK],
    ['the opencode #24566 opening tag without its ">"', OPENCODE_24566_MALFORMED],
    ['the opensquilla #985 report with "..." between invokes', OPENSQUILLA_985_AS_POSTED],
    ['two blocks', `${SGLANG_35736}\n${SGLANG_35736}`],
    ['a block with prose inside', SGLANG_35736.replace(`<${D}invoke`, `Let me run:\n<${D}invoke`)],
    ['an invoke with prose inside', SGLANG_35736.replace(`<${D}parameter`, `run <${D}parameter`)],
    ['a repeated parameter', SGLANG_35736.replace('pwd</', `pwd</${D}parameter><${D}parameter name="command">ls</`)],
    ['a string="false" value that is not JSON', SGLANG_35736.replace('string="true">pwd', 'string="false">pwd')],
    ['a stray DSML tag outside the block', `${SGLANG_35736}\n</${D}parameter>`],
    ['a block with no invoke', `<${D}tool_calls>\n</${D}tool_calls>`],
    ['prose that only mentions the marker', `DeepSeek writes <${D}tool_calls> before its calls.`],
  ])('leaves %s unread', (_what, text) => {
    expect(dsmlToolCalls(text)).toBeUndefined();
  });

  it('answers a 4 MB text with a block in bounded time', () => {
    const text = `${'x'.repeat(4 * 1024 * 1024)}\n${SGLANG_35736}`;
    const started = process.cpuUsage();
    expect(dsmlToolCalls(text)?.calls).toHaveLength(1);
    expect(cpuMsSince(started)).toBeLessThan(2000);
  });
});

describe('dsmlTextCalls: only calls DSH accepts', () => {
  it('turns the sglang #35736 "Bash" call into the bash call the host runs (name by its one spelling, description filled)', () => {
    const result = dsmlTextCalls(SGLANG_35736, nativeEnv);
    expect(result.ok, result.ok ? '' : result.reason).toBe(true);
    if (!result.ok) return;
    expect(result.text).toBe('');
    const [call] = result.calls;
    expect(call?.call.name).toBe('bash');
    expect(call?.call.arguments.command).toBe('pwd');
    expect(hostViolations(schemaOf('bash'), call?.call.arguments ?? {})).toEqual([]);
    expect(call?.receipts.map((r) => r.ruleId)).toEqual(
      expect.arrayContaining(['call.dsml-text-to-call', 'recover.unknown-tool-alias']),
    );
  });

  it('in Code Mode bridges the call into a run_code program that compiles', () => {
    const result = dsmlTextCalls(SGLANG_35736, codeEnv);
    expect(result.ok, result.ok ? '' : result.reason).toBe(true);
    if (result.ok) expect(result.calls[0]?.call.name).toBe('run_code');
  });

  it.each<[string, string, Environment]>([
    ['a tool no presented name stands for', SGLANG_17141_V32, nativeEnv],
    ['exec_command (an alias of bash) without the required command', OPENSQUILLA_985_TWO_CALLS, nativeEnv],
    ['a cut block', CUT_BLOCK, nativeEnv],
    [
      'a name two presented tools share when squashed',
      SGLANG_35736,
      { ...nativeEnv, tools: [...nativeEnv.tools, { ...schemaOf('bash'), name: 'BASH' }] },
    ],
    [
      'arguments that fail the schema',
      SGLANG_35736.replace(
        `<${D}parameter name="command" string="true">pwd`,
        `<${D}parameter name="command" string="false">42`,
      ),
      nativeEnv,
    ],
  ])('leaves %s as text', (_what, text, env) => {
    expect(dsmlTextCalls(text, env).ok).toBe(false);
  });

  it.each([2, 50])('leaves a %i MB text at once (bounded: over 1 MiB is the host’s)', (megabytes) => {
    const text = `${'x'.repeat(megabytes * 1024 * 1024)}\n${SGLANG_35736}`;
    const started = process.cpuUsage();
    expect(dsmlTextCalls(text, nativeEnv).ok).toBe(false);
    expect(cpuMsSince(started)).toBeLessThan(2000);
  });

  it('never throws on hostile input', () => {
    for (const text of [undefined, null, 42, {}, `<${D}tool_calls>`.repeat(10_000)] as unknown as string[])
      expect(dsmlTextCalls(text, nativeEnv).ok).toBe(false);
  });

  it('reads nothing with argument repairs switched off', () => {
    expect(dsmlTextCalls(SGLANG_35736, nativeEnv, { autoWrapRunCode: false }).ok).toBe(false);
  });

  it('every call must pass, or none is taken', () => {
    const one = SGLANG_35736.replace(`</${D}tool_calls>`, '');
    const mixed = `${one}<${D}invoke name="read">\n<${D}parameter name="nope" string="true">x</${D}parameter>\n</${D}invoke>\n</${D}tool_calls>`;
    expect(dsmlToolCalls(mixed)?.calls).toHaveLength(2);
    expect(dsmlTextCalls(mixed, nativeEnv).ok).toBe(false);
  });
});

describe('the kit reads DSML text for any harness (repairText)', () => {
  const kit = createRepairKit([VLLM_54686_TOOL]);

  it('turns the vLLM PR #54686 probe text into the record_item call', async () => {
    const answer = await kit.repairText(`Recording it.\n${VLLM_54686_PROBE}`);
    expect(answer).toEqual({
      ok: true,
      text: 'Recording it.\n',
      calls: [
        {
          name: 'record_item',
          args: { name: 'alpha', note: 'first' },
          receipts: [expect.objectContaining({ ruleId: 'call.dsml-text-to-call' })],
        },
      ],
    });
  });

  it.each<[string, string]>([
    ['a required parameter missing', VLLM_54686_PROBE.replace(/<｜DSML｜parameter name="name"[^\n]*\n/, '')],
    ['an unknown tool', SGLANG_35736],
    ['a cut block', VLLM_54686_PROBE.slice(0, -10)],
    ['plain text', 'No tool call here.'],
  ])('refuses %s', async (_what, text) => {
    const answer = await kit.repairText(text);
    expect(answer.ok).toBe(false);
  });

  it("applies the host profile's checks too (DSH's blank description)", async () => {
    const bash = schemaOf('bash');
    const dshKit = createRepairKit([{ name: bash.name, parameters: bash.parameters }], { hostChecks: dshHostChecks });
    const blank = SGLANG_35736.replace('Bash', 'bash').replace(
      `pwd</${D}parameter>`,
      `pwd</${D}parameter>\n<${D}parameter name="description" string="true"> </${D}parameter>`,
    );
    const answer = await dshKit.repairText(blank);
    // The blank description is refilled by the rule, then passes the profile's check.
    expect(answer.ok, answer.ok ? '' : answer.reason).toBe(true);
    if (answer.ok) expect(String(answer.calls[0]?.args.description).trim()).not.toBe('');
  });
});
