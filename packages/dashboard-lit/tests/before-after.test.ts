/**
 * The readable before/after and the dictionaries, in Node: arguments are decoded in the shapes previews take,
 * a program's line diff keeps common lines and marks only what changed, other tools compare key by key, and the
 * en/zh dictionaries carry the same keys and placeholders.
 */
import { describe, expect, it } from 'vitest';
import { decodeArguments, lineDiff, readableChange } from '../src/before-after.js';
import { createTranslate, en, supportedLocale, zh } from '../src/messages.js';

const marked = (lines: ReturnType<typeof lineDiff>, kind: 'added' | 'removed') =>
  lines
    .filter((line) => line.kind === kind)
    .flatMap((line) => line.spans.filter((span) => span.changed).map((span) => span.text));

describe('decodeArguments', () => {
  it('reads objects, double-encoded objects and {name, arguments} calls; anything else is not arguments', () => {
    expect(decodeArguments('{"a":1}')).toEqual({ a: 1 });
    expect(decodeArguments(JSON.stringify(JSON.stringify({ code: 'return 1' })))).toEqual({ code: 'return 1' });
    expect(decodeArguments(JSON.stringify({ name: 'bash', arguments: '{"command":"ls"}' }))).toEqual({ command: 'ls' });
    expect(decodeArguments('{"code":"ret...[120 chars omitted]...urn 1"}x')).toBeUndefined();
    expect(decodeArguments('[1,2]')).toBeUndefined();
    expect(decodeArguments('read')).toBeUndefined();
    expect(decodeArguments(undefined)).toBeUndefined();
  });
});

describe('lineDiff', () => {
  it('keeps the program line a stripped fence surrounded, and marks the fence lines only', () => {
    const lines = lineDiff('```ts\nreturn 1;\n```', 'return 1;');
    expect(lines.map((line) => [line.kind, line.spans.map((span) => span.text).join('')])).toEqual([
      ['removed', '```ts'],
      ['same', 'return 1;'],
      ['removed', '```'],
    ]);
  });

  it('pairs a replaced line with its replacement and marks only the differing words', () => {
    const lines = lineDiff('a();\nconst r = f({ x: 1 });\nb();\n', 'a();\nconst r = f({ x: 1, y: 2 });\nb();\n');
    expect(lines.map((line) => line.kind)).toEqual(['same', 'removed', 'added', 'same']);
    expect(marked(lines, 'added').join('')).toContain('y: 2');
    expect(marked(lines, 'added').join('')).not.toContain('const');
  });

  it('is the identity on equal texts (nothing marked)', () => {
    const lines = lineDiff('x\ny', 'x\ny');
    expect(lines.every((line) => line.kind === 'same')).toBe(true);
  });
});

describe('readableChange', () => {
  it('shows a healed run_code as a program diff plus the other keys that changed', () => {
    const readable = readableChange(
      JSON.stringify({ command: 'ls -la' }),
      JSON.stringify({ code: 'return await tools.bash({ command: "ls -la" });', description: 'List files' }),
    );
    expect(readable?.kind).toBe('program');
    if (readable?.kind !== 'program') return;
    expect(readable.lines.map((line) => line.kind)).toEqual(['added']);
    expect(readable.keys.map((key) => [key.key, key.kind])).toEqual([
      ['command', 'removed'],
      ['description', 'added'],
    ]);
  });

  it('compares other tools key by key', () => {
    const readable = readableChange('{"path":"/a","view_range":[1,400]}', '{"path":"/a","view_range":[1,120]}');
    expect(readable?.kind).toBe('keys');
    if (readable?.kind !== 'keys') return;
    const range = readable.keys.find((key) => key.key === 'view_range');
    expect(range?.kind).toBe('changed');
    expect(marked(range!.lines!, 'removed')).toEqual(['400']);
    expect(marked(range!.lines!, 'added')).toEqual(['120']);
    expect(readable.keys.find((key) => key.key === 'path')?.kind).toBe('same');
  });

  it('falls back to a text diff for previews that are not JSON, and has nothing to show without a pair', () => {
    expect(readableChange('read', 'run_code')?.kind).toBe('text');
    expect(readableChange('{"a":1}', undefined)).toBeUndefined();
  });
});

describe('dictionaries', () => {
  it('zh has exactly the keys and placeholders of en', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[])
      expect(placeholders(zh[key]), key).toEqual(placeholders(en[key]));
  });

  it('picks zh for any zh tag and en otherwise, and fills placeholders', () => {
    expect(['zh', 'zh-CN', 'ZH-hant-TW'].map(supportedLocale)).toEqual(['zh', 'zh', 'zh']);
    expect(['en-GB', 'fr', '', undefined, 'zhx'].map(supportedLocale)).toEqual(['en', 'en', 'en', 'en', 'en']);
    expect(createTranslate('zh')('failedOfCalls', { failed: 3, calls: 9 })).toBe('9 次调用中失败 3 次');
    expect(createTranslate('en')('failedOfCalls', { failed: 3 })).toBe('3 failed / {calls} calls');
  });
});
