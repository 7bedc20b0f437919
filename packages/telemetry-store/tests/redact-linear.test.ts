/**
 * Every redaction rule runs in time linear in its input: each crafted worst-case shape (tests/adversarial-shapes.ts)
 * finishes at 64 KiB and at 1 MiB within a generous bound that only a quadratic pattern would exceed (the old
 * JSON-key rule took 22 s on 64 KiB of backslashes after a secret-named key). The figures per rule are in
 * bench/redact.bench.mjs; nothing here asserts speed beyond catching a blow-up.
 */
import { RULES, applyRule, redact } from '@dsh-tool-normalizer/core-rules/secrets';
import { describe, expect, it } from 'vitest';
import { cpuTimed } from '../../../vitest.shared.js';
import { ADVERSARIAL_SHAPES } from './adversarial-shapes.js';

const KIB64 = 64 * 1024;
const MIB = 1024 * 1024;

function once(fn: () => void): number {
  return cpuTimed(fn).ms;
}

/**
 * CPU time of `fn` (not wall time: a loaded machine that takes the CPU away does not inflate it), measured again
 * (best of three) when the first run is over `bound`: one run can meet a garbage collection, while a quadratic
 * pattern is slow every time.
 */
function elapsed(fn: () => void, bound: number): number {
  const first = once(fn);
  return first < bound ? first : Math.min(first, once(fn), once(fn));
}

describe('redaction runs in linear time', () => {
  it.each(ADVERSARIAL_SHAPES.map((shape) => [shape.name, shape] as const))('%s: 64 KiB and 1 MiB', (_, shape) => {
    const small = shape.make(KIB64);
    const big = shape.make(MIB);
    expect(small.length).toBeGreaterThanOrEqual(KIB64);
    // Quadratic patterns took seconds on 64 KiB; linear ones take milliseconds. The bounds allow a loaded machine.
    expect(elapsed(() => redact(small), 400)).toBeLessThan(400);
    expect(elapsed(() => redact(big), 4000)).toBeLessThan(4000);
  });

  it('no single rule is slow on any shape at 64 KiB', () => {
    const slow: string[] = [];
    for (const shape of ADVERSARIAL_SHAPES) {
      const text = shape.make(KIB64);
      for (const rule of RULES) {
        const ms = elapsed(() => applyRule(rule, text), 150);
        if (ms > 150) slow.push(`${rule.name} on ${shape.name}: ${ms.toFixed(0)} ms`);
      }
    }
    expect(slow).toEqual([]);
  }, 120_000);
});
