/**
 * `dsh-tool-normalizer doctor`: finds why the plugin does not run in a user's DSH, and says how to fix each
 * problem. It first detects the running DSH release (`releaseFacts` of @dsh-tool-normalizer/dsh-profile): DSH 0.1.0-rc.8 has boot problems of its
 * own (the HMR pin and the HMR row) that look like a broken plugin from the outside, so those are checked there and
 * only there; from 0.1.7-rc.1 on it evaluates the installed manifest with the host's compatibility gate. It checks
 * the plugin's options in the patch files and its live options in `settings.yaml`, then boots each profile once:
 * a headless profile with one prompt against a one-shot local model on 127.0.0.1 (did the plugin's prompt section
 * reach the model?), a web profile as a server on 127.0.0.1 (does the plugin's stats route answer?), each in a
 * temporary working directory whose session it removes afterwards (the user's sessions folder keeps only theirs).
 * When the plugin pushes metrics over OTLP, it sends the collector an empty push and reports an unreachable, silent
 * or refusing endpoint. The last line says what was verified on which release and what was not.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { PROMPT_SECTION_TEXT, STATS_PATH, validateConfig } from '@dsh-tool-normalizer/dsh-adapter';
import { LIVE_OPTIONS, SETTINGS_NAMESPACE } from '@dsh-tool-normalizer/dsh-adapter/live-options';
import { DSH_LIVE, gateRefusals, releaseFacts, type ReleaseFacts } from '@dsh-tool-normalizer/dsh-profile';

const PLUGIN = 'dsh-tool-normalizer';
const ROW_ID = 'tool-normalizer';
const HMR_PIN = '1.0.17';
/** The bundles whose profiles need the rc.8 hmr row: rc.8's headless and web apps (the web app is `dsh-web-app`). */
const APP_BUNDLE = /^@deepseek-ai\/dsh-(headless|web|web-app)$/;
const WEB_BUNDLE = /^@deepseek-ai\/dsh-web(-app)?$/;
const PROMPT_MARKER = PROMPT_SECTION_TEXT.split('\n')[0]!;

export const HMR_ROW = '- id: hmr\n  disabled: false\n  config:\n    root: []\n';

export interface Finding {
  check: string;
  status: 'ok' | 'problem' | 'note';
  detail: string;
  fix?: string;
}

interface Options {
  dshHome: string;
  profiles: string[];
  boot: boolean;
  bootTimeoutMs: number;
  json: boolean;
}

const HELP = `usage: dsh-tool-normalizer doctor [--profile <name>]... [--dsh-home <dir>] [--no-boot] [--boot-timeout <s>] [--json]

Detects the DSH release on PATH and checks Node, then each profile (default: every profile in $DSH_HOME/profiles
that lists ${PLUGIN}, else "headless"): the plugin row, on DSH ${DSH_LIVE} only its boot workarounds (hmr pinned to
${HMR_PIN}, the hmr row in the profile's cordis.patch.yml), from 0.1.7-rc.1 on the host's compatibility gate, the
plugin's options in the patch files and its live options in settings.yaml. Then it boots each profile once (a
headless profile with one prompt against a local one-shot model on 127.0.0.1, a web profile as a server on
127.0.0.1, each in a temporary folder whose session it removes) and reports whether the plugin loaded. When the
plugin pushes OTLP metrics (otlpEndpoint), it sends the collector an empty push and reports an unreachable, silent
or refusing endpoint. Exit 1 when a problem was found.`;

export function parseArgs(args: string[], env: NodeJS.ProcessEnv = process.env): Options | string {
  const options: Options = {
    dshHome: env.DSH_HOME || path.join(os.homedir(), '.dsh'),
    profiles: [],
    boot: true,
    bootTimeoutMs: 60_000,
    json: false,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--help' || arg === '-h') return HELP;
    else if (arg === '--profile') options.profiles.push(value());
    else if (arg === '--dsh-home') options.dshHome = path.resolve(value());
    else if (arg === '--no-boot') options.boot = false;
    else if (arg === '--boot-timeout') options.bootTimeoutMs = Number(value()) * 1000;
    else if (arg === '--json') options.json = true;
    else throw new Error(`unknown option ${arg}\n\n${HELP}`);
  }
  if (!(options.bootTimeoutMs > 0)) throw new Error('--boot-timeout must be a positive number of seconds');
  return options;
}

/** Node: DSH rc.8 imports zlib.createZstdDecompress (Node 22.15) and module.stripTypeScriptTypes (22.13). */
export function checkNode(version = process.versions.node): Finding {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const ok = major > 22 || (major === 22 && minor >= 15);
  if (ok) return { check: 'node', status: 'ok', detail: `Node ${version} (DSH ${DSH_LIVE} needs >= 22.15)` };
  return {
    check: 'node',
    status: 'problem',
    detail: `Node ${version}: DSH ${DSH_LIVE} needs Node >= 22.15 (a DSH requirement: it imports zlib.createZstdDecompress). On older Node, DSH lists ${PLUGIN} among plugins that "failed to load" with nothing logged; the plugin itself is not the cause.`,
    fix: 'Install Node 22.15 or newer (e.g. Node 24 LTS) and make it the `node` on PATH, then rerun this command.',
  };
}

/** The `dsh` on PATH and the version of the `@deepseek-ai/dsh` package it belongs to. */
export function findDsh(env: NodeJS.ProcessEnv = process.env): { bin?: string; version?: string } {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'dsh');
    if (!fs.existsSync(candidate)) continue;
    // A package-manager shim (pnpm, npm) names the real entry in its text; a symlink resolves to it.
    const shim = fs.statSync(candidate).size < 16_384 ? fs.readFileSync(candidate, 'utf8') : '';
    const named = /(?:\$basedir\/)?([^\s"'$:]*@deepseek-ai\/dsh\/)lib\/bin\.js/.exec(shim)?.[1];
    let current = named ? path.resolve(path.dirname(candidate), named) : path.dirname(fs.realpathSync(candidate));
    for (let depth = 0; depth < 6; depth++) {
      const manifest = path.join(current, 'package.json');
      if (fs.existsSync(manifest)) {
        const parsed = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
        if (parsed.name === '@deepseek-ai/dsh') return { bin: candidate, version: parsed.version };
      }
      current = path.dirname(current);
    }
    return { bin: candidate };
  }
  return {};
}

/** The `dsh` on PATH and what is known of its release: proven live (rc.8), known by fixture, or unknown. */
export function checkDsh(found: { bin?: string; version?: string }): Finding {
  const install = `Install it with npm: \`npm i -g @deepseek-ai/dsh@${DSH_LIVE}\` (the release this plugin is proven on live).`;
  if (!found.bin) return { check: 'dsh', status: 'problem', detail: 'no `dsh` command on PATH', fix: install };
  if (!found.version)
    return {
      check: 'dsh',
      status: 'note',
      detail: `${found.bin} is not part of an @deepseek-ai/dsh package this command can read; release unknown, so every release-specific check is made as for ${DSH_LIVE}`,
    };
  const facts = releaseFacts(found.version);
  if (!facts)
    return { check: 'dsh', status: 'note', detail: `DSH at ${found.bin} reports "${found.version}", not a version` };
  if (found.version === DSH_LIVE)
    return { check: 'dsh', status: 'ok', detail: `DSH ${found.version} at ${found.bin} (proven live in CI)` };
  return {
    check: 'dsh',
    status: 'note',
    detail: facts.known
      ? `DSH ${found.version} at ${found.bin}: a known release, checked by fixture facts only (CI boots ${DSH_LIVE}); see the compatibility table in the README`
      : `DSH ${found.version} at ${found.bin}: a release ${PLUGIN} has never seen; the checks below assume the facts of the nearest known release, ${facts.basis}`,
  };
}

/**
 * The user's `DSH_TOOLS_MODE` against the running release: Code Mode is `code` on rc.8 and 0.1.1-rc.2 and `ptc` from
 * 0.1.7 on, and a value the release does not accept (or an empty one) fails the `tools` row's schema, so every tool
 * plugin waits for a service that never starts (docs/host-facts.md, "Code Mode's name"). Undefined when it is unset.
 */
export function checkToolsMode(value: string | undefined, facts: ReleaseFacts): Finding | undefined {
  if (value === undefined) return undefined;
  const accepted = facts.presentationModes.join(', ');
  const fix = `unset DSH_TOOLS_MODE for native tools, or set DSH_TOOLS_MODE=${facts.codeModeName} for Code Mode`;
  if (value === '')
    return {
      check: 'DSH_TOOLS_MODE',
      status: 'problem',
      detail: 'DSH_TOOLS_MODE is set but empty: DSH fails its schema check and no tool starts',
      fix,
    };
  if (facts.presentationModes.includes(value))
    return {
      check: 'DSH_TOOLS_MODE',
      status: 'ok',
      detail: `${value}: a mode DSH ${facts.version} accepts (${accepted})`,
    };
  return {
    check: 'DSH_TOOLS_MODE',
    status: 'problem',
    detail: `DSH ${facts.version} does not accept DSH_TOOLS_MODE=${JSON.stringify(value.slice(0, 40))} (it accepts ${accepted}): no tool starts`,
    fix,
  };
}

interface ProfileManifest {
  dependencies?: Record<string, string>;
  dsh?: { profile?: { bundles?: string[] } };
}

/** The manifest of the plugin as the profile installed it (what the compatibility gate reads). */
function installedPluginManifest(
  profileDir: string,
): { version?: string; peerDependencies?: Record<string, string> } | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(profileDir, 'node_modules', PLUGIN, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

function readManifest(profileDir: string): ProfileManifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(profileDir, 'package.json'), 'utf8')) as ProfileManifest;
  } catch {
    return undefined;
  }
}

type PatchRow = { id?: unknown; disabled?: unknown; config?: unknown; insert?: unknown };

function readPatch(file: string): { rows: PatchRow[]; error?: string } {
  if (!fs.existsSync(file)) return { rows: [] };
  try {
    const parsed = yaml.load(fs.readFileSync(file, 'utf8'));
    return { rows: Array.isArray(parsed) ? (parsed as PatchRow[]) : [] };
  } catch (error) {
    return { rows: [], error: (error as Error).message.split('\n')[0] };
  }
}

/** Profiles to check: the ones asked for, else every profile listing the plugin, else `headless`. */
export function profilesToCheck(options: Options): string[] {
  if (options.profiles.length > 0) return options.profiles;
  const root = path.join(options.dshHome, 'profiles');
  const listing = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => name !== 'node_modules') : [];
  const withPlugin = listing.filter((name) => readManifest(path.join(root, name))?.dependencies?.[PLUGIN]);
  return withPlugin.length > 0 ? withPlugin : ['headless'];
}

/** Whether a profile runs the web app (`dsh --profile web`), from its bundles. */
export function isWebProfile(dshHome: string, profile: string): boolean {
  const bundles = readManifest(path.join(dshHome, 'profiles', profile))?.dsh?.profile?.bundles ?? [];
  return bundles.some((bundle) => WEB_BUNDLE.test(bundle));
}

/**
 * Static checks of one profile on the given release (rc.8 when unknown): the plugin row, the rc.8 workarounds on
 * rc.8 only, the compatibility gate where the release has one, the plugin's options in the patch files and its live
 * options in settings.yaml.
 */
export function checkProfile(dshHome: string, profile: string, release?: ReleaseFacts): Finding[] {
  const facts = release ?? releaseFacts(DSH_LIVE)!;
  const dir = path.join(dshHome, 'profiles', profile);
  const check = (name: string) => `profile ${profile}: ${name}`;
  const manifest = readManifest(dir);
  const addPlugin = `dsh plugin --profile ${profile} add ${PLUGIN}`;
  if (!manifest)
    return [
      {
        check: check('exists'),
        status: 'problem',
        detail: `no ${path.join(dir, 'package.json')}`,
        fix: `\`${addPlugin}\` creates the profile and adds the plugin.`,
      },
    ];
  const findings: Finding[] = [];
  const deps = manifest.dependencies ?? {};
  const bundles = manifest.dsh?.profile?.bundles ?? [];
  if (deps[PLUGIN] && bundles.includes(PLUGIN))
    findings.push({
      check: check('plugin row'),
      status: 'ok',
      detail: `${PLUGIN} ${deps[PLUGIN]} is a bundle of the profile`,
    });
  else
    findings.push({
      check: check('plugin row'),
      status: 'problem',
      detail: deps[PLUGIN]
        ? `${PLUGIN} is installed but not in dsh.profile.bundles`
        : `${PLUGIN} is not installed in this profile`,
      fix: `\`${addPlugin}\``,
    });

  const hmr = deps['@deepseek-ai/cordis-plugin-hmr'];
  const workarounds = facts.needsRc8Workarounds;
  // The pin and the row are rc.8 fixes: 0.1.1-rc.2 boots and heals without them, so no other release is told to add them.
  if (workarounds && hmr === HMR_PIN)
    findings.push({
      check: check('DSH rc.8 workaround: hmr pin'),
      status: 'ok',
      detail: `@deepseek-ai/cordis-plugin-hmr ${HMR_PIN}`,
    });
  else if (workarounds) {
    findings.push({
      check: check('DSH rc.8 workaround: hmr pin'),
      status: 'problem',
      detail: `@deepseek-ai/cordis-plugin-hmr is ${hmr ? `"${hmr}"` : 'not pinned'}: DSH rc.8's range ^1.0.16 resolves to 1.0.19, which lost registerConfig(), and every profile fails to boot with "TypeError: hmr.registerConfig is not a function" (a DSH issue, with or without this plugin)`,
      fix: `\`dsh plugin --profile ${profile} add @deepseek-ai/cordis-plugin-hmr@${HMR_PIN}\``,
    });
  }

  const patchFile = path.join(dir, 'cordis.patch.yml');
  const profilePatch = readPatch(patchFile);
  const needsRow = workarounds && bundles.some((bundle) => APP_BUNDLE.test(bundle));
  if (profilePatch.error)
    findings.push({
      check: check('cordis.patch.yml'),
      status: 'problem',
      detail: `${patchFile} is not valid YAML: ${profilePatch.error}`,
      fix: 'Fix the YAML (DSH refuses to boot with it).',
    });
  if (needsRow) {
    const row = profilePatch.rows.find((r) => r && r.id === 'hmr');
    if (row && row.disabled === false)
      findings.push({
        check: check('DSH rc.8 workaround: hmr row'),
        status: 'ok',
        detail: `${patchFile} mounts the hmr row`,
      });
    else {
      findings.push({
        check: check('DSH rc.8 workaround: hmr row'),
        status: 'problem',
        detail: `${patchFile} does not mount the hmr row: DSH rc.8 then fails to boot with "user patch-layer watching requires the Cordis HMR service" (a DSH issue, with or without this plugin)`,
        // A fresh profile's patch layer is comments plus an empty flow list (`[]`): a row appended after it is
        // invalid YAML, so the fix says to replace the list rather than add to the file.
        fix:
          profilePatch.rows.length === 0 && !profilePatch.error && fs.existsSync(patchFile)
            ? `Replace the empty list ([]) in ${patchFile} with:\n${HMR_ROW}`
            : `Add to the list in ${patchFile}:\n${HMR_ROW}`,
      });
    }
  }
  if (facts.hasCompatibilityGate) {
    const installed = installedPluginManifest(dir);
    if (installed) {
      const refused = gateRefusals(installed.peerDependencies, facts.version);
      const names = Object.keys(refused);
      findings.push(
        names.length === 0
          ? {
              check: check('DSH compatibility gate'),
              status: 'ok',
              detail: `DSH ${facts.version} accepts the installed ${PLUGIN} ${installed.version ?? ''} (its @deepseek-ai/dsh* peers are satisfied)`,
            }
          : {
              check: check('DSH compatibility gate'),
              status: 'problem',
              detail: `DSH ${facts.version} refuses the installed ${PLUGIN} ${installed.version ?? ''} before it loads: ${names.map((name) => `${name} "${refused[name]}"`).join(', ')} is not satisfied by ${facts.version}`,
              fix: `Install a newer ${PLUGIN} (see the README's compatibility table), or accept the risk for this exact pair with \`dsh plugin allow-version\`.`,
            },
      );
    }
  }
  for (const file of [patchFile, path.join(dshHome, 'cordis.patch.yml')]) {
    for (const row of readPatch(file).rows) {
      if (!row || row.id !== ROW_ID || row.config === undefined) continue;
      const result = validateConfig(row.config);
      if (result.issues) {
        findings.push({
          check: check('plugin options'),
          status: 'problem',
          detail: `${result.issues.map((issue) => issue.message).join('; ')} (set in ${file}, row id: ${ROW_ID}). With this, DSH stops with exit 1.`,
          fix: `Correct or remove the option in ${file}.`,
        });
      } else
        findings.push({
          check: check('plugin options'),
          status: 'ok',
          detail: `the ${ROW_ID} row in ${file} is valid`,
        });
    }
  }
  findings.push(...checkLiveOptions(dshHome, profile));
  return findings;
}

/** How long the OTLP probe waits for the collector's answer. */
export const OTLP_PROBE_TIMEOUT_MS = 3000;

/**
 * The OTLP push the profile's patch files configure (`otlpEndpoint`, `otlpHeaders`): the profile's own layer first,
 * then `$DSH_HOME/cordis.patch.yml`. Undefined when no valid row sets an endpoint.
 */
export function otlpPushOf(
  dshHome: string,
  profile: string,
): { endpoint: string; headers: Record<string, string> } | undefined {
  const files = [path.join(dshHome, 'profiles', profile, 'cordis.patch.yml'), path.join(dshHome, 'cordis.patch.yml')];
  for (const file of files) {
    for (const row of readPatch(file).rows) {
      if (!row || row.id !== ROW_ID || row.config === undefined) continue;
      const result = validateConfig(row.config);
      if (result.issues) return undefined; // reported as a problem of its own
      const { otlpEndpoint, otlpHeaders } = result.value;
      return otlpEndpoint ? { endpoint: otlpEndpoint, headers: { ...otlpHeaders } } : undefined;
    }
  }
  return undefined;
}

/** The endpoint as it may be shown: no user info, query or fragment (they can hold credentials). */
function shownEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(an endpoint that is not a URL)';
  }
}

/**
 * Sends the collector an empty OTLP/HTTP metrics push (`{"resourceMetrics":[]}`, which changes nothing there) with
 * the configured headers, and says whether it answered: a collector that is unreachable, that accepts the connection
 * and never answers (every push then waits its timeout, and each DSH exit up to 2 s for the final one), or that
 * refuses the push (a wrong path, a missing header) is a problem with its fix. Header values are never shown.
 */
export async function checkOtlpEndpoint(
  profile: string,
  push: { endpoint: string; headers: Record<string, string> },
  timeoutMs = OTLP_PROBE_TIMEOUT_MS,
): Promise<Finding> {
  const check = `profile ${profile}: OTLP endpoint`;
  const shown = shownEndpoint(push.endpoint);
  const fix = `Start the collector, or correct otlpEndpoint (an OTLP/HTTP metrics URL such as http://127.0.0.1:4318/v1/metrics) and otlpHeaders in the profile's cordis.patch.yml, or remove otlpEndpoint to stop pushing.`;
  try {
    // As Node's http client (the exporter's) does, user info in the URL is sent as Basic credentials.
    const url = new URL(push.endpoint);
    const headers: Record<string, string> = { ...push.headers, 'content-type': 'application/json' };
    if (url.username || url.password) {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      if (!Object.keys(headers).some((key) => key.toLowerCase() === 'authorization'))
        headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: '{"resourceMetrics":[]}',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    if (response.ok)
      return { check, status: 'ok', detail: `${shown} answered an empty OTLP push with HTTP ${response.status}` };
    return {
      check,
      status: 'problem',
      detail: `${shown} refused an empty OTLP push with HTTP ${response.status}: the plugin's pushes fail the same way (counted in the stats route's otlp field)`,
      fix,
    };
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      return {
        check,
        status: 'problem',
        detail: `${shown} did not answer within ${timeoutMs / 1000} s (a collector that accepts the connection and never answers, or a host that drops it): every push waits for its timeout, and each DSH exit up to 2 s for the final push`,
        fix,
      };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      check,
      status: 'problem',
      detail: `${shown} is unreachable: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      fix,
    };
  }
}

/**
 * The plugin's live options in DSH's settings document (`$DSH_HOME/settings.yaml`, rc.8's dsh-settings-file; a
 * profile folder's own settings.yaml too, if one exists). A value of the wrong type makes the host refuse the
 * whole section: the plugin then runs on its row's config and every live override is ignored. A key that is not a
 * live option is stored but changes nothing.
 */
export function checkLiveOptions(dshHome: string, profile: string): Finding[] {
  const findings: Finding[] = [];
  const name = `profile ${profile}: live options`;
  for (const file of [path.join(dshHome, 'settings.yaml'), path.join(dshHome, 'profiles', profile, 'settings.yaml')]) {
    if (!fs.existsSync(file)) continue;
    let parsed: unknown;
    try {
      parsed = yaml.load(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      findings.push({
        check: name,
        status: 'problem',
        detail: `${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`,
        fix: 'Fix the YAML (DSH cannot read any setting from it).',
      });
      continue;
    }
    const section =
      parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[SETTINGS_NAMESPACE] : undefined;
    if (section === undefined || section === null) continue;
    if (typeof section !== 'object' || Array.isArray(section)) {
      findings.push({
        check: name,
        status: 'problem',
        detail: `the ${SETTINGS_NAMESPACE} section of ${file} is not a mapping; DSH refuses it and every live option keeps the row's value`,
        fix: `Make it a mapping of option: true/false, or remove it (Plugins > Plugin configuration writes it for you).`,
      });
      continue;
    }
    const live = new Set<string>(LIVE_OPTIONS);
    const entries = Object.entries(section as Record<string, unknown>);
    const result = validateConfig(Object.fromEntries(entries.filter(([key]) => live.has(key))));
    const inert = entries.map(([key]) => key).filter((key) => !live.has(key));
    if (result.issues)
      findings.push({
        check: name,
        status: 'problem',
        detail: `${result.issues.map((issue) => liveIssue(issue.message)).join('; ')} (in ${file}, section ${SETTINGS_NAMESPACE}). DSH refuses the whole section: the plugin runs on its row's config and ignores every live override there.`,
        fix: `Correct or remove the value in ${file}, or reset the option in Plugins > Plugin configuration.`,
      });
    else
      findings.push({
        check: name,
        status: 'ok',
        detail: `the ${SETTINGS_NAMESPACE} section of ${file} is valid (${entries.length - inert.length} live option(s) set)`,
      });
    if (inert.length > 0)
      findings.push({
        check: name,
        status: 'note',
        detail: `${inert.join(', ')} in ${file} ${inert.length === 1 ? 'is' : 'are'} not live option(s) and change nothing there (live: ${LIVE_OPTIONS.join(', ')})`,
        fix: `Set other options in the ${ROW_ID} row of a cordis.patch.yml.`,
      });
  }
  return findings;
}

/** A config issue without the row-specific parts (its `tool-normalizer: ` prefix and where a row's config is set). */
function liveIssue(message: string): string {
  return message.replace(/^tool-normalizer: /, '').replace(/ \(set in the config of [\s\S]*$/, '');
}

/** A one-shot OpenAI-style model on 127.0.0.1: records each request, answers every one with the text "ok". */
async function startModel(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      if (body.length < 8 * 1024 * 1024) body += chunk.toString('utf8');
    });
    req.on('end', () => {
      requests.push(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }] })}\n\n`,
      );
      res.write(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The environment a doctor boot runs DSH in: the user's, with the local model and no stray mode setting. */
function bootEnvironment(dshHome: string, modelUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DSH_HOME: dshHome,
    DEEPSEEK_BASE_URL: modelUrl,
    DEEPSEEK_API_KEY: 'doctor-local-model',
    DSH_TELEMETRY_DISABLED: '1',
  };
  delete env.DSH_TOOLS_MODE;
  return env;
}

/**
 * Runs `dsh <args>` until it exits, `done(stdout)` says enough was seen (then `whileUp(stdout)` runs against the
 * live process), or `timeoutMs` passes; a child still running at the end gets SIGTERM (SIGKILL 5 s later). Output
 * is kept up to 256 KiB.
 */
async function runDshUntil(
  dshBin: string,
  args: string[],
  options: {
    env: NodeJS.ProcessEnv;
    cwd: string;
    timeoutMs: number;
    done?: (stdout: string) => boolean;
    whileUp?: (stdout: string) => Promise<void>;
  },
): Promise<{ code: number | null; timedOut: boolean; reached: boolean; output: string; stdout: string }> {
  let output = '';
  let stdout = '';
  const child = spawn(dshBin, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (error) => {
      output += String(error);
      resolve(null);
    });
    child.on('exit', (code) => resolve(code));
  });
  const result = await new Promise<{ code: number | null; timedOut: boolean; reached: boolean }>((resolve) => {
    const timer = setTimeout(() => resolve({ code: null, timedOut: true, reached: false }), options.timeoutMs);
    const append = (chunk: Buffer, isStdout: boolean) => {
      const text = chunk.toString('utf8');
      if (output.length < 256 * 1024) output += text;
      if (isStdout && stdout.length < 256 * 1024) stdout += text;
      if (isStdout && options.done?.(stdout)) {
        clearTimeout(timer);
        resolve({ code: null, timedOut: false, reached: true });
      }
    };
    child.stdout.on('data', (chunk: Buffer) => append(chunk, true));
    child.stderr.on('data', (chunk: Buffer) => append(chunk, false));
    void exited.then((code) => {
      clearTimeout(timer);
      resolve({ code, timedOut: false, reached: false });
    });
  });
  if (result.reached) await options.whileUp?.(stdout);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(force);
  }
  return { ...result, output, stdout };
}

/** The user's sessions folder (DSH rc.8's default; docs/host-facts.md, "Logs and services"). */
function sessionsDir(dshHome: string): string {
  return path.join(dshHome, 'sessions');
}

function entriesOf(dir: string): Set<string> {
  try {
    return new Set(fs.readdirSync(dir));
  } catch {
    return new Set();
  }
}

/**
 * Removes what a doctor boot left in the user's sessions folder, so `analyze` never counts it as the user's: DSH
 * files a session under a folder named after its working directory, and a boot runs in a fresh temporary one
 * (`tn-doctor-XXXXXX`, kept verbatim in that name). Exactly the folders that are new since `before` and carry that
 * name are removed (a link is removed, never followed); the user's sessions, also ones started meanwhile, stay.
 * Returns the names removed.
 */
export function removeBootSessions(dshHome: string, cwd: string, before: ReadonlySet<string>): string[] {
  const marker = path.basename(cwd);
  const dir = sessionsDir(dshHome);
  const removed: string[] = [];
  for (const name of entriesOf(dir)) {
    if (before.has(name) || !name.includes(marker)) continue;
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** Runs one boot in a fresh temporary working directory, then removes the directory and the sessions it left. */
async function inTemporaryCwd<T>(dshHome: string, boot: (cwd: string) => Promise<T>): Promise<T> {
  const before = entriesOf(sessionsDir(dshHome));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-doctor-'));
  try {
    return await boot(cwd);
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
    removeBootSessions(dshHome, cwd, before);
  }
}

/** Boots a profile the way its app runs: a web profile as a server, any other with one prompt. */
export function bootProfile(dshBin: string, dshHome: string, profile: string, timeoutMs: number): Promise<Finding> {
  return isWebProfile(dshHome, profile)
    ? bootWebProfile(dshBin, dshHome, profile, timeoutMs)
    : bootHeadlessProfile(dshBin, dshHome, profile, timeoutMs);
}

/**
 * Boots `dsh --profile <p> --no-open --host 127.0.0.1 --port 0` (the web app takes no prompt), waits for the URL it
 * prints, and asks the plugin's stats route there: an answer means the plugin loaded with the web server. Then
 * stops the server.
 */
export async function bootWebProfile(
  dshBin: string,
  dshHome: string,
  profile: string,
  timeoutMs: number,
): Promise<Finding> {
  return inTemporaryCwd(dshHome, (cwd) => bootWebProfileIn(dshBin, dshHome, profile, timeoutMs, cwd));
}

async function bootWebProfileIn(
  dshBin: string,
  dshHome: string,
  profile: string,
  timeoutMs: number,
  cwd: string,
): Promise<Finding> {
  const name = `profile ${profile}: boot (web)`;
  const model = await startModel();
  const started = Date.now();
  const urlIn = (text: string) => /https?:\/\/127\.0\.0\.1:\d+/.exec(text)?.[0];
  let route: { status: number; json: boolean } | { error: string } | undefined;
  const askStats = async (url: string) => {
    try {
      const response = await fetch(`${url}${STATS_PATH}`, { signal: AbortSignal.timeout(15_000) });
      const body = await response.text();
      let json = false;
      try {
        JSON.parse(body);
        json = true;
      } catch {}
      route = { status: response.status, json };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      route = { error: [(error as Error).message, cause?.code ?? cause?.message].filter(Boolean).join(': ') };
    }
  };
  const run = await runDshUntil(dshBin, ['--profile', profile, '--no-open', '--host', '127.0.0.1', '--port', '0'], {
    env: bootEnvironment(dshHome, model.url),
    cwd,
    timeoutMs,
    done: (stdout) => urlIn(stdout) !== undefined,
    whileUp: (stdout) => askStats(urlIn(stdout)!),
  });
  const url = urlIn(run.stdout);
  await model.close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const lastLines = run.output.trim().split('\n').slice(-8).join('\n');
  if (route && 'status' in route && route.status === 200 && route.json)
    return {
      check: name,
      status: 'ok',
      detail: `DSH served its web app at ${url} in ${seconds} s and the plugin answered on ${STATS_PATH} (then the server was stopped)`,
    };
  if (route)
    return {
      check: name,
      status: 'problem',
      detail: `DSH served its web app at ${url}, but the plugin's ${STATS_PATH} ${'error' in route ? `failed: ${route.error}` : `answered ${route.status}${route.json ? '' : ' without JSON'}`}: the plugin did not load with the web server\n${lastLines}`,
      fix: `Check that the ${ROW_ID} row is not disabled, then run \`dsh --profile ${profile}\` yourself and look for ${PLUGIN} in its output.`,
    };
  return {
    check: name,
    status: 'problem',
    detail: run.timedOut
      ? `DSH printed no URL within ${timeoutMs / 1000} s:\n${lastLines}`
      : `DSH exited with code ${run.code} before printing its URL:\n${lastLines}`,
    fix: "Fix the problems listed above; the last lines are DSH's own output.",
  };
}

/** Boots `dsh --profile <profile>` with one prompt against the local model; reports whether the plugin loaded. */
export async function bootHeadlessProfile(
  dshBin: string,
  dshHome: string,
  profile: string,
  timeoutMs: number,
): Promise<Finding> {
  return inTemporaryCwd(dshHome, (cwd) => bootHeadlessProfileIn(dshBin, dshHome, profile, timeoutMs, cwd));
}

async function bootHeadlessProfileIn(
  dshBin: string,
  dshHome: string,
  profile: string,
  timeoutMs: number,
  cwd: string,
): Promise<Finding> {
  const name = `profile ${profile}: boot`;
  const model = await startModel();
  const started = Date.now();
  const run = await runDshUntil(dshBin, ['--profile', profile, 'Reply with the word ok.'], {
    env: bootEnvironment(dshHome, model.url),
    cwd,
    timeoutMs,
  });
  const { output } = run;
  const exit = { code: run.code, timedOut: run.timedOut };
  await model.close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const sawPrompt = model.requests.some((body) => body.includes(PROMPT_MARKER.replace(/"/g, '\\"')));
  const lastLines = output.trim().split('\n').slice(-8).join('\n');
  if (sawPrompt)
    return {
      check: name,
      status: 'ok',
      detail: `DSH booted in ${seconds} s and the plugin loaded (its prompt section reached the model)`,
    };
  const failedToLoad = /failed to load/i.test(output) && output.includes(PLUGIN);
  const optionError = /tool-normalizer: (option|unknown option|config)/.exec(output);
  let detail: string;
  let fix: string;
  if (optionError) {
    detail = `the plugin rejected its options: ${output.slice(optionError.index).split('\n')[0]}`;
    fix = 'Correct the option in the cordis.patch.yml named above (see "plugin options").';
  } else if (failedToLoad) {
    detail = `DSH lists ${PLUGIN} among plugins that failed to load:\n${lastLines}`;
    fix =
      'Fix the problems listed above first (on Node < 22.15 DSH reports every plugin this way with nothing logged).';
  } else if (exit.timedOut) {
    detail = `DSH did not finish within ${timeoutMs / 1000} s${model.requests.length === 0 ? ' and never asked the model' : ''}:\n${lastLines}`;
    fix =
      'Rerun with a larger --boot-timeout; if it still hangs, run the printed dsh command yourself to see where it stops.';
  } else if (model.requests.length === 0) {
    detail = `DSH exited with code ${exit.code} before asking the model:\n${lastLines}`;
    fix = "Fix the problems listed above; the last lines are DSH's own output.";
  } else {
    detail =
      "DSH booted and asked the model, but the plugin's prompt section was not in the request (the plugin did not load, or injectPrompt is false)";
    fix = `Check that the ${ROW_ID} row is not disabled and that injectPrompt is not false in your cordis.patch.yml.`;
  }
  return { check: name, status: 'problem', detail, fix };
}

export async function doctor(options: Options, env: NodeJS.ProcessEnv = process.env): Promise<Finding[]> {
  const findings: Finding[] = [checkNode()];
  const dsh = findDsh(env);
  findings.push(checkDsh(dsh));
  const facts = (dsh.version && releaseFacts(dsh.version)) || undefined;
  const toolsMode = checkToolsMode(env.DSH_TOOLS_MODE, facts ?? releaseFacts(DSH_LIVE)!);
  if (toolsMode) findings.push(toolsMode);
  findings.push({ check: 'DSH_HOME', status: fs.existsSync(options.dshHome) ? 'ok' : 'note', detail: options.dshHome });
  const booted: string[] = [];
  for (const profile of profilesToCheck(options)) {
    const profileFindings = checkProfile(options.dshHome, profile, facts);
    findings.push(...profileFindings);
    const push = otlpPushOf(options.dshHome, profile);
    if (push) findings.push(await checkOtlpEndpoint(profile, push));
    const blocked =
      findings.some((f) => f.status === 'problem' && (f.check === 'node' || f.check === 'dsh')) ||
      profileFindings.some((f) => f.status === 'problem');
    if (!options.boot) continue;
    if (blocked || !dsh.bin) {
      findings.push({
        check: `profile ${profile}: boot`,
        status: 'note',
        detail: 'skipped: fix the problems above first (DSH would not boot, or not with the plugin)',
      });
      continue;
    }
    const boot = await bootProfile(dsh.bin, options.dshHome, profile, options.bootTimeoutMs);
    findings.push(boot);
    if (boot.status === 'ok') booted.push(profile);
  }
  findings.push(verifiedSummary(facts ?? releaseFacts(DSH_LIVE)!, Boolean(facts), options.boot, booted));
  return findings;
}

/** The closing note: on which release the checks ran, what they covered, what they did not. */
export function verifiedSummary(facts: ReleaseFacts, detected: boolean, boot: boolean, booted: string[]): Finding {
  const release = detected ? `DSH ${facts.version}` : `an undetected DSH release (checked as ${DSH_LIVE})`;
  const checked = ['Node', 'the plugin row', 'options in cordis.patch.yml', 'live options in settings.yaml'];
  const skipped: string[] = [];
  if (facts.needsRc8Workarounds) checked.push('the rc.8 workarounds (hmr pin, hmr row)');
  else skipped.push(`the rc.8 workarounds (not needed on ${facts.version})`);
  if (facts.hasCompatibilityGate) checked.push('the compatibility gate');
  else skipped.push(`the compatibility gate (${facts.version} has none)`);
  if (!boot) skipped.push('the boot (--no-boot)');
  else if (booted.length > 0) checked.push(`a boot with the plugin loaded (${booted.join(', ')})`);
  const proof =
    facts.version === DSH_LIVE
      ? 'proven live in CI'
      : facts.known
        ? 'a known release, proven by fixture facts only'
        : 'a release this plugin has never seen';
  return {
    check: 'verified',
    status: 'note',
    detail: `${release} (${proof}): checked ${checked.join(', ')}${skipped.length > 0 ? `; not checked: ${skipped.join(', ')}` : ''}`,
  };
}

export function formatFindings(findings: Finding[]): string {
  const mark = { ok: 'ok     ', problem: 'PROBLEM', note: 'note   ' } as const;
  const lines: string[] = [];
  for (const finding of findings) {
    lines.push(`${mark[finding.status]} ${finding.check}: ${finding.detail.split('\n').join('\n          ')}`);
    if (finding.fix) lines.push(`        fix: ${finding.fix.split('\n').join('\n             ')}`);
  }
  const problems = findings.filter((f) => f.status === 'problem').length;
  lines.push(problems === 0 ? 'No problems found.' : `${problems} problem(s) found.`);
  return lines.join('\n');
}

export async function run(args: string[]): Promise<number> {
  let options: Options | string;
  try {
    options = parseArgs(args);
  } catch (error) {
    console.error(`dsh-tool-normalizer doctor: ${(error as Error).message}`);
    return 2;
  }
  if (typeof options === 'string') {
    console.log(options);
    return 0;
  }
  const findings = await doctor(options);
  console.log(options.json ? JSON.stringify(findings, null, 2) : formatFindings(findings));
  return findings.some((f) => f.status === 'problem') ? 1 : 0;
}
