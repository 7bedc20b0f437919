/**
 * `code` and `ptc` (issue 22): nothing the plugin does depends on the name DSH gives Code Mode. The adapter derives
 * the engine's mode from the tools a request presents (only `run_code` means Code Mode, whatever the host calls it),
 * never reads `DSH_TOOLS_MODE` or the `tools` row's `mode`, and listens to no sub-call hook whose name changed
 * (`tools/code-dispatch-log` / `tools/ptc-dispatch-log`, dsh-profile `SUB_CALL_HOOKS`). This guard fails when a
 * source file starts to.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { modeOfPresentedTools } from '../src/host.js';

const SRC = new URL('../src/', import.meta.url);
const sources = fs
  .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => [file, fs.readFileSync(new URL(file, SRC), 'utf8')] as const);

describe('the adapter is independent of Code Mode’s name', () => {
  it('reads neither DSH_TOOLS_MODE nor a host mode name, and listens to no renamed sub-call hook', () => {
    expect(sources.length).toBeGreaterThan(5);
    for (const [file, text] of sources) {
      expect(text, file).not.toMatch(/DSH_TOOLS_MODE|['"`]ptc['"`]|tool-presentation/);
      for (const hook of [
        'tools/code-dispatch-log',
        'tools/ptc-dispatch-log',
        'tool/code-dispatch',
        'tool/ptc-dispatch',
      ])
        expect(text, file).not.toContain(hook);
    }
  });

  it('derives Code Mode from the presented tools alone', () => {
    expect(modeOfPresentedTools([{ name: 'run_code' }])).toBe('code');
    expect(modeOfPresentedTools([{ name: 'run_code' }, { name: 'bash' }])).toBe('both');
    expect(modeOfPresentedTools([{ name: 'bash' }])).toBe('native');
  });
});
