/**
 * The programmatic runner: boots the real DSH headless (or the scripted-driven tui profile) once (native or Code Mode, with or without the plugin)
 * in a fresh workspace against the scripted model, plays a whole script in that one boot, and returns what
 * the model saw after every call, every recorded request, DSH's own session events, exit code, wall time and
 * max RSS. Used by the real-host tests, the plugin tests (dsh-adapter) and the demo.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runCommand, LabStepError } from './child-process.js';
import { type CodeModeSetting, type CodeModeVia, codeModeSetting } from './code-mode.js';
import { labPaths } from './lab-paths.js';
import { dshEnvironment, ensureProfile } from './provision.js';
import { findSessionLogs, readSessionLog, type SessionEvent } from './session-log.js';
import {
  isErrorText,
  rawArguments,
  startScriptedModel,
  toolMessageText,
  type RecordedRequest,
  type ScriptStep,
  type ToolCallStep,
} from './scripted-model.js';

/** Native tools, or Code Mode (`code` here on every release; the host's own name for it: `codeModeSetting`). */
export type ToolsMode = 'native' | 'code';

/**
 * rc.8 ships no terminal UI, so a `tui` profile (dsh-base plus the plugins `dsh plugin --profile tui add` put in it)
 * has no app: it boots the core services and idles, the task argument unread. To play a script over exactly that
 * plugin tree, this overlay mounts the one-shot runner rows of `@deepseek-ai/dsh-headless` (what its bundle layer
 * inserts; the code runtime and `tools.mode` the same way) as a `--patch` layer.
 */
export const TUI_SCRIPTED_DRIVER_PATCH = `# dsh-lab: drive the tui profile's plugin tree with dsh-headless's one-shot runner (rc.8 ships no terminal UI)
- id: tools
  config:
    mode: !!js process.env.DSH_TOOLS_MODE
- insert:
    - id: code-runtime
      name: '@deepseek-ai/dsh-code-runtime-worker-thread'
    - id: headless-startup
      name: '@deepseek-ai/dsh-headless/startup'
    - id: headless-runner
      name: '@deepseek-ai/dsh-headless'
      inject: [headlessStartup]
      config:
        task: !!js ctx.headlessStartup.task
`;

export interface RunSessionOptions {
  /**
   * `native` leaves DSH_TOOLS_MODE unset (an empty value fails schema validation); `code` turns Code Mode on under
   * the name the installed host accepts (`code` on rc.8, `ptc` on 0.1.7 and later: dsh-profile).
   */
  mode: ToolsMode;
  /** How Code Mode is turned on: `DSH_TOOLS_MODE` (default) or a `--patch` layer for the `tools` row. */
  codeModeVia?: CodeModeVia;
  /** Boot the DSH_HOME that has the built meta-package installed (`dsh plugin add -w packages/dsh-tool-normalizer`). */
  plugin: boolean;
  /**
   * `headless` (default), or `tui`: the profile `dsh plugin --profile tui add` creates in the same DSH_HOME, booted
   * with {@link TUI_SCRIPTED_DRIVER_PATCH} so the script is played over its plugin tree.
   */
  profile?: 'headless' | 'tui';
  /**
   * How the plugin is installed when `plugin` is true: `link` (default, the package folder; rebuilds are live)
   * or `tarball` (its `pnpm pack` output, exactly what a registry user installs; repacked when the build changed).
   */
  pluginInstall?: 'link' | 'tarball';
  /** The model's script. Every string may use `{{ws}}` for the absolute workspace path. */
  steps: readonly ScriptStep[];
  /** Files created in the fresh workspace before boot: relative path -> content (`{{ws}}` allowed). */
  workspaceFixtures?: Readonly<Record<string, string>>;
  /** The user task given to `dsh --profile headless "<task>"`. */
  task?: string;
  /** A short name for the run folder (letters, digits, dashes). */
  label?: string;
  /** Kill DSH after this long (default 180 s); the run then reports `timedOut: true`. */
  timeoutMs?: number;
  /**
   * A user overlay, the way a user passes one: YAML text of a loader patch list (e.g.
   * `- id: tool-normalizer\n  config: {errorHints: false}`), written to `<runDir>/patch.yml` and given to DSH as
   * `--patch <file>`. It is applied after every other layer; a targeted row's config is replaced, not merged.
   */
  patch?: string;
}

/** What the model saw after one of its tool calls. */
export interface ToolMessage {
  callId: string;
  name: string;
  /** The raw argument string the model streamed. */
  arguments: string;
  /** The tool message text in the next request, or `undefined` if DSH never answered it. */
  content: string | undefined;
  isError: boolean;
  /** Index (in `requests`) of the first request that carried this tool message. */
  requestIndex: number | undefined;
}

export interface SessionRun {
  mode: ToolsMode;
  /** The installed DSH version that ran. */
  dshVersion: string;
  /** What the run set to turn Code Mode on (undefined for native). */
  codeMode: CodeModeSetting | undefined;
  plugin: boolean;
  exitCode: number;
  timedOut: boolean;
  /** Epoch ms when DSH was started (to pick this run's lines out of logs that accumulate). */
  startedAt: number;
  wallMs: number;
  /** Max RSS of the DSH process in KiB (from /usr/bin/time when present). */
  maxRssKb: number | undefined;
  toolMessages: ToolMessage[];
  requests: RecordedRequest[];
  sessionEvents: SessionEvent[];
  stdout: string;
  stderr: string;
  workspace: string;
  dshHome: string;
  runDir: string;
  /** DSH's own session log, decompressed into the run folder. */
  sessionLogPath: string | undefined;
  /** The plugin's event log (a `*tool-normalizer*.jsonl` under DSH_HOME), when the plugin wrote one. */
  eventLogPath: string | undefined;
  /** The plugin's SQLite store (`tool-normalizer.sqlite` under DSH_HOME), when the plugin opened one. */
  databasePath: string | undefined;
}

const KEEP_RUNS = 30;
const TIME_BIN = '/usr/bin/time';

/** Boots DSH once and plays `steps`. Throws a {@link LabStepError} only when DSH cannot be provisioned or started. */
export async function runSession(options: RunSessionOptions): Promise<SessionRun> {
  const kind = !options.plugin ? 'plain' : options.pluginInstall === 'tarball' ? 'tarball' : 'plugin';
  const profile = options.profile ?? 'headless';
  const { install, dshHome } = await ensureProfile(kind, profile);
  const runDir = createRunDir(
    `${options.label ?? 'session'}-${options.mode}-${kind}${profile === 'headless' ? '' : `-${profile}`}`,
  );
  const workspace = path.join(runDir, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  const fill = (text: string) => text.replaceAll('{{ws}}', workspace);
  for (const [file, content] of Object.entries(options.workspaceFixtures ?? {})) {
    const target = path.resolve(workspace, file);
    if (!target.startsWith(`${workspace}${path.sep}`))
      throw new LabStepError('create workspace fixtures', `fixture path ${file} leaves the workspace`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, fill(content));
  }
  const steps = options.steps.map((step) => fillStep(step, fill));
  const model = await startScriptedModel(steps);
  const started = Date.now();
  const extraEnv: NodeJS.ProcessEnv = { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'sk-dsh-lab-scripted' };
  const codeMode = codeModeSetting(options.mode, install.version, options.codeModeVia);
  Object.assign(extraEnv, codeMode?.env);
  const env = dshEnvironment(install, dshHome, extraEnv);
  const timeFile = path.join(runDir, 'time.txt');
  const patchArgs: string[] = [];
  const addPatch = (name: string, text: string) => {
    const patchFile = path.join(runDir, name);
    fs.writeFileSync(patchFile, text);
    patchArgs.push('--patch', patchFile);
  };
  if (profile === 'tui') addPatch('tui-driver.yml', TUI_SCRIPTED_DRIVER_PATCH);
  if (codeMode?.patch !== undefined) addPatch('code-mode.yml', codeMode.patch);
  if (options.patch !== undefined) addPatch('patch.yml', options.patch);
  const dshArgs = [
    install.dshEntry,
    '--profile',
    profile,
    ...patchArgs,
    options.task ?? 'Work through the scripted task.',
  ];
  const useTime = fs.existsSync(TIME_BIN);
  let result: Awaited<ReturnType<typeof runCommand>>;
  try {
    result = await runCommand(
      useTime ? TIME_BIN : install.nodeBin,
      useTime ? ['-f', '%M', '-o', timeFile, install.nodeBin, ...dshArgs] : dshArgs,
      {
        step: `boot dsh --profile ${profile} (${options.mode}, ${options.plugin ? 'with' : 'without'} plugin)`,
        cwd: workspace,
        env,
        timeoutMs: options.timeoutMs ?? 180_000,
      },
    );
  } finally {
    await model.close();
  }
  fs.writeFileSync(path.join(runDir, 'stdout.txt'), result.stdout);
  fs.writeFileSync(path.join(runDir, 'stderr.txt'), result.stderr);
  fs.writeFileSync(path.join(runDir, 'requests.jsonl'), model.requests.map((r) => JSON.stringify(r)).join('\n') + '\n');

  const sessionEvents: SessionEvent[] = [];
  let sessionLogPath: string | undefined;
  const sessionIds = new Set(model.requests.map((r) => r.sessionId).filter((id): id is string => id !== undefined));
  const logs = findSessionLogs(dshHome, started);
  const mine = logs.filter((file) => [...sessionIds].some((id) => file.includes(id)));
  for (const file of mine.length > 0 ? mine : logs) {
    const { text, events } = await readSessionLog(install.nodeBin, file);
    sessionEvents.push(...events);
    sessionLogPath = path.join(runDir, 'session.jsonl');
    fs.appendFileSync(sessionLogPath, text);
  }
  pruneSessions(dshHome);
  const pluginFiles = listPluginFiles(dshHome);
  return {
    mode: options.mode,
    dshVersion: install.version,
    codeMode,
    plugin: options.plugin,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    startedAt: started,
    wallMs: Date.now() - started,
    maxRssKb: readMaxRss(timeFile),
    toolMessages: toolMessagesOf(model.played, model.requests),
    requests: model.requests,
    sessionEvents,
    stdout: result.stdout,
    stderr: result.stderr,
    workspace,
    dshHome,
    runDir,
    sessionLogPath,
    eventLogPath: pluginFiles.find((f) => f.endsWith('.jsonl')),
    databasePath: pluginFiles.find((f) => /tool-normalizer\.sqlite$/.test(f)),
  };
}

/** What the model saw after each played tool call, read from the requests DSH sent next. */
export function toolMessagesOf(played: readonly ScriptStep[], requests: readonly RecordedRequest[]): ToolMessage[] {
  const out: ToolMessage[] = [];
  for (const step of played) {
    if (!('toolCalls' in step)) continue;
    for (const call of step.toolCalls) {
      let content: string | undefined;
      let requestIndex: number | undefined;
      for (const request of requests) {
        const message = request.body.messages?.find((m) => m.role === 'tool' && m.tool_call_id === call.id);
        if (message) {
          content = toolMessageText(message);
          requestIndex = request.index;
          break;
        }
      }
      out.push({
        callId: call.id,
        name: call.name,
        arguments: rawArguments(call),
        content,
        isError: content !== undefined && isErrorText(content),
        requestIndex,
      });
    }
  }
  return out;
}

function fillStep(step: ScriptStep, fill: (text: string) => string): ScriptStep {
  if ('text' in step) return { ...step, text: fill(step.text) };
  const filled: ToolCallStep = {
    toolCalls: step.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: fill(rawArguments(call)) })),
  };
  if (step.retryOnError) filled.retryOnError = fillStep(step.retryOnError, fill);
  return filled;
}

function createRunDir(label: string): string {
  fs.mkdirSync(labPaths.runs, { recursive: true });
  const existing = fs.readdirSync(labPaths.runs).sort();
  for (const old of existing.slice(0, Math.max(0, existing.length - KEEP_RUNS + 1)))
    fs.rmSync(path.join(labPaths.runs, old), { recursive: true, force: true });
  const stamp = new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 17);
  const dir = path.join(labPaths.runs, `${stamp}-${label.replace(/[^A-Za-z0-9-]/g, '-')}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Keeps DSH's session folders bounded: the newest {@link KEEP_RUNS} workspace folders under `sessions/`. */
function pruneSessions(dshHome: string): void {
  const root = path.join(dshHome, 'sessions');
  try {
    const dirs = fs
      .readdirSync(root)
      .map((name) => path.join(root, name))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
    for (const old of dirs.slice(KEEP_RUNS)) fs.rmSync(old, { recursive: true, force: true });
  } catch {
    // nothing to prune
  }
}

function readMaxRss(file: string): number | undefined {
  try {
    const value = Number(fs.readFileSync(file, 'utf8').trim().split('\n').pop());
    return Number.isFinite(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Files the plugin wrote directly under DSH_HOME (its store, journal and their WAL files), newest first. */
function listPluginFiles(dshHome: string): string[] {
  try {
    return fs
      .readdirSync(dshHome)
      .filter((name) => name.includes('tool-normalizer'))
      .map((name) => path.join(dshHome, name))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  } catch {
    return [];
  }
}
