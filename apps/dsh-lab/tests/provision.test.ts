/**
 * Provisioning failure paths that need no DSH boot: a plugin that cannot be installed is refused with a clear
 * error naming the step, and a command that hangs is killed at its timeout instead of hanging the caller.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LabStepError, installPlugin, pluginStatus } from '../src/index.js';
import { runStep } from '../src/child-process.js';

const dirs: string[] = [];
const tempPackage = (manifest: Record<string, unknown> | undefined, files: Record<string, string> = {}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-lab-plugin-'));
  dirs.push(dir);
  if (manifest) fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('pluginStatus', () => {
  it('explains why a package cannot be installed as a DSH plugin', () => {
    expect(pluginStatus(tempPackage(undefined))).toMatchObject({
      available: false,
      reason: expect.stringContaining('no package.json'),
    });
    expect(pluginStatus(tempPackage({ name: 'p', main: 'index.js' }))).toMatchObject({
      available: false,
      reason: expect.stringContaining('dsh.bundle.patch'),
    });
    expect(
      pluginStatus(tempPackage({ name: 'p', main: 'index.js', dsh: { bundle: { patch: './patch.yml' } } })),
    ).toMatchObject({ available: false, reason: expect.stringContaining('patch.yml does not exist') });
    expect(
      pluginStatus(
        tempPackage(
          { name: 'p', main: 'dist/index.js', dsh: { bundle: { patch: './patch.yml' } } },
          { 'patch.yml': '[]' },
        ),
      ),
    ).toMatchObject({
      available: false,
      reason: expect.stringContaining('build it first'),
    });
  });

  it('accepts a built package that declares a bundle patch', () => {
    const dir = tempPackage(
      { name: 'p', main: 'index.js', dsh: { bundle: { patch: './patch.yml' } } },
      { 'patch.yml': '[]', 'index.js': '' },
    );
    expect(pluginStatus(dir)).toEqual({ available: true, name: 'p', reason: 'built and declares a dsh bundle' });
  });
});

describe('installPlugin', () => {
  it('refuses an unbuilt plugin with an error naming the step, before touching DSH', async () => {
    const dir = tempPackage({ name: 'p' });
    const attempt = installPlugin({ dshHome: path.join(dir, 'home'), profile: 'headless', pluginDir: dir });
    await expect(attempt).rejects.toBeInstanceOf(LabStepError);
    await expect(attempt).rejects.toThrow(`install the plugin from ${dir} failed`);
    expect(fs.existsSync(path.join(dir, 'home'))).toBe(false);
  });
});

describe('runStep', () => {
  it('kills a command at its timeout and names the step', async () => {
    await expect(runStep('sleep', ['30'], { step: 'wait for nothing', timeoutMs: 300 })).rejects.toThrow(
      'dsh-lab: wait for nothing failed: timed out',
    );
  });

  it('reports a non-zero exit with the last output lines', async () => {
    await expect(
      runStep('bash', ['-c', 'echo first; echo boom >&2; exit 3'], { step: 'fail on purpose', timeoutMs: 10_000 }),
    ).rejects.toThrow(/exit code 3[\s\S]*boom/);
  });

  it('names the step when the command does not exist', async () => {
    await expect(
      runStep('/nonexistent/dsh-lab-command', [], { step: 'start a missing tool', timeoutMs: 10_000 }),
    ).rejects.toThrow('dsh-lab: start a missing tool failed: cannot start');
  });
});
