/**
 * Importing the package in Node (no DOM) must not throw, must not read `window`, and must register nothing:
 * every built entry the package exports is imported by a plain `node` process whose `window` is a trap.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const distIndex = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const PROBE = `
const touched = [];
Object.defineProperty(globalThis, 'window', { configurable: true, get() { touched.push('window'); return undefined; } });
const mod = await import(process.argv[1]);
const registered = typeof customElements !== 'undefined' && customElements.get('tn-dashboard') !== undefined;
console.log(JSON.stringify({ touched, exports: Object.keys(mod).sort(), isClass: typeof mod.TnDashboard === 'function', registered }));
`;

describe('importing the package in Node', () => {
  it('does not throw, does not touch window and registers no element', () => {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', PROBE, distIndex], {
      encoding: 'utf8',
    });
    const result = JSON.parse(output.trim()) as {
      touched: string[];
      exports: string[];
      isClass: boolean;
      registered: boolean;
    };
    expect(result.touched).toEqual([]);
    expect(result.isClass).toBe(true);
    expect(result.registered).toBe(false);
    expect(result.exports).toContain('TnDashboard');
    expect(result.exports).toContain('checkPayload');
  });

  it.each([
    ['feed.js', false],
    ['dsh-settings.js', false],
    // Registering is ./define's one job; in Node it lands in lit's server-side registry shim, touching no window.
    ['define.js', true],
  ])('the %s entry imports too, touching no window', (entry, registers) => {
    const file = fileURLToPath(new URL(`../dist/${entry}`, import.meta.url));
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', PROBE, file], { encoding: 'utf8' });
    const result = JSON.parse(output.trim()) as { touched: string[]; exports: string[]; registered: boolean };
    expect(result.touched).toEqual([]);
    expect(result.registered).toBe(registers);
    expect(result.exports.length).toBeGreaterThan(0);
  });

  it('every export of package.json points at a file this check covers', async () => {
    const manifest = (await import('../package.json', { with: { type: 'json' } })).default as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(manifest.exports).sort()).toEqual([
      '.',
      './define',
      './dsh-settings',
      './feed',
      './package.json',
      './tn-dashboard.js',
    ]);
  });

  it('works through the source entry too (vitest Node environment, no DOM)', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const mod = await import('@dsh-tool-normalizer/dashboard-lit');
    expect(typeof mod.TnDashboard).toBe('function');
    expect(mod.DEFAULT_STATS_URL).toBe('/plugin-api/tool-normalizer/stats');
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
  });
});
