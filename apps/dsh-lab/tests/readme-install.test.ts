/**
 * The DSH user path, exactly as the published README writes it: the fenced block between the `dsh-user-path`
 * markers of packages/dsh-tool-normalizer/README.md is run by bash, line by line as written, unchanged, in a fresh
 * HOME (so `~/.dsh` is a fresh DSH_HOME) with only the lab's Node 24 and the system's npm on PATH (no pnpm: the block
 * installs it). The release tarball the block installs (`./dsh-tool-normalizer-*.tgz`) is the `pnpm pack` of the
 * built meta-package, put where a user downloads it: the folder the block runs in. The block installs DSH and pnpm
 * with `npm i -g` (into a global prefix inside the test folder), adds the plugin from the tarball and the rc.8
 * workarounds and runs the doctor; then the `dsh` it installed plays a scripted Code-Mode session and the plugin must
 * heal its calls. If the README changes to commands that do not work, this test fails. Also the ai-sdk README's
 * install line (four release tarballs, one npm command), run as written on the packed tarballs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand, runStep, type CommandResult } from '../src/child-process.js';
import {
  cacheRoot,
  checkModelSees,
  codeModeSetting,
  codeScenarios,
  DSH_VERSION,
  ensureDshInstalled,
  labPaths,
  pluginStatus,
  repoRoot,
  scenarioFixtures,
  scenarioScript,
  startScriptedModel,
  toolMessagesOf,
  type ToolMessage,
} from '../src/index.js';

const README = path.join(repoRoot, 'packages', 'dsh-tool-normalizer', 'README.md');
const status = pluginStatus();
const picked = codeScenarios.filter((s) => ['c_c_direct_read', 'c_b_no_description'].includes(s.id));

/** The shell block between the README's `dsh-user-path` markers. */
export function userPathBlock(readme: string): string {
  const match = /<!-- BEGIN dsh-user-path[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- END dsh-user-path -->/.exec(readme);
  if (!match) throw new Error(`${README}: no \`\`\`sh block between the dsh-user-path markers`);
  return match[1]!;
}

/**
 * A clean environment: no real provider key, no stray DSH, pnpm or npm setting; on PATH the global prefix's bin
 * (empty at first), Node 24 and the system folders (where npm is). The npm global prefix is inside the test folder,
 * so `npm i -g` never touches the machine's own; npm's and pnpm's caches are the lab's warm ones (the same packages
 * the registry serves), so a rerun is not a full download.
 */
function userEnvironment(home: string, npmPrefix: string, nodeBin: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(DSH_|DEEPSEEK_|OPENAI_|ANTHROPIC_|PNPM_|npm_|XDG_)/i.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    HOME: home,
    PATH: [path.join(npmPrefix, 'bin'), path.dirname(nodeBin), '/usr/local/bin', '/usr/bin', '/bin'].join(
      path.delimiter,
    ),
    npm_config_prefix: npmPrefix,
    npm_config_cache: path.join(cacheRoot, 'npm-cache'),
    npm_config_store_dir: labPaths.pnpmStore,
    DSH_TELEMETRY_DISABLED: '1',
  };
}

describe.skipIf(!status.available)(`the README's DSH rc.8 install sequence, run as written (${status.reason})`, () => {
  let root: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let tarball: string;
  let script: string;
  let installSeconds: string;
  let install: CommandResult;
  let toolMessages: ToolMessage[];
  let session: CommandResult;
  let workspace: string;

  beforeAll(async () => {
    const lab = await ensureDshInstalled();
    root = path.join(cacheRoot, 'user-path');
    fs.rmSync(root, { recursive: true, force: true });
    home = path.join(root, 'home');
    const npmPrefix = path.join(root, 'npm-global');
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(npmPrefix, { recursive: true });
    env = userEnvironment(home, npmPrefix, lab.nodeBin);

    const packDir = path.join(root, 'pack');
    fs.mkdirSync(packDir);
    await runStep(lab.pnpmBin, ['pack', '--pack-destination', packDir], {
      step: 'pnpm pack packages/dsh-tool-normalizer',
      cwd: labPaths.pluginPackage,
      timeoutMs: 120_000,
    });
    const packed = fs.readdirSync(packDir).find((name) => name.endsWith('.tgz'))!;
    // The release asset a user downloads into the folder they run the block from.
    tarball = path.join(home, packed);
    fs.copyFileSync(path.join(packDir, packed), tarball);

    script = userPathBlock(fs.readFileSync(README, 'utf8'));
    install = await runCommand('bash', ['-euxo', 'pipefail', '-c', script], {
      step: 'the README install block',
      cwd: home,
      env,
      timeoutMs: 600_000,
    });
    installSeconds = (install.wallMs / 1000).toFixed(1);

    // The dsh the block installed, on a scripted Code-Mode session with calls the plugin must heal.
    workspace = path.join(root, 'workspace');
    fs.mkdirSync(workspace);
    for (const [file, content] of Object.entries(scenarioFixtures)) {
      fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
      fs.writeFileSync(path.join(workspace, file), content.replaceAll('{{ws}}', workspace));
    }
    const steps = JSON.parse(JSON.stringify(scenarioScript(picked)).replaceAll('{{ws}}', workspace));
    const model = await startScriptedModel(steps);
    try {
      session = await runCommand('dsh', ['--profile', 'headless', 'Work through the scripted task.'], {
        step: 'dsh --profile headless (the dsh the README installed)',
        cwd: workspace,
        env: {
          ...env,
          DEEPSEEK_BASE_URL: model.baseUrl,
          DEEPSEEK_API_KEY: 'sk-dsh-lab-scripted',
          // Code Mode under the name of the release the README installs (DSH_VERSION, asserted below)
          ...codeModeSetting('code', DSH_VERSION)?.env,
        },
        timeoutMs: 180_000,
      });
    } finally {
      await model.close();
    }
    toolMessages = toolMessagesOf(model.played, model.requests);
  }, 900_000);

  it('the block needs only Node and npm: DSH and pnpm come from `npm i -g`, the plugin from the release tarball', () => {
    expect(script).toMatch(/^npm i -g @deepseek-ai\/dsh@0\.1\.0-rc\.8 pnpm@\S+/m);
    expect(script).toMatch(/^dsh plugin --profile headless add \.\/dsh-tool-normalizer-\*\.tgz/m);
    expect(script).not.toMatch(/pnpm add -g|pnpm setup|corepack/);
    expect(path.basename(tarball)).toMatch(/^dsh-tool-normalizer-\d+\.\d+\.\d+.*\.tgz$/);
  });

  it('every command of the block succeeds, the doctor included (it exits 1 on any problem)', () => {
    expect(install.exitCode, `${install.stdout}\n${install.stderr}`).toBe(0);
    expect(install.timedOut).toBe(false);
    console.log(`the README install block ran in ${installSeconds} s`);
    expect(install.stdout + install.stderr).toMatch(/the plugin loaded \(its prompt section reached the model\)/);
  });

  it('left a profile with the plugin from the tarball and the rc.8 workarounds', () => {
    const profile = path.join(home, '.dsh', 'profiles', 'headless');
    const manifest = JSON.parse(fs.readFileSync(path.join(profile, 'package.json'), 'utf8'));
    expect(manifest.dependencies['dsh-tool-normalizer']).toMatch(/\.tgz$/);
    expect(manifest.dependencies['@deepseek-ai/cordis-plugin-hmr']).toBe('1.0.17');
    expect(fs.readFileSync(path.join(profile, 'cordis.patch.yml'), 'utf8')).toMatch(/- id: hmr\n {2}disabled: false/);
  });

  it.each(picked.map((s) => [s.id, s] as const))(
    '%s: the dsh it installed runs the plugin, which heals the call',
    (_id, scenario) => {
      expect(session.exitCode, session.stderr).toBe(0);
      const message = toolMessages.find((m) => m.callId === scenario.id);
      expect(message?.isError, message?.content).toBe(false);
      expect(checkModelSees(message?.content, scenario.withPlugin, workspace)).toEqual([]);
    },
  );
});

/** The shell line between the ai-sdk README's `ai-sdk-install` markers. */
export function aiSdkInstallLine(readme: string): string {
  const match = /<!-- BEGIN ai-sdk-install[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- END ai-sdk-install -->/.exec(readme);
  if (!match) throw new Error('packages/ai-sdk/README.md: no ```sh block between the ai-sdk-install markers');
  return match[1]!;
}

describe("the ai-sdk README's install line, run as written on the four packed tarballs", () => {
  const AI_SDK_README = path.join(repoRoot, 'packages', 'ai-sdk', 'README.md');
  const PACKED = ['dsh-profile', 'syntax-healer', 'core-rules', 'ai-sdk'];
  let dir: string;
  let line: string;
  let install: CommandResult;

  beforeAll(async () => {
    dir = path.join(cacheRoot, 'ai-sdk-user-path');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "try-ai-sdk", "private": true, "type": "module" }\n');
    // The release assets a user downloads into the folder they run npm in.
    for (const name of PACKED)
      await runStep(labPaths.pnpmBin, ['pack', '--pack-destination', dir], {
        step: `pnpm pack packages/${name}`,
        cwd: path.join(repoRoot, 'packages', name),
        timeoutMs: 120_000,
      });
    line = aiSdkInstallLine(fs.readFileSync(AI_SDK_README, 'utf8'));
    install = await runCommand('bash', ['-euxo', 'pipefail', '-c', line], {
      step: 'the ai-sdk README install line',
      cwd: dir,
      env: { ...process.env, npm_config_cache: path.join(cacheRoot, 'npm-cache'), npm_config_workspaces: 'false' },
      timeoutMs: 600_000,
    });
  }, 900_000);

  it('names all four tarballs in one npm command, dependencies first', () => {
    expect(line.trim().split('\n')).toHaveLength(1);
    const order = PACKED.map((name) => line.indexOf(`./dsh-tool-normalizer-${name}-*.tgz`));
    expect(order.every((index) => index > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(fs.readdirSync(dir).filter((file) => file.endsWith('.tgz'))).toHaveLength(4);
  });

  it('installs, and the installed package imports and builds both seams from its public entry', async () => {
    expect(install.exitCode, `${install.stdout}\n${install.stderr}`).toBe(0);
    const check = await runCommand(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { healToolCalls } from '@dsh-tool-normalizer/ai-sdk';
         const heal = healToolCalls({});
         console.log(typeof heal.repairToolCall, typeof heal.experimental_refineToolInput);`,
      ],
      { step: 'import the installed ai-sdk', cwd: dir, env: process.env, timeoutMs: 60_000 },
    );
    expect(check.exitCode, check.stderr).toBe(0);
    // the repair seam is a function, the refine seam a per-tool map
    expect(check.stdout.trim()).toBe('function object');
  });

  it('the ai-sdk tarball alone fails on core-rules (why the line names four)', async () => {
    const alone = path.join(dir, 'alone');
    fs.mkdirSync(alone, { recursive: true });
    fs.writeFileSync(path.join(alone, 'package.json'), '{ "name": "alone", "private": true }\n');
    const tarball = fs.readdirSync(dir).find((file) => /^dsh-tool-normalizer-ai-sdk-.*\.tgz$/.test(file))!;
    const result = await runCommand('npm', ['install', '--no-audit', '--no-fund', path.join(dir, tarball)], {
      step: 'npm install of the ai-sdk tarball alone',
      cwd: alone,
      env: { ...process.env, npm_config_cache: path.join(cacheRoot, 'npm-cache'), npm_config_workspaces: 'false' },
      timeoutMs: 300_000,
    });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('@dsh-tool-normalizer/core-rules');
  });
});
