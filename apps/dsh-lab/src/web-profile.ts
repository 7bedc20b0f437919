/**
 * One way to boot the real `dsh --profile web` (rc.8) for the lab: the web tests and the demo's `--web` share it,
 * so the command line, the environment (scripted model, no real key), the URL detection and the shutdown are
 * written once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LabStepError, lastLines } from './child-process.js';
import { labPaths, type RunKind } from './lab-paths.js';
import { dshEnvironment, ensureProfile } from './provision.js';
import { startScriptedModel, type ScriptStep, type ScriptedModel } from './scripted-model.js';

export interface StartWebProfileOptions {
  /** Which DSH_HOME to boot (see `RunKind`); `plugin` has the meta-package installed. */
  kind: RunKind;
  /** What the scripted model answers; by default one closing text. */
  steps?: ScriptStep[];
  /** Bound on model requests (see `startScriptedModel`). */
  maxRequests?: number;
  /** Awaited before the model answers its first agent request (see `startScriptedModel`). */
  beforeFirstReply?: () => Promise<void>;
  /** How long to wait for the URL on stdout. */
  bootTimeoutMs?: number;
  /**
   * Listen on every interface (`0.0.0.0`) instead of loopback. rc.8's `--host 0.0.0.0` flag is refused ("not
   * supported yet for safety"), so this writes a `--patch` overlay for the `webserver` row, as a user can.
   */
  allInterfaces?: boolean;
}

export interface WebProfile {
  /** The web client's origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The DSH_HOME the host runs in (where the plugin's event log and summary live). */
  dshHome: string;
  child: ChildProcess;
  model: ScriptedModel;
  /** Everything the host wrote to stderr so far (for assertion messages). */
  stderr(): string;
  /** Resolves when the host process has exited (by itself or after `stop`). */
  closed: Promise<void>;
  /** SIGTERM, then SIGKILL after 5 s; closes the scripted model. Safe to call twice. */
  stop(): Promise<void>;
}

/** A `--patch` overlay that binds DSH's web server to every interface on an OS-assigned port. */
function writeAllInterfacesPatch(): string {
  fs.mkdirSync(labPaths.runs, { recursive: true });
  const file = path.join(labPaths.runs, 'web-all-interfaces.patch.yml');
  fs.writeFileSync(file, "- id: webserver\n  config:\n    host: '0.0.0.0'\n    port: 0\n");
  return file;
}

/** Boots `dsh --profile web --no-open` on 127.0.0.1 with an ephemeral port and resolves once it printed its URL. */
export async function startWebProfile(options: StartWebProfileOptions): Promise<WebProfile> {
  const { install, dshHome } = await ensureProfile(options.kind, 'web');
  const model = await startScriptedModel(
    options.steps ?? [{ text: 'This is the dsh-lab scripted model: it only answers with this text.' }],
    {
      maxRequests: options.maxRequests ?? 50,
      ...(options.beforeFirstReply ? { beforeFirstReply: options.beforeFirstReply } : {}),
    },
  );
  // `--patch` is the launcher's own flag, so it goes before the web app's flags.
  const bind = options.allInterfaces
    ? ['--patch', writeAllInterfacesPatch(), '--no-open']
    : ['--no-open', '--host', '127.0.0.1', '--port', '0'];
  const child = spawn(install.nodeBin, [install.dshEntry, '--profile', 'web', ...bind], {
    env: dshEnvironment(install, dshHome, {
      DEEPSEEK_BASE_URL: model.baseUrl,
      DEEPSEEK_API_KEY: 'sk-dsh-lab-scripted',
    }),
    cwd: dshHome,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        await closed;
        clearTimeout(force);
      }
      await model.close();
    })());
  const bootTimeoutMs = options.bootTimeoutMs ?? 90_000;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(
        () =>
          reject(
            new LabStepError(
              'boot dsh --profile web',
              `no URL printed within ${bootTimeoutMs / 1000} s`,
              lastLines(stderr, 40),
            ),
          ),
        bootTimeoutMs,
      );
      child.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString('utf8');
        const match = /https?:\/\/127\.0\.0\.1:\d+/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        reject(
          new LabStepError(
            'boot dsh --profile web',
            `exited with code ${code} before printing its URL`,
            lastLines(stderr, 40),
          ),
        );
      });
    });
    return { url, dshHome, child, model, stderr: () => stderr, closed, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
