/**
 * The error vocabulary against what real DSH rc.8 wrote: every captured example is the head of the message in its
 * capture (tests/fixtures/*-index.json, copied from /work/shared/dsh-captures), carries the capture's code, and matches
 * its own pattern; examples from public source match theirs; texts that must not match do not; each shape's mark is
 * in its example and its pattern. That core-rules settles every example in its category, and writes none of these
 * texts itself, is tested in packages/core-rules/tests/error-vocabulary.test.ts (this package depends on nothing of ours).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ABORT_CODES,
  CODE_RUN_PREFIX,
  DIRECT_CALL_MARK,
  ERROR_CODES,
  hasShape,
  MESSAGE_SHAPES,
  matchAllShape,
  matchShape,
  messageShape,
  READ_THEN_RETRY_MARK,
} from '../src/index.js';
import { cpuMsSince } from '../../../vitest.shared.js';

interface Capture {
  id: string;
  code?: string;
  message?: string;
}

const captures = new Map<string, Capture>(
  ['code-index.json', 'native-index.json'].flatMap((file) =>
    (JSON.parse(fs.readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8')) as Capture[]).map(
      (capture) => [capture.id, capture] as const,
    ),
  ),
);

const test = (pattern: RegExp, text: string) => new RegExp(pattern.source, pattern.flags.replace('g', '')).test(text);

describe('message shapes', () => {
  it.each(MESSAGE_SHAPES.filter((shape) => shape.captured).map((shape) => [shape.id, shape] as const))(
    '%s: the example is what rc.8 wrote, with its code',
    (_id, shape) => {
      const capture = captures.get(shape.source);
      expect(capture, `capture ${shape.source}`).toBeDefined();
      const message = capture?.message ?? '';
      const program = shape.where === 'program' && !shape.example.startsWith('code run failed');
      expect(program ? message.slice(CODE_RUN_PREFIX.length) : message).toMatch(
        new RegExp(`^${shape.example.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
      expect(capture?.code).toBe(shape.code);
    },
  );

  it.each(MESSAGE_SHAPES.map((shape) => [shape.id, shape] as const))(
    '%s: the example matches the pattern',
    (_id, shape) => {
      expect(test(shape.pattern, shape.example)).toBe(true);
    },
  );

  it.each([
    ['unknown-tool', 'unknown tool "read": only `run_code` is callable directly'],
    ['read-range', 'an offset 5 is out of range for x'],
    ['editor-path', 'the path a is not an absolute path'],
    ['program-uncompiled', 'code run failed (exception): TypeError: x is not a function'],
    ['program-uncompiled', 'code run failed (exception): Error: boom'],
    ['inner-unknown-binding', 'TypeError: tool.read is not a function'],
    ['inner-missing-binding-ptc', 'TypeError: tools.read is not a function'],
    ['fs-stale-version', 'cannot edit "/a": file was deleted'],
    ['program-markdown-fence', 'Error: x TypeError: "" is not a function'],
    ['editor-range-invalid', 'the `view_range` is invalid'],
  ])('%s does not match %j', (id, text) => {
    expect(test(messageShape(id).pattern, text)).toBe(false);
  });

  it.each(MESSAGE_SHAPES.map((shape) => [shape.id, shape] as const))(
    '%s: the mark is a literal part of the example and of the pattern',
    (_id, shape) => {
      expect(shape.example).toContain(shape.mark);
      const escaped = shape.mark.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect([shape.mark, escaped].some((form) => shape.pattern.source.includes(form))).toBe(true);
    },
  );

  it('every shape has a unique id, and an unknown id is an error, not undefined', () => {
    expect(new Set(MESSAGE_SHAPES.map((shape) => shape.id)).size).toBe(MESSAGE_SHAPES.length);
    expect(() => messageShape('no-such-shape')).toThrow(/no message shape/);
    expect(() => matchShape('no-such-shape', 'x')).toThrow(/no message shape/);
  });

  it('matching is stateless, also for the global pattern, and reads the groups the engine uses', () => {
    const text = messageShape('missing-required-property').example;
    for (let round = 0; round < 3; round++) expect(hasShape('missing-required-property', text)).toBe(true);
    expect(matchAllShape('missing-required-property', text).map((match) => match[1])).toEqual(['code', 'description']);
    expect(matchShape('read-range', messageShape('read-range').example)?.[1]).toBe('10');
    expect(matchShape('read-range', 'offset 5 is out of range for "/a"')?.[1]).toBeUndefined();
    expect(matchShape('editor-range-start', messageShape('editor-range-start').example)?.[1]).toBe('11');
    expect(matchShape('editor-range-end', messageShape('editor-range-end').example)?.[1]).toBe('11');
    expect(hasShape('editor-not-found', messageShape('editor-ambiguous').example)).toBe(false);
    expect(hasShape('editor-ambiguous', messageShape('editor-not-found').example)).toBe(false);
  });

  it('the marks and codes are the texts rc.8 writes', () => {
    expect(captures.get('c_c_direct_bash')?.message).toContain(DIRECT_CALL_MARK);
    expect(captures.get('n_e_write_unread')?.message).toContain(READ_THEN_RETRY_MARK);
    expect(captures.get('c_runtime_throw')?.message?.startsWith(CODE_RUN_PREFIX)).toBe(true);
    const codes = new Set([...captures.values()].map((capture) => capture.code).filter(Boolean));
    for (const code of codes) expect(Object.values(ERROR_CODES)).toContain(code);
    expect([...ABORT_CODES]).toEqual(['ABORTED', 'ABORTED_BEFORE_DISPATCH']);
  });

  it('patterns stay linear on a 1 MB hostile text (no catastrophic backtracking)', () => {
    const hostile = `The path ${'a '.repeat(500_000)}`;
    const started = process.cpuUsage();
    for (const shape of MESSAGE_SHAPES) test(shape.pattern, hostile);
    expect(cpuMsSince(started)).toBeLessThan(2000);
  });
});
