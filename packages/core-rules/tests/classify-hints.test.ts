/** Classification, hints and stack trimming against the real host's error texts. */
import { describe, expect, it } from 'vitest';
import { appendHint, categories, classifyResult, hintFor, trimStackTrace } from '../src/index.js';
import { capture, captures, codeEnv, envFor, nativeEnv } from './fixtures.js';
import type { ToolResultLike } from '../src/types.js';

const expectedCategory: Record<string, string> = {
  c_a2_command_and_description: 'invalid-args',
  c_a_command_instead_of_code: 'invalid-args',
  c_b2_blank_description: 'invalid-args',
  c_b_no_description: 'invalid-args',
  c_c_direct_bash: 'code-mode-direct-call',
  c_c_direct_read: 'code-mode-direct-call',
  c_c_direct_unregistered: 'unknown-tool',
  c_g_markdown_fence: 'code-syntax',
  c_g_python_triple_quote: 'code-syntax',
  c_g_ts_enum: 'code-syntax',
  c_h_inner_bash_no_description: 'inner-invalid-args',
  c_inner_non_json_args: 'inner-invalid-args',
  c_inner_unknown_binding: 'inner-unknown-binding',
  c_runtime_throw: 'code-runtime',
  n_bash_no_description: 'invalid-args',
  n_bash_wrong_key: 'invalid-args',
  n_d_view_relative: 'editor-path',
  n_e_edit_unread: 'fs-not-observed',
  n_e_sre_create_existing: 'other',
  n_e_sre_str_replace_unread: 'fs-not-observed',
  n_e_write_unread: 'fs-not-observed',
  n_edit_ambiguous: 'fs-edit-anchor',
  n_edit_not_found: 'fs-edit-anchor',
  n_f_view_range_end_past_end: 'editor-range',
  n_f_view_range_start_past_end: 'editor-range',
  n_read_past_end: 'read-range',
  n_run_code_in_native: 'unknown-tool',
  n_sre_ambiguous: 'fs-edit-anchor',
  n_sre_not_found: 'fs-edit-anchor',
  n_stale_edit: 'fs-stale-version',
  n_unknown_tool: 'unknown-tool',
};

describe('classifyResult', () => {
  for (const [id, category] of Object.entries(expectedCategory)) {
    it(`${id} -> ${category}`, () => {
      const { modelCall, finalResult } = capture(id);
      const classification = classifyResult(modelCall, finalResult);
      expect(classification.category).toBe(category);
      expect(classification.code).toBe(finalResult.error?.info?.code);
      expect(classification.known).toBe(categories.find((entry) => entry.id === category)?.known);
    });
  }

  it('every successful capture is "ok" and every category id is declared', () => {
    const ids = new Set(categories.map((category) => category.id));
    for (const [id, { modelCall, finalResult }] of Object.entries(captures)) {
      const { category } = classifyResult(modelCall, finalResult);
      expect(ids.has(category)).toBe(true);
      if (!finalResult.isError) expect({ id, category }).toEqual({ id, category: 'ok' });
    }
  });

  it('cancellation and garbage', () => {
    const aborted: ToolResultLike = {
      isError: true,
      error: { message: 'tool call aborted', info: { code: 'ABORTED', name: 'AbortError' } },
    };
    expect(classifyResult({ name: 'bash', arguments: {} }, aborted)).toEqual({
      category: 'aborted',
      code: 'ABORTED',
      known: false,
    });
    expect(classifyResult(null as never, null as never)).toEqual({ category: 'other', known: false });
  });
});

function hint(id: string): string | undefined {
  const { modelCall, finalResult } = capture(id);
  return hintFor(modelCall, finalResult, envFor(id));
}

describe('hintFor', () => {
  it('names every missing field at once with the exact correct form', () => {
    expect(hint('c_a_command_instead_of_code')).toBe(
      'Hint: resend with every required field ("code", "description") in one call, e.g. run_code {"code":"return await tools[\\"bash\\"]({\\"command\\":\\"ls\\",\\"description\\":\\"Run: ls\\"});","description":"Run: ls"}.',
    );
    expect(hint('n_bash_wrong_key')).toBe(
      'Hint: resend with every required field ("command") in one call, e.g. bash {"command":"ls","description":"List files"}.',
    );
    expect(hint('c_b2_blank_description')).toMatch(/^Hint: "description" must be a short non-empty summary/);
  });

  it('a collapsed Code Mode direct call gets a ready-to-paste run_code reissue', () => {
    const text = hint('c_c_direct_read');
    expect(text).toBe(
      'Hint: resend it as run_code {"code":"return await tools[\\"read\\"]({\\"file_path\\":\\"/workspace/fixture.txt\\"});","description":"Call read on /workspace/fixture.txt"}',
    );
    const pasted = JSON.parse(text!.slice('Hint: resend it as run_code '.length));
    expect(pasted.code).toBe('return await tools["read"]({"file_path":"/workspace/fixture.txt"});');
  });

  it('a direct call whose arguments need repair is reissued repaired; one that cannot pass names what to add', () => {
    const result = capture('c_c_direct_bash').finalResult;
    expect(hintFor({ name: 'bash', arguments: { command: 'ls' } }, result, codeEnv)).toBe(
      'Hint: resend it as run_code {"code":"return await tools[\\"bash\\"]({\\"command\\":\\"ls\\",\\"description\\":\\"Run: ls\\"});","description":"Run: ls"}',
    );
    expect(hintFor({ name: 'read', arguments: { limit: 5 } }, result, codeEnv)).toMatch(
      / \(and add "file_path" to the read arguments\)$/,
    );
  });

  it('unknown names suggest the target; run_code in native mode says call tools directly', () => {
    expect(hint('n_unknown_tool')).toBe('Hint: there is no tool "read_file"; did you mean read?');
    expect(hint('n_run_code_in_native')).toBe('Hint: run_code is not available here; call the tools directly.');
    const result: ToolResultLike = {
      isError: true,
      error: { message: 'unknown tool "zzz"', info: { code: 'UNKNOWN_TOOL' } },
    };
    expect(hintFor({ name: 'zzz', arguments: {} }, result, nativeEnv)).toMatch(
      /^Hint: there is no tool "zzz"; available tools: bash, create_goal, edit/,
    );
  });

  it('programs: fences, enums, cut-off programs', () => {
    expect(hint('c_g_markdown_fence')).toMatch(/without a Markdown ``` fence/);
    expect(hint('c_g_ts_enum')).toMatch(/replace the enum with a const object/);
    const cut = {
      name: 'run_code',
      arguments: { code: 'const a = 1;\nawait tools.bash({ command: "rm -rf /srv/app/rel', description: 'x' },
    };
    const result: ToolResultLike = {
      isError: true,
      error: { message: "code run failed (exception): Expected ',', got '<eof>'", info: { code: 'CODE_RUN_FAILED' } },
    };
    expect(hintFor(cut, result, codeEnv)).toMatch(
      /^Hint: nothing ran: your program looks cut off at line 2, column \d+, likely by the output limit; split the work into several smaller run_code calls/,
    );
    expect(
      hintFor(cut, result, codeEnv, {
        kind: 'syntax-error',
        message: 'The program does not compile at line 3: bad.',
        line: 3,
      }),
    ).toBe('Hint: The program does not compile at line 3: bad.');
  });

  it('inner calls: points at the call and the field to add', () => {
    expect(hint('c_h_inner_bash_no_description')).toBe(
      'Hint: tools.bash at line 1 is missing "description"; add description: "Run: ls" to that call and resend.',
    );
    expect(hint('c_inner_unknown_binding')).toBe('Hint: tools.read_file does not exist; use tools.read.');
    expect(hint('c_inner_non_json_args')).toMatch(/one plain JSON object/);
  });

  it('editor and read errors', () => {
    expect(hint('n_d_view_relative')).toBe(
      'Hint: use the absolute path /workspace/fixture.txt (the workspace is /workspace; /fixture.txt would be at the filesystem root).',
    );
    expect(hint('n_f_view_range_start_past_end')).toMatch(/the file has 11 lines as the editor counts them/);
    expect(hint('n_read_past_end')).toBe('Hint: the file has 10 lines; use an offset from 1 to 10.');
    expect(hint('n_e_sre_str_replace_unread')).toBe(
      'Hint: read /workspace/existing2.txt first, then resend the same call.',
    );
    expect(hint('n_stale_edit')).toMatch(/changed on disk/);
  });

  it('no hint where the host already says what to do, or for successes', () => {
    expect(hint('n_e_edit_unread')).toBeUndefined();
    expect(hint('n_edit_not_found')).toBeUndefined();
    expect(hint('n_bash_ok')).toBeUndefined();
  });

  it('a relative path escaping the workspace, or without a cwd, is not resolved in the hint', () => {
    const result = capture('n_d_view_relative').finalResult;
    expect(
      hintFor(
        { name: 'str_replace_editor', arguments: { command: 'view', path: '../../etc/passwd' } },
        result,
        nativeEnv,
      ),
    ).toMatch(/leaves it or cannot be resolved/);
    expect(hintFor(capture('n_d_view_relative').modelCall, result, { ...nativeEnv, cwd: undefined })).toMatch(
      /not the filesystem root/,
    );
  });
});

describe('appendHint', () => {
  it('keeps the original text byte-identical as a prefix, once', () => {
    const original = capture('c_c_direct_read').modelSaw;
    const hinted = appendHint(original, 'Hint: do this.');
    expect(hinted.startsWith(original)).toBe(true);
    expect(hinted).toBe(`${original}\nHint: do this.`);
    expect(appendHint(hinted, 'Hint: do this.')).toBe(hinted);
    expect(appendHint(original, '')).toBe(original);
  });
});

describe('a program that ran and then threw is never reported as "nothing ran"', () => {
  const failed = (message: string): ToolResultLike => ({
    isError: true,
    error: { message, info: { code: 'CODE_RUN_FAILED', name: 'CodeRunFailedError' } },
    content: [],
  });
  it.each([
    [
      'a thrown string',
      "await tools.bash({ command: 'deploy', description: 'Deploy' });\nthrow 'deploy half done';",
      'code run failed (exception): deploy half done',
    ],
    [
      'a JSON.parse SyntaxError at run time',
      "await tools.bash({ command: 'deploy', description: 'Deploy' });\nreturn JSON.parse('{');",
      "code run failed (exception): SyntaxError: Expected property name or '}' in JSON at position 1\n    at JSON.parse (<anonymous>)",
    ],
  ])('%s', (_name, code, message) => {
    const call = { name: 'run_code', arguments: { code, description: 'Deploy' } };
    expect(classifyResult(call, failed(message)).category).toBe('code-runtime');
    expect(hintFor(call, failed(message), codeEnv) ?? '').not.toMatch(/nothing ran/);
  });

  it('a fence below code that already ran is not called "nothing ran"', () => {
    const code = "await tools.bash({ command: 'deploy', description: 'Deploy' });\n```js\nreturn 1;\n```";
    const call = { name: 'run_code', arguments: { code, description: 'Deploy' } };
    const hint = hintFor(
      call,
      failed(
        'code run failed (exception): TypeError: "" is not a function\n    at eval (eval at runWorkerMain (worker.cjs:1:1), <anonymous>:5:1)',
      ),
      codeEnv,
    );
    expect(hint).toMatch(/already ran/);
    expect(hint).not.toMatch(/nothing useful ran/);
  });

  it('a program the host does not compile still counts as never run', () => {
    const tripleQuote = '"'.repeat(3);
    const call = {
      name: 'run_code',
      arguments: { code: `const doc = ${tripleQuote}x${tripleQuote};`, description: 'Doc' },
    };
    expect(classifyResult(call, failed("code run failed (exception): Expected ';', '}' or <eof>")).category).toBe(
      'code-syntax',
    );
  });
});

describe('trimStackTrace', () => {
  it('drops pnpm-store and node-internal frames, keeps the program frame as line/column and the captured output', () => {
    const message = capture('c_runtime_throw').finalResult.error!.message;
    expect(trimStackTrace(message)).toBe(
      'code run failed (exception): Error: boom\n    at run_code program line 1, column 30\nCaptured output:\nbefore',
    );
  });

  it('inner ToolCallError traces lose every frame', () => {
    const message = capture('c_h_inner_bash_no_description').finalResult.error!.message;
    expect(trimStackTrace(message)).toBe(
      'code run failed (exception): ToolCallError: invalid arguments: missing required property "description"',
    );
  });

  it('reads only frame-sized lines as the program frame (a long model-written line is kept, never scanned quadratically)', () => {
    const long = `    at ${'eval at runWorkerMain '.repeat(200)}(<anonymous>:10:5)`;
    const message = `Error: x\n${long}`;
    expect(trimStackTrace(message)).toBe(message);
  });

  it('returns the same string when there is nothing to trim', () => {
    const message = capture('n_e_edit_unread').finalResult.error!.message;
    expect(trimStackTrace(message)).toBe(message);
    const ownFrames = 'Error: x\n    at handler (/srv/app/index.js:1:1)';
    expect(trimStackTrace(ownFrames)).toBe(ownFrames);
  });
});
