/**
 * Every capture of the real host, as a table: the call the model sent, the error DSH gave, and what the
 * engine does with the call before it runs (repair with which rules, or leave it alone).
 */
import { compilesLikeHost } from '@dsh-tool-normalizer/syntax-healer';
import { describe, expect, it } from 'vitest';
import { classifyResult, hostViolations, normalizeCall } from '../src/index.js';
import { capture, captures, envFor, schemaOf } from './fixtures.js';

/** Expected pre-dispatch action per capture: the rule ids that fire, or [] for "left alone". */
const expectedRules: Record<string, string[]> = {
  c_a2_command_and_description: ['run_code.command-to-code'],
  c_a_command_instead_of_code: ['run_code.command-to-code', 'run_code.fill-description'],
  c_b2_blank_description: ['run_code.fill-description'],
  c_b_no_description: ['run_code.fill-description'],
  c_c_direct_bash: ['code.bridge-direct-call'],
  c_c_direct_read: ['code.bridge-direct-call'],
  c_c_direct_unregistered: [],
  c_d_inner_view_relative: [],
  c_e_inner_edit_unread: [],
  c_f_inner_view_range: [],
  c_g_markdown_fence: ['run_code.heal-syntax'],
  c_g_python_triple_quote: ['run_code.heal-syntax'],
  c_g_ts_enum: [],
  c_h_inner_bash_no_description: ['run_code.inner-fill-description'],
  c_h_inner_bash_no_description_caught: ['run_code.inner-fill-description'],
  c_inner_non_json_args: [],
  c_inner_unknown_binding: [],
  c_ok_inner_calls: [],
  c_probe_globals: [],
  c_runtime_throw: [],
  c_ts_syntax_ok: [],
  c_x_bridge_direct_read: ['code.bridge-direct-call'],
  c_x_inner_mutate: [],
  n_bash_no_description: ['args.fill-description'],
  n_bash_ok: [],
  n_bash_wrong_key: ['args.rename-alias'],
  n_d_view_relative: ['editor.absolute-path'],
  n_e_edit_unread: [],
  n_e_sre_create_existing: [],
  n_e_sre_str_replace_unread: [],
  n_e_write_unread: [],
  n_edit_ambiguous: [],
  n_edit_not_found: [],
  n_f_view_range_end_past_end: [],
  n_f_view_range_ok_minus1: [],
  n_f_view_range_start_past_end: [],
  n_read_fixture: [],
  n_read_past_end: [],
  n_read_relative: [],
  n_run_code_in_native: [],
  n_sre_ambiguous: [],
  n_sre_not_found: [],
  n_stale_edit: [],
  n_stale_read: [],
  n_stale_touch: [],
  n_unknown_tool: [],
  n_x_mutate_args: [],
  n_x_observe_retry: [],
  n_x_redispatch: [],
};

describe('normalizeCall on every real-host capture', () => {
  it('covers every capture', () => {
    expect(Object.keys(expectedRules).sort()).toEqual(Object.keys(captures).sort());
  });

  for (const [id, rules] of Object.entries(expectedRules)) {
    it(`${id}: ${rules.length > 0 ? rules.join(' + ') : 'left alone'}`, () => {
      const { modelCall } = capture(id);
      const env = envFor(id);
      const result = normalizeCall(modelCall, env);
      expect(result.receipts.map((receipt) => receipt.ruleId)).toEqual(rules);
      if (rules.length === 0) {
        expect(result.changed).toBe(false);
        expect(result.call).toBe(modelCall);
        expect(typeof result.reason).toBe('string');
        return;
      }
      expect(result.changed).toBe(true);
      const args = result.call.arguments as Record<string, unknown>;
      // The repaired call passes the host's checks for the tool it now names.
      expect(hostViolations(schemaOf(result.call.name), args)).toEqual([]);
      if (result.call.name === 'run_code') expect(compilesLikeHost(args.code as string)).toEqual({ ok: true });
      for (const receipt of result.receipts) {
        expect(receipt.why.length).toBeGreaterThan(0);
        expect(receipt.before.length).toBeLessThanOrEqual(160);
        expect(receipt.after.length).toBeLessThanOrEqual(160);
        expect(
          classifyResult(modelCall, capture(id).finalResult).category === receipt.category ||
            receipt.category !== 'other',
        ).toBe(true);
      }
    });
  }

  it('repairs only calls the host rejects (schema, blank description, direct call, compile, or an inner call it rejected)', () => {
    for (const [id, rules] of Object.entries(expectedRules)) {
      if (rules.length === 0) continue;
      const { modelCall, innerCalls, mode, finalResult } = capture(id);
      const args = modelCall.arguments;
      const failsOwnChecks = hostViolations(schemaOf(modelCall.name), args).length > 0;
      const directInCodeMode = mode === 'code' && modelCall.name !== 'run_code';
      // A fenced program compiles (the backticks form a tagged template) but the host reports it broken.
      const doesNotCompile =
        modelCall.name === 'run_code' &&
        ((typeof args.code === 'string' && !compilesLikeHost(args.code).ok) ||
          classifyResult(modelCall, finalResult).category === 'code-syntax');
      const innerRejected = (innerCalls ?? []).some(
        (inner) => inner.result.isError && inner.result.error?.info?.code === 'INVALID_ARGS',
      );
      expect({ id, rejected: failsOwnChecks || directInCodeMode || doesNotCompile || innerRejected }).toEqual({
        id,
        rejected: true,
      });
    }
  });

  it('the category of each receipt is the category the host error classifies as', () => {
    const pairs: [string, string][] = [
      ['c_a_command_instead_of_code', 'invalid-args'],
      ['c_b2_blank_description', 'invalid-args'],
      ['c_c_direct_read', 'code-mode-direct-call'],
      ['c_g_python_triple_quote', 'code-syntax'],
      ['c_g_markdown_fence', 'code-syntax'],
      ['c_h_inner_bash_no_description', 'inner-invalid-args'],
      ['n_bash_wrong_key', 'invalid-args'],
      ['n_d_view_relative', 'editor-path'],
    ];
    for (const [id, category] of pairs) {
      const { modelCall, finalResult } = capture(id);
      expect(classifyResult(modelCall, finalResult).category).toBe(category);
      const last = normalizeCall(modelCall, envFor(id)).receipts.at(-1);
      expect(
        last?.category === category ||
          normalizeCall(modelCall, envFor(id)).receipts.some((r) => r.category === category),
      ).toBe(true);
    }
  });
});

describe('exact repaired calls', () => {
  it('run_code {command:"ls"} dispatches the command through tools.bash with descriptions', () => {
    const result = normalizeCall(
      capture('c_a_command_instead_of_code').modelCall,
      envFor('c_a_command_instead_of_code'),
    );
    expect(result.call).toEqual({
      name: 'run_code',
      arguments: {
        code: 'return await tools["bash"]({"command":"ls","description":"Run: ls"});',
        description: 'Run: ls',
      },
    });
  });

  it('run_code {command, description} keeps the model description', () => {
    const result = normalizeCall(
      capture('c_a2_command_and_description').modelCall,
      envFor('c_a2_command_and_description'),
    );
    expect((result.call.arguments as Record<string, unknown>).description).toBe('List files');
  });

  it('a direct read in Code Mode becomes exactly the bridged program of the capture', () => {
    const result = normalizeCall(capture('c_x_bridge_direct_read').modelCall, envFor('c_x_bridge_direct_read'));
    expect((result.call.arguments as Record<string, unknown>).code).toBe(
      'return await tools["read"]({"file_path":"/workspace/fixture.txt","limit":2});',
    );
    expect(result.call.name).toBe('run_code');
  });

  it('the inner bash description is spliced in and every other byte is kept', () => {
    const { modelCall } = capture('c_h_inner_bash_no_description');
    const result = normalizeCall(modelCall, envFor('c_h_inner_bash_no_description'));
    const code = (result.call.arguments as Record<string, unknown>).code;
    expect(code).toBe('const out = await tools.bash({ command: "ls", description: "Run: ls" });\nreturn out;');
    expect((result.call.arguments as Record<string, unknown>).description).toBe('Scripted probe program');
  });

  it('bash {cmd} becomes {command} in place; bash without description gets one from the command', () => {
    expect(normalizeCall(capture('n_bash_wrong_key').modelCall, envFor('n_bash_wrong_key')).call.arguments).toEqual({
      command: 'ls',
      description: 'List files',
    });
    expect(
      normalizeCall(capture('n_bash_no_description').modelCall, envFor('n_bash_no_description')).call.arguments,
    ).toEqual({ command: 'echo hi', description: 'Run: echo' });
  });

  it('the relative editor path resolves against the session cwd, not the root the host suggests', () => {
    const result = normalizeCall(capture('n_d_view_relative').modelCall, envFor('n_d_view_relative'));
    expect(result.call.arguments).toEqual({ command: 'view', path: '/workspace/fixture.txt' });
  });

  it('the TS enum program is unrepairable: unchanged, with the healer diagnostic', () => {
    const { modelCall } = capture('c_g_ts_enum');
    const result = normalizeCall(modelCall, envFor('c_g_ts_enum'));
    expect(result.call).toBe(modelCall);
    expect(result.diagnostic?.kind).toBeTruthy();
    expect(result.diagnostic?.message).toMatch(/enum/i);
  });

  it('run_code in native mode is an unknown tool there: left for the host', () => {
    const { modelCall } = capture('n_run_code_in_native');
    expect(normalizeCall(modelCall, envFor('n_run_code_in_native')).reason).toMatch(/unknown tool "run_code"/);
  });
});
