/**
 * Property checks over the whole corpus: healing is idempotent, valid programs are untouched, and any valid
 * program wrapped in any supported Markdown fence style heals back to exactly itself.
 */
import { describe, expect, it } from 'vitest';
import { compilesLikeHost, healProgram } from '../src/index.js';
import { allPrograms, repairCases, validCases } from './corpus.js';

const programs = allPrograms();

/** The fence styles models produce, each a function of the program text. */
const FENCE_STYLES: [string, (code: string) => string][] = [
  ['```js', (code) => '```js\n' + code + '\n```'],
  ['```ts + CRLF', (code) => '```ts\r\n' + code + '\r\n```\r\n'],
  ['bare ```', (code) => '```\n' + code + '\n```'],
  ['~~~javascript', (code) => '~~~javascript\n' + code + '\n~~~'],
  ['blank lines around', (code) => '\n\n```typescript\n' + code + '\n```\n\n'],
  ['prose before and after', (code) => 'Here is the program:\n\n```js\n' + code + '\n```\n\nIt uses the tools.'],
];

describe('healing is idempotent: heal(heal(x)) == heal(x)', () => {
  it.each(programs.map((code, index) => [index, code] as const))('corpus program #%i', (_index, code) => {
    const once = healProgram(code);
    const twice = healProgram(once.code);
    expect(twice.code).toBe(once.code);
    expect(twice.changed).toBe(false);
    expect(twice.ok).toBe(once.ok);
  });
});

describe('ok means the host-equivalent compile accepts the returned code', () => {
  it.each(programs.map((code, index) => [index, code] as const))('corpus program #%i', (_index, code) => {
    const result = healProgram(code);
    if (result.ok) expect(compilesLikeHost(result.code).ok).toBe(true);
    if (!result.ok) expect(result.code).toBe(code);
  });
});

describe('a fenced valid program heals back to exactly itself', () => {
  const bodies = [...validCases.map((entry) => entry.code), ...repairCases.map((entry) => entry.expect.code!)];
  for (const [style, wrap] of FENCE_STYLES) {
    it(`${style} around every valid program`, () => {
      for (const body of bodies) {
        if (body.trim() === '' || body.includes('\r\n') !== style.includes('CRLF')) continue;
        const result = healProgram(wrap(body));
        expect(result.code, body).toBe(body);
        expect(result.repairs[0]?.kind).toBe('strip-fence');
      }
    });
  }
});

describe('a clean truncation of a valid program closes back to a compiling program', () => {
  it('removing trailing closing delimiters of each valid program is repaired or refused, never mis-closed', () => {
    for (const entry of validCases) {
      const cut = entry.code.replace(/[\s)}\]]+$/, '');
      if (cut === entry.code.trimEnd()) continue;
      const result = healProgram(cut);
      if (result.ok && result.changed) {
        expect(result.code.startsWith(cut)).toBe(true);
        expect(result.repairs.at(-1)?.kind).toBe('close-truncated');
      } else {
        expect(result.code).toBe(cut);
      }
    }
  });
});
