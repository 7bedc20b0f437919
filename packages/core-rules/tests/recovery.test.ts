/** Recovery plans built from the real host's error results (docs/architecture.md#one-tool-call-through-dsh, step 2). */
import { describe, expect, it } from 'vitest';
import { hintFor, planRecovery, repairedRetry, showsObservedContent } from '../src/index.js';
import { capture, codeEnv, envFor, nativeEnv, nativeTools, nestedEnv } from './fixtures.js';
import type { ToolResultLike } from '../src/types.js';

function planFor(id: string, options = {}) {
  const { modelCall, finalResult } = capture(id);
  return planRecovery(modelCall, finalResult, envFor(id), options);
}

describe('planRecovery on real host errors', () => {
  it('FS_NOT_OBSERVED on edit: read the path the error names, then retry the same call once', () => {
    const { modelCall } = capture('n_e_edit_unread');
    expect(planFor('n_e_edit_unread')).toEqual({
      ruleId: 'recover.observe-then-retry',
      category: 'fs-not-observed',
      steps: [
        { name: 'read', arguments: { file_path: '/workspace/existing.txt' }, role: 'observe' },
        { name: 'edit', arguments: modelCall.arguments, role: 'retry' },
      ],
      resultFrom: 'last-step',
    });
  });

  it('FS_NOT_OBSERVED on str_replace_editor str_replace: same plan shape as edit', () => {
    const plan = planFor('n_e_sre_str_replace_unread');
    expect(plan?.steps.map((step) => step.role)).toEqual(['observe', 'retry']);
    expect(plan?.steps[1]).toEqual({
      name: 'str_replace_editor',
      arguments: capture('n_e_sre_str_replace_unread').modelCall.arguments,
      role: 'retry',
    });
  });

  it('FS_NOT_OBSERVED on write: a bounded read and the original error with a hint, never a retry', () => {
    const plan = planFor('n_e_write_unread');
    expect(plan).toEqual({
      ruleId: 'recover.observe-before-write',
      category: 'fs-not-observed',
      steps: [{ name: 'read', arguments: { file_path: '/workspace/existing.txt', limit: 200 }, role: 'observe' }],
      resultFrom: 'original',
      hint: expect.stringMatching(/you have now seen the file.*resend the write if you still mean to replace it/),
    });
    expect(showsObservedContent(plan!)).toBe(true);
    expect(showsObservedContent(planFor('n_e_edit_unread')!)).toBe(false);
    expect(planFor('n_e_write_unread', { toggles: { autoObserveFiles: false } })).toBeUndefined();
  });

  it('FS_NOT_OBSERVED on str_replace_editor insert/create: shown the file like write, never retried (no anchor)', () => {
    const { modelCall, finalResult } = capture('n_e_sre_str_replace_unread');
    const path = (modelCall.arguments as { path: string }).path;
    const env = envFor('n_e_sre_str_replace_unread');
    for (const args of [
      { command: 'insert', path, insert_line: 3, new_str: 'inserted line' },
      { command: 'create', path, file_text: 'replacement' },
    ]) {
      const plan = planRecovery({ name: 'str_replace_editor', arguments: args }, finalResult, env);
      expect(plan?.ruleId, args.command).toBe('recover.observe-before-write');
      expect(plan?.resultFrom).toBe('original');
      expect(plan?.steps.map((step) => step.role)).toEqual(['observe']);
      expect(plan?.hint).toMatch(/nothing was written; you have now seen the file/);
      expect(showsObservedContent(plan!)).toBe(true);
    }
    // Other editor commands after FS_NOT_OBSERVED are left alone (never guessed into a retry).
    expect(
      planRecovery({ name: 'str_replace_editor', arguments: { command: 'undo_edit', path } }, finalResult, env),
    ).toBeUndefined();
  });

  it('reads the file the call names, resolved against the cwd; a quoted path is used only when it is that file', () => {
    const unobserved = (path: string): ToolResultLike => ({
      isError: true,
      error: {
        message: `edit requires reading "${path}" first — read the file, then retry`,
        info: { code: 'FS_NOT_OBSERVED', name: 'FsError' },
      },
    });
    const edit = (file_path: string) => ({ name: 'edit', arguments: { file_path, old_string: 'a', new_string: 'b' } });
    expect(planRecovery(edit('docs/a.md'), unobserved('/workspace/docs/a.md'), nativeEnv)?.steps[0]?.arguments).toEqual(
      { file_path: '/workspace/docs/a.md' },
    );
    expect(
      planRecovery(edit('./docs/./a.md'), unobserved('/workspace/docs/a.md'), nativeEnv)?.steps[0]?.arguments,
    ).toEqual({ file_path: '/workspace/docs/a.md' });
    // The error names another file than the call: no guess.
    expect(planRecovery(edit('/workspace/a.md'), unobserved('/etc/passwd'), nativeEnv)).toBeUndefined();
    expect(planRecovery(edit('a.md'), unobserved('/elsewhere/a.md'), nativeEnv)).toBeUndefined();
    // A relative path that leaves the cwd, or no path argument at all: nothing is read.
    expect(planRecovery(edit('../outside.md'), unobserved('/outside.md'), nativeEnv)).toBeUndefined();
    expect(
      planRecovery(
        { name: 'edit', arguments: { old_string: 'a', new_string: 'b' } },
        unobserved('/workspace/a.md'),
        nativeEnv,
      ),
    ).toBeUndefined();
    // Without a cwd, a relative path is matched against the quoted absolute path.
    const noCwd = { ...nativeEnv, cwd: undefined };
    expect(planRecovery(edit('docs/a.md'), unobserved('/srv/ws/docs/a.md'), noCwd)?.steps[0]?.arguments).toEqual({
      file_path: '/srv/ws/docs/a.md',
    });
    expect(planRecovery(edit('docs/a.md'), unobserved('/srv/ws/other/b.md'), noCwd)).toBeUndefined();
    // No quoted path in the message: the argument alone decides.
    const bare: ToolResultLike = {
      isError: true,
      error: { message: 'edit requires reading the file first', info: { code: 'FS_NOT_OBSERVED' } },
    };
    expect(planRecovery(edit('/workspace/a.md'), bare, nativeEnv)?.steps[0]?.arguments).toEqual({
      file_path: '/workspace/a.md',
    });
  });

  it('a run_code program whose inner call failed is never re-run, whatever the inner cause', () => {
    const call = {
      name: 'run_code',
      arguments: {
        code: 'await tools.bash({ command: "touch x", description: "t" });\nawait tools.edit({ file_path: "/workspace/a.txt", old_string: "a", new_string: "b" });',
        description: 'edit',
      },
    };
    for (const inner of [
      'edit requires reading "/workspace/a.txt" first — read the file, then retry',
      'Invalid `view_range`: [5, 99]. Its second element `99` should be smaller than the number of lines in the file: `11`',
      'The path a.txt is not an absolute path, it should start with `/`. Maybe you meant /a.txt?',
    ]) {
      const result: ToolResultLike = {
        isError: true,
        error: {
          message: `code run failed (exception): ToolCallError: ${inner}\n    at bindingFailure (x)`,
          info: { code: 'CODE_RUN_FAILED' },
        },
      };
      expect(planRecovery(call, result, codeEnv)).toBeUndefined();
    }
  });

  it('observes with the editor when read is not visible to the agent', () => {
    const env = { ...nativeEnv, tools: nativeTools.filter((tool) => tool.name !== 'read') };
    const { modelCall, finalResult } = capture('n_e_sre_str_replace_unread');
    expect(planRecovery(modelCall, finalResult, env)?.steps[0]).toEqual({
      name: 'str_replace_editor',
      arguments: { command: 'view', path: '/workspace/existing2.txt' },
      role: 'observe',
    });
  });

  it('FS_STALE_VERSION: refresh only, never retry; the original error stands with a hint', () => {
    const plan = planFor('n_stale_edit');
    expect(plan?.steps).toEqual([{ name: 'read', arguments: { file_path: '/workspace/stale.txt' }, role: 'observe' }]);
    expect(plan?.resultFrom).toBe('original');
    expect(plan?.hint).toMatch(/changed on disk/);
    expect(plan?.steps.some((step) => step.role === 'retry')).toBe(false);
  });

  it('anchor failures are never retried', () => {
    for (const id of ['n_edit_not_found', 'n_edit_ambiguous', 'n_sre_not_found', 'n_sre_ambiguous'])
      expect(planFor(id)).toBeUndefined();
  });

  it('view_range past EOF: retried once, clamped to the line count the error reports (11, the editor count)', () => {
    expect(planFor('n_f_view_range_end_past_end')?.steps).toEqual([
      {
        name: 'str_replace_editor',
        arguments: { command: 'view', path: '/workspace/fixture.txt', view_range: [5, 11] },
        role: 'retry',
      },
    ]);
    expect(planFor('n_f_view_range_start_past_end')?.steps[0]?.arguments.view_range).toEqual([1, 11]);
  });

  it('an unknown name with one obvious target whose schema the arguments fit is retried as that tool', () => {
    expect(planFor('n_unknown_tool')).toEqual({
      ruleId: 'recover.unknown-tool-alias',
      category: 'unknown-tool',
      steps: [{ name: 'read', arguments: { file_path: '/workspace/fixture.txt' }, role: 'retry' }],
      resultFrom: 'last-step',
    });
    expect(planFor('c_c_direct_unregistered')?.steps[0]?.name).toBe('read');
  });

  it('several fitting targets: no plan, and the hint lists them all', () => {
    const readSchema = nativeTools.find((tool) => tool.name === 'read')!;
    const env = { ...nativeEnv, tools: [readSchema, { ...readSchema, name: 'READ' }] };
    const call = { name: 'Read', arguments: { file_path: '/workspace/a.txt' } };
    const result: ToolResultLike = {
      isError: true,
      error: { message: 'unknown tool "Read"', info: { code: 'UNKNOWN_TOOL' } },
    };
    expect(planRecovery(call, result, env)).toBeUndefined();
    expect(hintFor(call, result, env)).toBe('Hint: there is no tool "Read"; did you mean read or READ?');
  });

  it('an unknown name with no fitting target or several gets no plan', () => {
    const result: ToolResultLike = {
      isError: true,
      error: { message: 'unknown tool "frobnicate"', info: { code: 'UNKNOWN_TOOL', name: 'ToolNotFoundError' } },
    };
    expect(planRecovery({ name: 'frobnicate', arguments: {} }, result, nativeEnv)).toBeUndefined();
    const readFile: ToolResultLike = {
      isError: true,
      error: { message: 'unknown tool "read_file"', info: { code: 'UNKNOWN_TOOL' } },
    };
    expect(planRecovery({ name: 'read_file', arguments: { nothing: 1 } }, readFile, nativeEnv)).toBeUndefined();
  });

  it('inner sub-call rejected with INVALID_ARGS for a missing description: retried once with it', () => {
    const inner = capture('c_h_inner_bash_no_description').innerCalls?.[0];
    expect(inner).toBeDefined();
    const plan = planRecovery({ name: inner!.name, arguments: inner!.arguments }, inner!.result, nestedEnv);
    expect(plan).toEqual({
      ruleId: 'recover.retry-repaired-args',
      category: 'inner-invalid-args',
      steps: [{ name: 'bash', arguments: { command: 'ls', description: 'Run: ls' }, role: 'retry' }],
      resultFrom: 'last-step',
    });
  });

  it('inner editor calls: relative path and view_range past EOF are recovered too', () => {
    const relative = capture('c_d_inner_view_relative').innerCalls?.[0];
    expect(
      planRecovery({ name: relative!.name, arguments: relative!.arguments }, relative!.result, nestedEnv)?.steps[0]
        ?.arguments.path,
    ).toBe('/workspace/fixture.txt');
    const range = capture('c_f_inner_view_range').innerCalls?.[0];
    expect(
      planRecovery({ name: range!.name, arguments: range!.arguments }, range!.result, nestedEnv)?.steps[0]?.arguments
        .view_range,
    ).toEqual([1, 11]);
  });

  it('no plan for cancelled calls, for results a plan produced, for successes, or with the toggle off', () => {
    expect(planFor('n_e_edit_unread', { aborted: true })).toBeUndefined();
    expect(planFor('n_e_edit_unread', { fromPlan: true })).toBeUndefined();
    expect(planFor('n_e_edit_unread', { toggles: { autoObserveFiles: false } })).toBeUndefined();
    expect(planFor('n_f_view_range_end_past_end', { toggles: { autoClampRanges: false } })).toBeUndefined();
    expect(planFor('n_unknown_tool', { toggles: { autoBridgeDirectTools: false } })).toBeUndefined();
    expect(planFor('n_bash_ok')).toBeUndefined();
    const aborted: ToolResultLike = {
      isError: true,
      error: { message: 'tool call aborted', info: { code: 'ABORTED', name: 'AbortError' } },
    };
    expect(planRecovery(capture('n_e_edit_unread').modelCall, aborted, nativeEnv)).toBeUndefined();
  });

  it('a collapsed Code Mode direct call gets no plan (bridging happens before the call, hints after)', () => {
    expect(planFor('c_c_direct_read')).toBeUndefined();
  });

  it('plans are plain serialisable data', () => {
    const plan = planFor('n_e_edit_unread');
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });

  it('never throws on garbage', () => {
    expect(planRecovery(null as never, null as never, null as never)).toBeUndefined();
    expect(
      planRecovery(
        { name: 'edit', arguments: 'nope' },
        { isError: true, error: { message: 'x', info: { code: 'FS_NOT_OBSERVED' } } },
        codeEnv,
      ),
    ).toBeUndefined();
  });
});

describe('a stale file is never refreshed for a call without an anchor', () => {
  const staleError = (path: string) => ({
    isError: true,
    error: {
      message: `cannot edit "${path}": file changed since it was read — re-read the file, then retry`,
      info: { name: 'FsError', code: 'FS_STALE_VERSION' },
    },
  });
  const env = {
    mode: 'native' as const,
    cwd: '/workspace',
    tools: [
      { name: 'read', parameters: {} },
      { name: 'write', parameters: {} },
      { name: 'edit', parameters: {} },
      { name: 'str_replace_editor', parameters: {} },
    ],
  };

  it.each([
    ['write', { file_path: '/workspace/a.txt', content: 'new' }],
    ['str_replace_editor', { command: 'insert', path: '/workspace/a.txt', insert_line: 1, new_str: 'x' }],
    ['str_replace_editor', { command: 'create', path: '/workspace/a.txt', file_text: 'x' }],
  ])('%s %j: no silent re-read (a blind resend would overwrite what the model has not seen)', (name, args) => {
    const call = { name, arguments: args };
    expect(planRecovery(call, staleError('/workspace/a.txt'), env)).toBeUndefined();
    expect(hintFor(call, staleError('/workspace/a.txt'), env)).toMatch(/read it again/);
    expect(hintFor(call, staleError('/workspace/a.txt'), env)).not.toMatch(/re-read now/);
  });

  it('an anchored edit is refreshed (its anchors protect a resend) and told it was re-read', () => {
    const plan = planRecovery(
      { name: 'edit', arguments: { file_path: '/workspace/a.txt', old_string: 'a', new_string: 'b' } },
      staleError('/workspace/a.txt'),
      env,
    );
    expect(plan?.ruleId).toBe('recover.stale-refresh');
    expect(plan?.hint).toMatch(/re-read now/);
  });
});

describe('one normalization per failed call (the caller passes its repairedRetry on)', () => {
  const inner = capture('c_h_inner_bash_no_description').innerCalls![0]!;
  const call = { name: inner.name, arguments: inner.arguments };

  it('the plan and the hint made from the passed answer equal the ones they make themselves', () => {
    const normalized = repairedRetry(call, nestedEnv);
    expect(normalized.changed).toBe(true);
    expect(planRecovery(call, inner.result, nestedEnv, { normalized })).toEqual(
      planRecovery(call, inner.result, nestedEnv),
    );
    const hint = hintFor(call, inner.result, nestedEnv);
    expect(hint).toContain('"description":"Run: ls"');
    expect(hintFor(call, inner.result, nestedEnv, undefined, undefined, normalized)).toBe(hint);
  });

  it('the passed answer is read, not made again', () => {
    const unchanged = { call, changed: false, receipts: [], reason: 'as the caller found' };
    expect(planRecovery(call, inner.result, nestedEnv, { normalized: unchanged })).toBeUndefined();
    expect(hintFor(call, inner.result, nestedEnv, undefined, undefined, unchanged)).not.toContain('Run: ls');
  });
});
