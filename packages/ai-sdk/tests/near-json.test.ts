/**
 * The near-JSON gate on its own: the shapes models send are read, and every text with a cut, a leftover or
 * more than one reading is refused. Bad input never throws.
 */
import { describe, expect, it } from 'vitest';
import { readNearJson } from '../src/index.js';

describe('readNearJson', () => {
  it.each([
    ["{'command': 'ls -la'}", { command: 'ls -la' }],
    ['{command: "ls", }', { command: 'ls' }],
    ['{"a": True, "b": None, "c": False}', { a: true, b: null, c: false }],
    ['{"a": "x" "b": 2}', { a: 'x', b: 2 }],
    ['{"text": "line1\nline2"}', { text: 'line1\nline2' }],
    ['{ /* why */ "a": 1 // one\n}', { a: 1 }],
    ["{'q': 'say \"hi\"', 'apostrophe': 'it\\'s'}", { q: 'say "hi"', apostrophe: "it's" }],
    ['{"nested": {"list": [1, 2, 3,],},}', { nested: { list: [1, 2, 3] } }],
  ])('reads %j', (text, expected) => {
    expect(readNearJson(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['cut inside a string', '{"command": "rm -rf /srv/app/rel'],
    ['cut after a key', '{"command": '],
    ['cut inside an array', '{"paths": ["a", "b"'],
    ['cut inside a comment', '{"a": 1 /* note'],
    ['an apostrophe breaking a single-quoted string', "{'content': 'it's done'}"],
    ['a mismatched bracket', '{"a": [1, 2}'],
    ['an extra closer', '{"a": "x"}}'],
    ['text after the object', '{"a": 1} trailing'],
    ['two objects', '{"a": 1} {"b": 2}'],
    ['an array, not an object', "['a', 'b']"],
    ['inner quotes with two readings', '{"command": "echo "hi""}'],
    ['empty text', '   '],
  ])('refuses %s', (_label, text) => {
    const reading = readNearJson(text);
    expect(reading.ok).toBe(false);
  });

  it('refuses non-text and oversized input without throwing', () => {
    expect(readNearJson(undefined as unknown as string).ok).toBe(false);
    expect(readNearJson({} as unknown as string).ok).toBe(false);
    expect(readNearJson(`{'a': '${'x'.repeat(5 * 1024 * 1024)}'}`).ok).toBe(false);
    expect(readNearJson(`{'a': '${'`'.repeat(10_000)}'}`)).toEqual({ ok: true, value: { a: '`'.repeat(10_000) } });
  });
});
