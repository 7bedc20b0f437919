/**
 * The published package works: `packages/dsh-tool-normalizer` is packed (`pnpm pack`, so only its `files`
 * ship), installed from the tarball with `dsh plugin add` into its own DSH_HOME, and one real headless Code-Mode
 * boot shows healable calls healed. Skipped, with the reason, while the meta-package is not built.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkModelSees,
  codeScenarios,
  labPaths,
  pluginStatus,
  runSession,
  scenarioFixtures,
  scenarioScript,
  type SessionRun,
} from '../src/index.js';

const status = pluginStatus();
const picked = codeScenarios.filter((s) => ['c_c_direct_read', 'c_b_no_description', 'c_ts_syntax_ok'].includes(s.id));

describe.skipIf(!status.available)(`the packed meta-package installed from its tarball (${status.reason})`, () => {
  let run: SessionRun;
  beforeAll(async () => {
    run = await runSession({
      mode: 'code',
      plugin: true,
      pluginInstall: 'tarball',
      label: 'tarball',
      steps: scenarioScript(picked),
      workspaceFixtures: scenarioFixtures,
    });
  });

  it('is installed from a packed tarball, not linked to the workspace folder', () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(labPaths.home('tarball'), 'profiles', 'headless', 'package.json'), 'utf8'),
    );
    expect(manifest.dependencies[status.name!]).toMatch(
      new RegExp(`^file:${labPaths.pack.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/.+\\.tgz$`),
    );
    expect(manifest.dsh.profile.bundles).toContain(status.name);
  });

  it.each(picked.map((s) => [s.id, s] as const))('%s: the model sees the with-plugin expectation', (_id, scenario) => {
    expect(run.exitCode, run.stderr).toBe(0);
    const message = run.toolMessages.find((m) => m.callId === scenario.id);
    expect(checkModelSees(message?.content, scenario.withPlugin, run.workspace)).toEqual([]);
  });
});
