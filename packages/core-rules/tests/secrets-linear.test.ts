/**
 * The patterns added for issue 30's families run in linear time: for each one, crafted inputs (runs of what the
 * pattern scans, right after what starts it) are redacted at n and at 4n characters, and the work must grow about
 * 4 times, not 16 (quadratic). Measured in CPU time of this process (not wall-clock, which a loaded machine
 * stretches), after a warm-up run (V8 compiles a regular expression on first use), best of three per size; ratio
 * bound 12. On a 2-core machine at load 18 the worst linear shape measured 6.5; a quadratic pattern gives 16 or
 * more (the last test shows the check catches one). No absolute time is asserted (figures: telemetry-store's
 * bench/redact.bench.mjs).
 *
 * Multi-MB values: a scan step per character grew V8's backtracking stack until `redact()` threw ("Maximum call
 * stack size exceeded" on an 8 MiB `token: ...`). Values are now scanned a run at a time; what still cannot be
 * scanned whole comes back as one marker, never in part and never as a thrown error.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { redact, unscannedMarker } from '../src/secrets.js';
import { cpuTimed } from '../../../vitest.shared.js';

/** A text of about `size` characters: `prefix`, then `unit` repeated. */
const repeat = (prefix: string, unit: string) => (size: number) =>
  prefix + unit.repeat(Math.ceil(Math.max(0, size - prefix.length) / unit.length));

/** Crafted worst cases for each new pattern (name: what it attacks). */
const SHAPES: Record<string, (size: number) => string> = {
  // weak-secret-name: camel/kebab/whole names, quotes, bare values with a digit, separators, annotations
  'weak name, open single quotes': repeat('', "aAuth='"),
  'weak name, open double quotes': repeat('', 'aAuth="'),
  'weak name, escaped quotes': repeat('', 'aAuth=\\\\"'),
  'weak name, bare value without digit': repeat('', 'aAuth='),
  'weak name, colons': repeat('', 'aAuth:'),
  'weak name, then spaces': repeat('x-auth', ' '),
  'weak name, then backslashes': repeat('aAuth', '\\'),
  'weak name, then escaped newlines': repeat('aAuth:', '\\n'),
  'weak name, then deep escaped newlines': repeat('aAuth:', '\\\\\\n'),
  'weak name, type annotations': repeat('', 'aAuth: T '),
  'weak name, long annotation': repeat('aAuth: ', 'T'),
  'whole auth keys': repeat('', 'auth='),
  'weak name, plain-word values': repeat('', 'aPass="oauth'),
  'weak name, digit far away': repeat('aPass=', 'a'),
  // xml-weak-element
  'xml weak elements': repeat('', '<aAuth>'),
  'xml weak element, no close': repeat('<aAuth>', 'a'),
  // key-value separators (:=, ?=, =>, annotations, escaped key quotes, escaped newlines)
  'arrows after a secret word': repeat('', 'token=>'),
  'annotation after a secret word': repeat('token: string', ' '),
  'escaped newlines after a secret word': repeat('token:', '\\n'),
  'backslashes after a secret word': repeat('token', '\\'),
  'go assignments': repeat('', 'token:='),
  // an unclosed quoted value (its run, then a backslash that is no escaped newline)
  'unclosed quote, long run': repeat('token="', 'a'),
  'unclosed quotes, repeated': repeat('', 'token="a'),
  'unclosed quote runs ending at a backslash': repeat('', 'token="aaaa\\x '),
  // jwt glued by - or _ (the atomic look-ahead)
  'glued eyJ words': repeat('', 'a-eyJ'),
  'eyJ then glued words': repeat('eyJ', 'a-'),
  'eyJ then underscores': repeat('eyJ', '_'),
  'glued words then eyJ without dots': repeat('', 'ab_'),
  'escaped newline eyJ': repeat('', '\\neyJa'),
  // token starts after escaped newlines
  'escaped newline provider prefixes': repeat('', '\\nghp_'),
  'escaped newline then a long run': repeat('\\nxapp-', 'a'),
  'escaped newline sk-': repeat('', '\\nsk-a'),
  // word starts after escaped newlines (commands at the start of an encoded line)
  'escaped newline sshpass': repeat('', '\\nsshpass -o x '),
  'escaped newline curl -b': repeat('', '\\ncurl -b '),
  'escaped newline bearer': repeat('', '\\nbearer '),
  'escaped newline pgpass': repeat('', '\\nh:1:'),
  // provider prefixes added
  'github installation prefix': repeat('', 'ghs_1_'),
  'github installation, dotted run': repeat('ghs_1_', 'a.'),
  '1password with url-safe run': repeat('ops_ey', 'a_'),
};

/** Best of three CPU timings of `redactor(text)`. */
function best(text: string, redactor: (text: string) => string): number {
  return Math.min(
    cpuTimed(() => redactor(text)).ms,
    cpuTimed(() => redactor(text)).ms,
    cpuTimed(() => redactor(text)).ms,
  );
}

/** How much more work redacting `factor`·n characters takes than n (about `factor` when linear, its square when quadratic). */
function growth(
  make: (size: number) => string,
  size: number,
  redactor: (text: string) => string = redact,
  factor = 4,
): number {
  const small = make(size);
  const big = make(factor * size);
  redactor(big);
  // a floor of 1 ms keeps a sub-millisecond small run from inflating the ratio
  return best(big, redactor) / Math.max(1, best(small, redactor));
}

const N = 64 * 1024;
const BOUND = 12;

describe('the new redaction patterns are linear', () => {
  it.each(Object.entries(SHAPES))(
    '%s: 4x the input, under 12x the work',
    (_, make) => {
      expect(make(N).length).toBeGreaterThanOrEqual(N);
      expect(growth(make, N)).toBeLessThan(BOUND);
    },
    60_000,
  );

  it('the check catches a quadratic pattern: the glued JWT rule without its atomic look-ahead', () => {
    const naive = /(?<![A-Za-z0-9_-])(?:[A-Za-z0-9]+[-_])*?eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g;
    const naiveRedact = (text: string) => text.replace(naive, '[REDACTED]');
    // Small sizes (the quadratic pattern takes ~0.1 s on 16 KiB) and an 8x step: at 4x, 4 KiB it measured 8-16x
    // (fixed costs weigh on the small run) and once failed CI; at 8x from 2 KiB it measures 34-73x on Node 20 and
    // 24, where a linear pattern shows about 8.
    expect(growth(repeat('', 'a-eyJ'), 2 * 1024, naiveRedact, 8)).toBeGreaterThan(2 * BOUND);
  }, 60_000);
});

/** A fresh secret-looking value of `size` characters (letters and digits, no separators). */
function freshValue(size: number): string {
  return randomBytes(Math.ceil((size * 3) / 4) + 3)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, 'x')
    .slice(0, size);
}

describe('multi-MB values: redacted, or replaced whole by a marker, never thrown out of redact()', () => {
  const SIZE = 8 * 1024 * 1024;
  it.each([
    ['yaml key', (v: string) => `token: ${v}`, 'token: [REDACTED]'],
    ['env assignment', (v: string) => `token=${v}`, 'token=[REDACTED]'],
    ['JSON key', (v: string) => `{"token":"${v}"}`, '{"token":"[REDACTED]"}'],
    ['JSON key inside a JSON string', (v: string) => `{\\"token\\":\\"${v}\\"}`, '{\\"token\\":\\"[REDACTED]\\"}'],
    ['quoted assignment', (v: string) => `token="${v}"`, 'token="[REDACTED]"'],
    ['Python dict key', (v: string) => `{'token': '${v}'}`, "{'token': '[REDACTED]'}"],
    ['unclosed quote', (v: string) => `token="${v}`, 'token=[REDACTED]'],
    ['bearer header', (v: string) => `Authorization: Bearer ${v}`, undefined],
    ['a glued JWT-like run', (v: string) => `x eyJ${v}`, undefined],
    ['escaped-quote pairs', (v: string) => `token="${'a\\"'.repeat(v.length / 3)}`, undefined],
  ] as const)(
    '%s',
    (_, shape, expected) => {
      const value = freshValue(SIZE);
      const text = shape(value);
      const out = redact(text);
      if (expected !== undefined) expect(out).toBe(expected);
      // whatever the shape, no piece of the value survives: redacted in place, or the whole text is one marker
      expect(out.length).toBeLessThan(200);
      expect(out.includes(value.slice(SIZE / 2, SIZE / 2 + 24))).toBe(false);
      if (out.startsWith('[REDACTED: ')) expect(out).toBe(unscannedMarker(text.length));
    },
    120_000,
  );
});
