/** validateArguments: the schema gate, in the host's wording, on the schemas the host publishes. */
import { describe, expect, it } from 'vitest';
import { validateArguments } from '../src/index.js';
import { schemaOf } from './fixtures.js';

describe('validateArguments', () => {
  it('empty list for valid arguments', () => {
    expect(validateArguments(schemaOf('bash').parameters, { command: 'ls', description: 'List files' })).toEqual([]);
    expect(validateArguments(schemaOf('read').parameters, { file_path: 'a', extra: true })).toEqual([]);
  });

  it('words missing properties exactly like the host, one per property', () => {
    expect(validateArguments(schemaOf('run_code').parameters, { command: 'ls' })).toEqual([
      'missing required property "code"',
      'missing required property "description"',
    ]);
    expect(validateArguments(schemaOf('bash').parameters, { command: 'echo hi' })).toEqual([
      'missing required property "description"',
    ]);
  });

  it('type, enum and nested paths in the host notation', () => {
    const editor = schemaOf('str_replace_editor').parameters;
    expect(validateArguments(editor, { command: 'open', path: 3, view_range: ['1', 2] })).toEqual([
      '"command" must be one of ["view","create","str_replace","insert"]',
      '"path" must be a string',
      '"view_range[0]" must be an integer',
    ]);
    const todo = schemaOf('todo_write').parameters;
    expect(validateArguments(todo, { todos: [{ content: 'x', status: 'done', extra: 1 }] })).toEqual(
      expect.arrayContaining([
        '"todos[0].status" must be one of ["pending","in_progress","completed"]',
        '"todos[0].extra" is not a declared property (additionalProperties: false)',
      ]),
    );
  });

  it('non-objects fail an object schema', () => {
    for (const value of [null, [], 'x', 3, undefined])
      expect(validateArguments(schemaOf('read').parameters, value).length).toBeGreaterThan(0);
  });

  it('never throws: unsupported or odd schemas yield a violation or a verdict', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(validateArguments(cyclic, {})[0]).toMatch(/schema not supported/);
    expect(validateArguments(undefined, {})[0]).toMatch(/schema not supported/);
    expect(validateArguments({ $ref: '#/$defs/a', $defs: { a: { type: 'object', required: ['x'] } } }, {})).toEqual([
      'missing required property "x"',
    ]);
    expect(validateArguments({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true).length).toBeGreaterThan(0);
    expect(validateArguments({ anyOf: [{ type: 'string' }, { type: 'number' }] }, 3)).toEqual([]);
  });

  it('the same verdict from a fresh copy of the schema (text cache) and from the cached object', () => {
    const schema = schemaOf('bash').parameters;
    const copy = JSON.parse(JSON.stringify(schema));
    expect(validateArguments(copy, { command: 'ls' })).toEqual(validateArguments(schema, { command: 'ls' }));
  });
});
