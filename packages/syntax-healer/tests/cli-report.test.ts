/** The CLI's built-in example heals, and the report says what happened. */
import { describe, expect, it } from 'vitest';
import { EXAMPLE, report } from '../src/cli-report.js';
import { healProgram } from '../src/index.js';

describe('tn-heal report', () => {
  it('heals the built-in example (fence + Python triple quote calling tools.bash)', () => {
    const result = healProgram(EXAMPLE);
    expect(result.ok).toBe(true);
    expect(result.repairs.map((repair) => repair.kind)).toEqual(['strip-fence', 'python-triple-quote']);
    expect(result.code).toContain('await tools.bash({ command: script');
    const text = report(EXAMPLE, result, 'example');
    expect(text).toMatch(/^source: +example$/m);
    expect(text).toMatch(/^ok: +true$/m);
    expect(text).toMatch(/^changed: +true$/m);
    expect(text).toMatch(/^repairs: +strip-fence .*; python-triple-quote/m);
    expect(text.endsWith(result.code + '\n')).toBe(true);
  });

  it('reports a refusal with its diagnostic and the unchanged program', () => {
    const code = "await tools.bash({ command: 'rm -rf /srv/app/rel";
    const text = report(code, healProgram(code), 'stdin');
    expect(text).toMatch(/^ok: +false$/m);
    expect(text).toMatch(/^diagnostic: truncated at line 1, column 49: .*nothing was run/m);
    expect(text).toContain('--- program (unchanged) ---\n' + code);
  });
});
