/**
 * `dsh-tool-normalizer doctor` (the built `dist/cli.js`) against the real DSH rc.8 on a web profile, in its own
 * DSH_HOME under the lab cache, provisioned the way a user does it (`dsh plugin --profile web add` of the hmr pin and
 * of the plugin folder, the hmr row in the profile's patch layer). A correct web profile: every check passes, the
 * doctor boots the web app as a server and the plugin's stats route answers, exit 0. Broken: without the hmr row
 * (rc.8 then fails to boot) and with an invalid live option in settings.yaml, the doctor names each problem and
 * exits 1 without booting; with the plugin's row disabled the profile boots without it, and the boot check says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand, runStep } from '../src/child-process.js';
import {
  cacheRoot,
  dshEnvironment,
  ensureBuiltPlugin,
  ensureDshInstalled,
  HMR_PIN,
  HMR_ROW_PATCH,
  labPaths,
  pluginStatus,
  type DshInstall,
} from '../src/index.js';

const status = pluginStatus();
const home = path.join(cacheRoot, 'home', 'doctor');
const webProfile = path.join(home, 'profiles', 'web');
const cli = path.join(labPaths.pluginPackage, 'dist', 'cli.js');

let install: DshInstall;
let env: NodeJS.ProcessEnv;

/** The doctor as a user runs it: the lab's Node 24 and its `dsh` first on PATH. */
function doctor(...args: string[]) {
  return runCommand(install.nodeBin, [cli, 'doctor', '--dsh-home', home, '--profile', 'web', ...args], {
    step: `dsh-tool-normalizer doctor ${args.join(' ')}`,
    cwd: home,
    env,
    timeoutMs: 180_000,
  });
}

describe.skipIf(!status.available)(`doctor on a real DSH rc.8 web profile (${status.reason})`, () => {
  beforeAll(async () => {
    await ensureBuiltPlugin();
    install = await ensureDshInstalled();
    fs.rmSync(home, { recursive: true, force: true });
    fs.mkdirSync(home, { recursive: true });
    const dshBinDir = path.join(labPaths.dshInstall, 'node_modules', '.bin');
    env = dshEnvironment(install, home);
    env.PATH = [dshBinDir, env.PATH].join(path.delimiter);
    const add = (spec: string) =>
      runStep(
        install.nodeBin,
        [install.dshEntry, 'plugin', '--profile', 'web', 'add', '-w', '--config.auto-install-peers=false', spec],
        { step: `dsh plugin --profile web add ${spec}`, cwd: home, env, timeoutMs: 300_000 },
      );
    await add(`@deepseek-ai/cordis-plugin-hmr@${HMR_PIN}`);
    await add(labPaths.pluginPackage);
    fs.writeFileSync(path.join(webProfile, 'cordis.patch.yml'), HMR_ROW_PATCH);
  });

  it('a correct web profile: no problem, the web app boots and the plugin answers on its stats route (exit 0)', async () => {
    const run = await doctor();
    const out = `${run.stdout}\n${run.stderr}`;
    expect(run.exitCode, out).toBe(0);
    expect(out).toMatch(/^ok {6}dsh: DSH 0\.1\.0-rc\.8 at .* \(proven live in CI\)$/m);
    expect(out).toMatch(/^ok {6}profile web: DSH rc\.8 workaround: hmr row: /m);
    expect(out).toMatch(
      /^ok {6}profile web: boot \(web\): DSH served its web app at http:\/\/127\.0\.0\.1:\d+ in [\d.]+ s and the plugin answered on \/plugin-api\/tool-normalizer\/stats/m,
    );
    expect(out).toMatch(
      /^note {4}verified: DSH 0\.1\.0-rc\.8 \(proven live in CI\): checked .*a boot with the plugin loaded \(web\)/m,
    );
    expect(out).toContain('No problems found.');
    // its boot ran in a temporary folder and left no session in the user's sessions folder (issue 30; a web boot
    // may file none: the headless case, which does, is proven in packages/dsh-tool-normalizer/tests/doctor.test.ts)
    const sessions = path.join(home, 'sessions');
    const left = fs.existsSync(sessions) ? fs.readdirSync(sessions) : [];
    expect(left.filter((name) => name.includes('tn-doctor'))).toEqual([]);
  });

  it('a web profile without the hmr row: the problem is named with its fix, the boot is skipped (exit 1)', async () => {
    const patch = path.join(webProfile, 'cordis.patch.yml');
    fs.writeFileSync(patch, '[]\n');
    try {
      const run = await doctor();
      const out = `${run.stdout}\n${run.stderr}`;
      expect(run.exitCode, out).toBe(1);
      expect(out).toMatch(/^PROBLEM profile web: DSH rc\.8 workaround: hmr row: .* does not mount the hmr row/m);
      expect(out).toContain('Replace the empty list ([]) in');
      expect(out).toMatch(/^note {4}profile web: boot: skipped/m);
      // what the doctor warned of is what rc.8 does: the profile does not boot
      const boot = await runCommand(
        install.nodeBin,
        [install.dshEntry, '--profile', 'web', '--no-open', '--host', '127.0.0.1', '--port', '0'],
        { step: 'dsh --profile web without the hmr row', cwd: home, env, timeoutMs: 90_000 },
      );
      expect(boot.exitCode).not.toBe(0);
      expect(`${boot.stdout}\n${boot.stderr}`).toContain('user patch-layer watching requires the Cordis HMR service');
    } finally {
      fs.writeFileSync(patch, HMR_ROW_PATCH);
    }
  });

  it('a web profile that boots without the plugin (its row disabled): the boot check fails, naming the route (exit 1)', async () => {
    const patch = path.join(webProfile, 'cordis.patch.yml');
    fs.writeFileSync(patch, `${HMR_ROW_PATCH}- id: tool-normalizer\n  disabled: true\n`);
    try {
      const run = await doctor();
      const out = `${run.stdout}\n${run.stderr}`;
      expect(run.exitCode, out).toBe(1);
      expect(out).toMatch(
        /^PROBLEM profile web: boot \(web\): DSH served its web app at http:\/\/127\.0\.0\.1:\d+, but the plugin's \/plugin-api\/tool-normalizer\/stats answered \d+/m,
      );
    } finally {
      fs.writeFileSync(patch, HMR_ROW_PATCH);
    }
  });

  it('an invalid live option in settings.yaml is a problem naming the option and the file (exit 1)', async () => {
    const settings = path.join(home, 'settings.yaml');
    fs.writeFileSync(settings, 'tool-normalizer:\n  breakLoops: sometimes\n');
    try {
      const run = await doctor('--no-boot');
      const out = `${run.stdout}\n${run.stderr}`;
      expect(run.exitCode, out).toBe(1);
      expect(out).toMatch(/^PROBLEM profile web: live options: option "breakLoops" must be a boolean/m);
      expect(out).toContain(settings);
    } finally {
      fs.rmSync(settings, { force: true });
    }
  });
});
