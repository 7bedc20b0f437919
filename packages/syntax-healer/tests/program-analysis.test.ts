/** The shared program analysis: parse, called tools in source order, static keys and strings, text edits. */
import { describe, expect, it } from 'vitest';
import {
  applyEdits,
  calledTools,
  leadingComment,
  parseProgram,
  propertyKey,
  RUN_CODE,
  staticString,
  toolCallSites,
} from '../src/index.js';
import type { AstNode } from '../src/index.js';

describe('program analysis', () => {
  it('finds tools.x, tools["x"], tools?.x and template-named calls in source order, nothing else', () => {
    const program = parseProgram(
      'const a = await tools.read({ file_path: "/a" });\nawait tools["bash"]({ command: "ls" });\nawait tools?.grep({ pattern: "x" });\nawait tools[`glob`]({ pattern: "*" });\nother.read();\ntools[name]();',
    );
    expect(program).toBeDefined();
    expect(calledTools(program as AstNode)).toEqual(['read', 'bash', 'grep', 'glob']);
    const [first] = toolCallSites(program as AstNode);
    const keys = (first!.argument!.properties as AstNode[]).map(propertyKey);
    expect(keys).toEqual(['file_path']);
    expect(staticString((first!.argument!.properties as AstNode[])[0]?.value)).toBe('/a');
  });

  it('parses TypeScript with top-level await and return; refuses what does not parse or is too long', () => {
    expect(parseProgram('const x: number = await Promise.resolve(1);\nreturn x;')).toBeDefined();
    expect(parseProgram('return (')).toBeUndefined();
    expect(parseProgram(`return ${'1+'.repeat(300_000)}1;`)).toBeUndefined();
    expect(RUN_CODE).toBe('run_code');
  });

  it('applies insertions and replacements in any order, keeping every other byte; refuses overlaps', () => {
    const code = 'abcdef';
    expect(
      applyEdits(code, [
        { start: 4, end: 4, text: 'X' },
        { start: 1, end: 3, text: 'YY' },
      ]),
    ).toBe('aYYdXef');
    expect(applyEdits(code, [])).toBe(code);
    expect(
      applyEdits(code, [
        { start: 1, end: 4, text: '' },
        { start: 2, end: 3, text: 'Z' },
      ]),
    ).toBeUndefined();
    expect(applyEdits(code, [{ start: 5, end: 9, text: '' }])).toBeUndefined();
  });

  it('reads the comment a program opens with, and only that one', () => {
    expect(leadingComment(parseProgram('// Read files\nreturn 1;') as AstNode)).toBe(' Read files');
    expect(leadingComment(parseProgram('return 1; // late') as AstNode)).toBeUndefined();
  });
});
