/**
 * Property checks over the whole corpus: healing is idempotent, valid programs are untouched, and any valid
 * program wrapped in any supported Markdown fence style heals back to exactly itself.
 */
import { describe, expect, it } from 'vitest';
import { HEAVY_TEST_TIMEOUT_MS } from './timeouts.js';
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

/** A small deterministic PRNG (mulberry32), so the fuzz cases are the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('seeded fuzz: mutated valid programs keep every invariant', () => {
  const next = random(20261129);
  const inserts = ['`', "'", '"', '"""', '\n', '{', '}', '(', ')', '${', '```\n', ';'];
  const mutants: string[] = [];
  for (let round = 0; round < 600; round++) {
    const base = validCases[Math.floor(next() * validCases.length)]!.code;
    const at = Math.floor(next() * (base.length + 1));
    const choice = next();
    if (choice < 0.4) mutants.push(base.slice(0, at));
    else if (choice < 0.7)
      mutants.push(base.slice(0, at) + inserts[Math.floor(next() * inserts.length)] + base.slice(at));
    else mutants.push(base.slice(0, at) + base.slice(at + 1));
  }

  it(
    'never throws; ok implies a compiling result; not ok returns the input; healing twice changes nothing',
    () => {
      for (const code of mutants) {
        const result = healProgram(code);
        if (result.ok) expect(compilesLikeHost(result.code).ok, code).toBe(true);
        else expect(result.code, code).toBe(code);
        if (!result.ok) expect(result.diagnostic, code).toBeDefined();
        expect(healProgram(result.code).code, code).toBe(result.code);
      }
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it('a truncation repair only appends closing delimiters to the cut text', () => {
    for (const code of mutants) {
      const result = healProgram(code);
      if (result.repairs.length === 1 && result.repairs[0]!.kind === 'close-truncated') {
        expect(result.code.startsWith(code), code).toBe(true);
        expect(result.code.slice(code.length).replace(/\s/g, ''), code).toMatch(/^[)\]}]+$/);
      }
    }
  });
});
