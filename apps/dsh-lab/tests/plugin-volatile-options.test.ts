/**
 * The published bundle's live options on a DSH 0.1.7-rc.2 host, with the real loader. No 0.1.7 install exists here
 * (the registry serves rc.8 only), so the parts that decide the path are real and only the release number is staged:
 * a driver script that sits in a package named `@deepseek-ai/dsh` at version 0.1.7-rc.2 (what the plugin reads to
 * pick its way, `host-release.ts`) boots the REAL cordis 4.0.4, cordis-plugin-loader 1.0.5 (its `_commitVolatile`
 * is the loader half of 0.1.7-rc.2's live settings: docs/host-facts.md, "Where live options live"), tool runtime,
 * system prompt and web server of the installed rc.8, and the plugin's packed entry (`dist/index.js`) as a loader
 * row. A row edit that changes only `errorHints` must reach the running plugin (its stats route says so) without a
 * restart; an ordinary option restarts it; an invalid live value is refused and the running value kept. The host's
 * settings form over these fields is the fixture test in packages/dsh-adapter/tests/live-options-transport.test.ts.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../src/child-process.js';
import { ensureBuiltPlugin, ensureDshInstalled, labPaths, type DshInstall } from '../src/index.js';

let install: DshInstall;

function hostModule(name: string): string {
  const require = createRequire(fs.realpathSync(install.dshEntry));
  const dir = path.dirname(require.resolve(`${name}/package.json`));
  return pathToFileURL(path.join(dir, 'lib', 'index.js')).href;
}

beforeAll(async () => {
  install = await ensureDshInstalled();
  await ensureBuiltPlugin();
});

describe('live options through the real loader on a 0.1.7-rc.2 host', () => {
  it('a volatile-only row edit reaches the plugin without a restart; others restart it; a bad value is refused', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-volatile-'));
    try {
      const pkg = path.join(root, 'node_modules', '@deepseek-ai', 'dsh');
      fs.mkdirSync(path.join(pkg, 'lib'), { recursive: true });
      fs.writeFileSync(
        path.join(pkg, 'package.json'),
        JSON.stringify({ name: '@deepseek-ai/dsh', version: '0.1.7-rc.2' }),
      );
      const bundle = pathToFileURL(path.join(labPaths.pluginPackage, 'dist', 'index.js')).href;
      const driver = `
        import { Context } from ${JSON.stringify(hostModule('@deepseek-ai/cordis'))};
        import Loader from ${JSON.stringify(hostModule('@deepseek-ai/cordis-plugin-loader'))};
        import ToolRuntime from ${JSON.stringify(hostModule('@deepseek-ai/dsh-tools'))};
        import SystemPrompt from ${JSON.stringify(hostModule('@deepseek-ai/dsh-system-prompt'))};
        import WebServer from ${JSON.stringify(hostModule('@deepseek-ai/dsh-host-webserver'))};
        import * as plugin from ${JSON.stringify(bundle)};
        const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
        const ctx = new Context();
        await ctx.plugin(Loader);
        await ctx.plugin(SystemPrompt);
        await ctx.plugin(ToolRuntime, {});
        await ctx.plugin(WebServer, { host: '127.0.0.1', port: 0 });
        ctx.loader.builtins['tool-normalizer'] = plugin;
        const logDir = ${JSON.stringify(path.join(root, 'logs'))};
        const id = await ctx.loader.create({ id: 'tool-normalizer', name: 'cordis:tool-normalizer', config: { logDir } });
        await settle();
        // Each activation of the plugin hands out its own route token: the same token means no restart.
        const token = async () => {
          const response = await fetch('http://127.0.0.1:' + ctx.webServer.port + '/plugin-api/tool-normalizer/token', {
            headers: { 'sec-fetch-site': 'same-origin' },
          });
          return (await response.json()).token;
        };
        const stats = async () => {
          const response = await fetch('http://127.0.0.1:' + ctx.webServer.port + '/plugin-api/tool-normalizer/stats');
          const body = await response.json();
          return Object.fromEntries(body.options.map((option) => [option.name, option.value]));
        };
        const report = { transport: plugin.Config.transport, vendor: plugin.Config['~standard'].vendor, steps: [] };
        const step = async (name) => {
          const options = await stats();
          report.steps.push({ name, activation: await token(), errorHints: options.errorHints, maxLogBytes: options.maxLogBytes });
        };
        await step('boot');
        await ctx.loader.update(id, { config: { logDir, errorHints: false } });
        await settle();
        await step('errorHints off');
        await ctx.loader.update(id, { config: { logDir, errorHints: false, maxLogBytes: 100000 } });
        await settle();
        await step('maxLogBytes changed');
        await ctx.loader.update(id, { config: { logDir, errorHints: 'no', maxLogBytes: 100000 } });
        await settle();
        await step('invalid errorHints');
        process.stdout.write(JSON.stringify(report));
        process.exit(0);
      `;
      fs.writeFileSync(path.join(pkg, 'lib', 'bin.mjs'), driver);
      const result = await runCommand(install.nodeBin, [path.join(pkg, 'lib', 'bin.mjs')], {
        step: 'volatile-options driver',
        timeoutMs: 120_000,
      });
      expect(result.exitCode, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
        transport: string;
        vendor: string;
        steps: { name: string; activation: string; errorHints: unknown; maxLogBytes: unknown }[];
      };
      expect(report.transport).toBe('volatile-config');
      expect(report.vendor).toBe('schemastery');
      const [boot, off, ordinary, invalid] = report.steps;
      expect(boot).toMatchObject({ errorHints: true });
      // Live: the plugin's value changed (the loader's \`loader/volatile-update\` goes to the owning plugin only, so the
      // stats route is the witness) and the plugin was not restarted.
      expect(off).toMatchObject({ errorHints: false, activation: boot!.activation });
      // An ordinary option is no live change: the loader restarts the plugin, which keeps the live value too.
      expect(ordinary).toMatchObject({ errorHints: false, maxLogBytes: 100000 });
      expect(ordinary!.activation).not.toBe(boot!.activation);
      // A value the schema refuses never reaches the plugin.
      expect(invalid).toMatchObject({ errorHints: false, activation: ordinary!.activation });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
