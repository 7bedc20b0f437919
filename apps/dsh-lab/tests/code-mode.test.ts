/**
 * `code` and `ptc`: the lab turns Code Mode on under the name the installed host accepts. By fixture for the releases
 * this machine cannot install (0.1.7 and 0.2.x get `ptc`, as the env var and as the `tools` row patch), and live on
 * the installed rc.8 through the patch form (the env form is what every other real-host suite uses): rc.8 accepts
 * `code` there and presents only `run_code`; the name a later release uses is a schema error on rc.8, so booting it
 * fails instead of silently running native tools.
 */
import { describe, expect, it } from 'vitest';
import { DSH_RELEASES, releaseFacts } from '@dsh-tool-normalizer/dsh-profile';
import { codeModeSetting, runSession, toolsModePatch } from '../src/index.js';

describe('the Code Mode setting per release (fixture)', () => {
  it.each([
    ['0.1.0-rc.8', 'code'],
    ['0.1.1-rc.2', 'code'],
    ['0.1.7-rc.2', 'ptc'],
    ['0.2.0-rc.2', 'ptc'],
    ['0.2.1-alpha.2', 'ptc'],
    ['0.3.0', 'ptc'],
  ])('DSH %s: DSH_TOOLS_MODE=%s, and the same name in the patch form', (version, name) => {
    expect(codeModeSetting('code', version)).toEqual({
      name,
      via: 'env',
      env: { DSH_TOOLS_MODE: name },
      patch: undefined,
    });
    const patch = codeModeSetting('code', version, 'patch');
    expect(patch?.env).toEqual({});
    expect(patch?.patch).toBe(toolsModePatch(name));
    expect(patch?.patch).toMatch(new RegExp(`^- id: tools\\n  config:\\n    mode: ${name}\\n`, 'm'));
  });

  it('native sets nothing on any release (an empty DSH_TOOLS_MODE fails schema validation)', () => {
    for (const version of DSH_RELEASES) expect(codeModeSetting('native', version, 'patch')).toBeUndefined();
  });

  it('every release gets a name that release accepts', () => {
    for (const version of DSH_RELEASES) {
      const setting = codeModeSetting('code', version);
      expect(releaseFacts(version)?.presentationModes, version).toContain(setting?.name);
    }
  });
});

describe('live on the installed rc.8 through the patch form', () => {
  const probe = {
    id: 'c_probe',
    name: 'run_code',
    arguments: JSON.stringify({ code: 'return 6 * 7;', description: 'Probe' }),
  };

  it('`code` in a tools row patch: only run_code is presented and a program runs', async () => {
    const run = await runSession({
      mode: 'code',
      codeModeVia: 'patch',
      plugin: false,
      label: 'code-mode-patch',
      steps: [{ toolCalls: [probe] }, { text: 'done' }],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.dshVersion).toBe('0.1.0-rc.8');
    expect(run.codeMode).toMatchObject({ name: 'code', via: 'patch', env: {} });
    const first = run.requests.find((request) => request.isAgent);
    expect(first?.body.tools?.map((tool) => tool.function.name)).toEqual(['run_code']);
    expect(run.toolMessages.find((message) => message.callId === 'c_probe')?.content).toBe('42');
  });

  it('`ptc` (the 0.1.7+ name) is refused by rc.8: the boot fails, no request is sent as native', async () => {
    const run = await runSession({
      mode: 'native',
      plugin: false,
      label: 'ptc-on-rc8',
      patch: toolsModePatch('ptc'),
      steps: [{ toolCalls: [probe] }, { text: 'done' }],
      timeoutMs: 120_000,
    });
    expect(run.exitCode).not.toBe(0);
    // the tools row fails its schema, so every tool plugin waits for a `tools` service that never comes
    expect(run.stderr).toContain('pending (waiting for service: tools)');
    expect(run.requests.filter((request) => request.isAgent)).toHaveLength(0);
  });
});
