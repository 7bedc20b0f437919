/**
 * Code Mode with programs that really run: DSH's worker-thread code runtime needs Node >= 22.13
 * (`module.stripTypeScriptTypes`), so this composition tier runs in a Node 24 child (`scripts/ensure-node22.sh`)
 * on the same real packages as the other composition tests (support/code-mode-child.mjs), once without and once
 * with the plugin, which is bundled from src/ for the child (the child cannot load TypeScript).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_CONDITION } from '../../../vitest.shared.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const bundle = fileURLToPath(new URL('../dist/test-bundle/plugin.mjs', import.meta.url));
const child = fileURLToPath(new URL('./support/code-mode-child.mjs', import.meta.url));

interface Seen {
  called: string;
  isError: boolean;
  text: string;
}
type Outcome = {
  directRead: Seen;
  innerRelativeView: Seen;
  innerEditUnread: Seen;
  fileAfterEdit: string;
  fencedNoDescription: Seen;
};

function runChild(node: string, withPlugin: boolean): Outcome {
  const out = execFileSync(node, ['--no-warnings', child, bundle, withPlugin ? 'yes' : 'no'], {
    cwd: packageDir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return JSON.parse(out) as Outcome;
}

let without: Outcome;
let withPlugin: Outcome;

beforeAll(async () => {
  mkdirSync(fileURLToPath(new URL('../dist/test-bundle/', import.meta.url)), { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    outfile: bundle,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['@deepseek-ai/*'],
    logLevel: 'warning',
    // Like the published bundle: bundled CommonJS dependencies (prom-client, secretlint) call `require` for Node built-ins.
    banner: {
      js: "import { createRequire as __tnCreateRequire } from 'node:module';\nconst require = __tnCreateRequire(import.meta.url);",
    },
    // Workspace packages from their sources, like the published build (listing conditions drops esbuild's `module`).
    conditions: [SOURCE_CONDITION, 'module'],
  });
  const node = execFileSync('bash', [`${repoRoot}scripts/ensure-node22.sh`], { encoding: 'utf8' }).trim();
  without = runChild(node, false);
  withPlugin = runChild(node, true);
}, 300_000);

describe('Code Mode with the real worker-thread runtime (Node 24 child)', () => {
  it('without the plugin, each of these first attempts fails', () => {
    expect(without.directRead).toMatchObject({ called: 'read', isError: true });
    expect(without.directRead.text).toContain('only `run_code` is callable directly');
    expect(without.innerRelativeView.isError).toBe(true);
    expect(without.innerEditUnread.isError).toBe(true);
    expect(without.fileAfterEdit).toBe('alpha\nbeta\n');
    expect(without.fencedNoDescription.isError).toBe(true);
  });

  it('a direct read is bridged into run_code and returns the file', () => {
    expect(withPlugin.directRead).toMatchObject({ called: 'run_code', isError: false });
    expect(withPlugin.directRead.text).toContain('hello guide');
  });

  it('an inner relative editor path is healed inside the running program', () => {
    expect(withPlugin.innerRelativeView.isError).toBe(false);
    expect(withPlugin.innerRelativeView.text).toContain('hello guide');
  });

  it('an inner edit of an unread file is observed, retried and lands', () => {
    expect(withPlugin.innerEditUnread.isError).toBe(false);
    expect(withPlugin.fileAfterEdit).toBe('ALPHA\nbeta\n');
  });

  it('a fenced program without a description runs', () => {
    expect(withPlugin.fencedNoDescription).toMatchObject({ called: 'run_code', isError: false });
    expect(withPlugin.fencedNoDescription.text).toContain('42');
  });
});
