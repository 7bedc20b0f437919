/**
 * Loops (identical failures counted by fingerprint, escalated hints), the inner cause of a failed Code-Mode program
 * (classification, plan and hint agree), the cut-off program hint, and hostile arguments: getters that throw values
 * whose `toString` throws never escape planRecovery, classifyResult, hintFor or the loop functions.
 */
import { describe, expect, it } from 'vitest';
import { callIdentity, classifyResult, failureFingerprint, hintFor, planRecovery, repeatHint } from '../src/index.js';
import type { ToolCall, ToolResultLike } from '../src/types.js';
import { capture, codeEnv, nativeEnv } from './fixtures.js';

const missingDescription: ToolResultLike = {
  isError: true,
  error: {
    message: 'invalid arguments: missing required property "description"',
    info: { code: 'INVALID_ARGS', name: 'ToolArgsError' },
  },
};

describe('failureFingerprint', () => {
  it('is the same for the same tool, canonical arguments and error code, in any key order or wire form', () => {
    const a = failureFingerprint({ name: 'bash', arguments: { command: 'ls', timeoutMs: 5 } }, missingDescription);
    const b = failureFingerprint({ name: 'bash', arguments: '{"timeoutMs":5,"command":"ls"}' }, missingDescription);
    expect(a).toBeDefined();
    expect(a).toBe(b);
  });

  it("starts with the call's identity (the analyzer's grouping key is the same function) and ends with the code", () => {
    const call = { name: 'bash', arguments: '{"timeoutMs":5,"command":"ls"}' };
    expect(failureFingerprint(call, missingDescription)).toBe(`${callIdentity(call)}\u0000INVALID_ARGS`);
    expect(callIdentity({ name: 'bash', arguments: { command: 'ls', timeoutMs: 5 } })).toBe(callIdentity(call));
    expect(callIdentity({ name: 'bash', arguments: 'not json' })?.split('\u0000')).toEqual([
      'bash',
      expect.stringMatching(/^[0-9a-f]{14}$/),
    ]);
  });

  it('differs when the tool, an argument or the error code differs', () => {
    const base = failureFingerprint({ name: 'bash', arguments: { command: 'ls' } }, missingDescription);
    expect(failureFingerprint({ name: 'bash', arguments: { command: 'ls -la' } }, missingDescription)).not.toBe(base);
    expect(failureFingerprint({ name: 'grep', arguments: { command: 'ls' } }, missingDescription)).not.toBe(base);
    const other: ToolResultLike = { isError: true, error: { message: 'x', info: { code: 'FS_NOT_FOUND' } } };
    expect(failureFingerprint({ name: 'bash', arguments: { command: 'ls' } }, other)).not.toBe(base);
  });

  it('is undefined for a success or a cancellation, and short even for a 10 MB argument', () => {
    expect(failureFingerprint({ name: 'bash', arguments: {} }, { isError: false })).toBeUndefined();
    expect(
      failureFingerprint(
        { name: 'bash', arguments: {} },
        { isError: true, error: { message: 'tool call aborted', info: { code: 'ABORTED' } } },
      ),
    ).toBeUndefined();
    const big = failureFingerprint(
      { name: 'write', arguments: { file_path: '/a', content: 'x'.repeat(10 * 1024 * 1024) } },
      { isError: true, error: { message: 'm', info: { code: 'FS_NOT_OBSERVED' } } },
    );
    expect(big?.length).toBeLessThan(64);
  });
});

describe('repeatHint', () => {
  const anchor: ToolResultLike = {
    isError: true,
    error: {
      message: 'old_string was not found in "/workspace/a.txt"',
      info: { code: 'FS_EDIT_NOT_FOUND', name: 'FsError' },
    },
  };
  const edit: ToolCall = {
    name: 'edit',
    arguments: { file_path: '/workspace/a.txt', old_string: 'nope', new_string: 'x' },
  };

  it('says nothing for a first failure', () => {
    expect(repeatHint(edit, anchor, 1)).toBeUndefined();
  });

  it('the 2nd names the count and what must change, read from the error', () => {
    expect(repeatHint({ name: 'bash', arguments: { command: 'ls' } }, missingDescription, 2)).toBe(
      'Hint: this is the 2nd identical failure of this bash call (same arguments, same error); sending it again unchanged will fail again: the arguments must include "description".',
    );
    expect(repeatHint(edit, anchor, 2)).toMatch(
      /^Hint: this is the 2nd identical failure of this edit call .*the text to replace is not in "\/workspace\/a\.txt": read the file and copy the exact current text into old_string\.$/,
    );
    const ambiguous: ToolResultLike = {
      isError: true,
      error: {
        message:
          'old_string matched 10 times in "/workspace/a.txt"; provide a more specific old_string or set replace_all to true',
        info: { code: 'FS_AMBIGUOUS_EDIT' },
      },
    };
    expect(repeatHint(edit, ambiguous, 2)).toMatch(
      /matches several places in "\/workspace\/a\.txt": include enough surrounding lines/,
    );
    const missing: ToolResultLike = {
      isError: true,
      error: { message: 'cannot read "/workspace/nope.txt": not found', info: { code: 'FS_NOT_FOUND' } },
    };
    expect(repeatHint({ name: 'read', arguments: { file_path: '/workspace/nope.txt' } }, missing, 2)).toMatch(
      /the path "\/workspace\/nope\.txt" does not exist/,
    );
  });

  it("falls back to the error's own hint when the text does not say what must change", () => {
    const other: ToolResultLike = { isError: true, error: { message: 'something odd' } };
    expect(repeatHint({ name: 'bash', arguments: {} }, other, 2, 'Hint: do the right thing.')).toMatch(
      /^Hint: this is the 2nd .*fail again\. do the right thing\.$/,
    );
    expect(repeatHint({ name: 'bash', arguments: {} }, other, 2)).toMatch(/change the arguments, or the approach\.$/);
  });

  it('from the 3rd tells the model to change approach or ask the user', () => {
    expect(repeatHint(edit, anchor, 3)).toBe(
      'Hint: this is the 3rd identical failure of this edit call (same arguments, same error). Stop retrying it: change approach (different arguments, another tool, or read what is there first) or ask the user.',
    );
    expect(repeatHint(edit, anchor, 11)).toMatch(/^Hint: this is the 11th identical failure/);
    expect(repeatHint(edit, anchor, 22)).toMatch(/^Hint: this is the 22nd identical failure/);
  });
});

describe('the inner cause of a failed run_code program', () => {
  const program = (inner: string): ToolResultLike => ({
    isError: true,
    error: {
      message: `code run failed (exception): ToolCallError: ${inner}\n    at bindingFailure (/x/worker.cjs:1:1)`,
      info: { code: 'CODE_RUN_FAILED', name: 'CodeRunFailedError' },
    },
  });
  const call = {
    name: 'run_code',
    arguments: {
      code: 'await tools.edit({ file_path: "/workspace/a.txt", old_string: "zz", new_string: "y" });',
      description: 'edit',
    },
  };

  it('is named like its native twin, and the plan and hint agree', () => {
    const cases: [string, string][] = [
      ['old_string was not found in "/workspace/a.txt"', 'fs-edit-anchor'],
      [
        'old_string matched 3 times in "/workspace/a.txt"; provide a more specific old_string or set replace_all to true',
        'fs-edit-anchor',
      ],
      ['No replacement was performed, old_str `zz` did not appear verbatim in /workspace/a.txt.', 'fs-edit-anchor'],
      [
        'No replacement was performed. Multiple occurrences of old_str `line` in lines [1, 2]. Please ensure it is unique',
        'fs-edit-anchor',
      ],
      ['edit requires reading "/workspace/a.txt" first — read the file, then retry', 'fs-not-observed'],
      [
        'cannot overwrite existing "/workspace/a.txt" without reading it first — read the file, then retry',
        'fs-not-observed',
      ],
      [
        'cannot edit "/workspace/a.txt": file changed since it was read — re-read the file, then retry',
        'fs-stale-version',
      ],
      ['offset 50 is out of range for "/workspace/a.txt" (2 lines)', 'read-range'],
      [
        'Invalid `view_range`: [5, 99]. Its second element `99` should be smaller than the number of lines in the file: `11`',
        'editor-range',
      ],
      ['backend exploded', 'inner-tool-error'],
    ];
    for (const [inner, category] of cases) {
      expect(classifyResult(call, program(inner)).category, inner).toBe(category);
      expect(planRecovery(call, program(inner), codeEnv), inner).toBeUndefined();
    }
    expect(hintFor(call, program(cases[0]![0]), codeEnv)).toBeUndefined();
    expect(hintFor(call, program(cases[4]![0]), codeEnv)).toBe(
      'Hint: call tools.read({"file_path":"/workspace/a.txt"}) in the program before changing that file; the statements before the failing call already ran.',
    );
  });

  it('the captured inner INVALID_ARGS stays inner-invalid-args', () => {
    const { modelCall, finalResult } = capture('c_h_inner_bash_no_description');
    expect(classifyResult(modelCall, finalResult).category).toBe('inner-invalid-args');
  });
});

describe('a cut-off program', () => {
  it('the hint says it looks cut off (likely the output limit) and to split the work, with line and column', () => {
    const call = {
      name: 'run_code',
      arguments: { code: 'const a = 1;\nawait tools.bash({ command: "echo', description: 'x' },
    };
    const result: ToolResultLike = {
      isError: true,
      error: { message: "code run failed (exception): Expected ',', got '<eof>'", info: { code: 'CODE_RUN_FAILED' } },
    };
    const hint = hintFor(call, result, codeEnv, { kind: 'truncated', message: 'cut', line: 2, column: 31 });
    expect(hint).toBe(
      'Hint: nothing ran: your program looks cut off at line 2, column 31, likely by the output limit; split the work into several smaller run_code calls instead of resending the same long program.',
    );
  });
});

describe('hostile arguments never make the engine throw', () => {
  const poison = {
    toString: () => {
      throw new Error('toString exploded');
    },
  };
  const hostileArgs = new Proxy(
    {},
    {
      get() {
        throw poison;
      },
      ownKeys() {
        throw poison;
      },
      getOwnPropertyDescriptor() {
        throw poison;
      },
      has() {
        throw poison;
      },
    },
  );
  const withGetters = Object.defineProperty({}, 'file_path', {
    enumerable: true,
    get() {
      throw poison;
    },
  });
  const hostileResult = new Proxy(
    { isError: true },
    {
      get(_target, key) {
        if (key === 'isError') return true;
        throw poison;
      },
    },
  );
  const hostileCall = new Proxy(
    {},
    {
      get() {
        throw poison;
      },
    },
  );

  it('planRecovery, classifyResult, hintFor, failureFingerprint and repeatHint return instead of throwing', () => {
    const results: ToolResultLike[] = [
      {
        isError: true,
        error: { message: 'edit requires reading "/workspace/a.txt" first', info: { code: 'FS_NOT_OBSERVED' } },
      },
      missingDescription,
      hostileResult as ToolResultLike,
      {
        isError: true,
        error: {
          get message(): string {
            throw poison;
          },
          info: { code: 'INVALID_ARGS' },
        },
      } as ToolResultLike,
    ];
    const calls = [
      { name: 'edit', arguments: hostileArgs },
      { name: 'edit', arguments: withGetters },
      { name: 'bash', arguments: withGetters },
      hostileCall as ToolCall,
    ];
    for (const call of calls) {
      for (const result of results) {
        for (const env of [nativeEnv, codeEnv]) {
          expect(() => planRecovery(call as ToolCall, result, env)).not.toThrow();
          expect(() => classifyResult(call as ToolCall, result)).not.toThrow();
          expect(() => hintFor(call as ToolCall, result, env)).not.toThrow();
        }
        expect(() => failureFingerprint(call as ToolCall, result)).not.toThrow();
        expect(() => repeatHint(call as ToolCall, result, 2, 'Hint: x')).not.toThrow();
        expect(() => repeatHint(call as ToolCall, result, 3)).not.toThrow();
      }
    }
    expect(
      planRecovery({ name: 'edit', arguments: withGetters }, results[0]!, nativeEnv, hostileArgs as never),
    ).toBeUndefined();
  });
});
