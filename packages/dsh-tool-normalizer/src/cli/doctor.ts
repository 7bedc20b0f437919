/**
 * `dsh-tool-normalizer doctor`: finds why the plugin does not run in a user's DSH, and says how to fix each
 * problem. DSH 0.1.0-rc.8 has boot problems of its own (Node >= 22.15, the HMR pin and the HMR row) that look
 * like a broken plugin from the outside, so those are checked first. Then it boots the profile headless once
 * against a one-shot local model on 127.0.0.1 and reports whether the plugin's prompt section reached the model.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { PROMPT_SECTION_TEXT, validateConfig } from '@dsh-tool-normalizer/dsh-adapter';

const PLUGIN = 'dsh-tool-normalizer';
const ROW_ID = 'tool-normalizer';
const DSH_TESTED = '0.1.0-rc.8';
const HMR_PIN = '1.0.17';
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

Checks Node, the DSH install and version, each profile (default: every profile in $DSH_HOME/profiles that lists
${PLUGIN}, else "headless"): the plugin row, the DSH rc.8 workarounds (hmr pinned to ${HMR_PIN}, the hmr row in the
profile's cordis.patch.yml), the plugin's options in the patch files, then boots the profile headless once against
a local one-shot model on 127.0.0.1 and reports whether the plugin loaded. Exit 1 when a problem was found.`;

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
  if (ok) return { check: 'node', status: 'ok', detail: `Node ${version} (DSH ${DSH_TESTED} needs >= 22.15)` };
  return {
    check: 'node',
    status: 'problem',
    detail: `Node ${version}: DSH ${DSH_TESTED} needs Node >= 22.15 (a DSH requirement: it imports zlib.createZstdDecompress). On older Node, DSH lists ${PLUGIN} among plugins that "failed to load" with nothing logged; the plugin itself is not the cause.`,
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

export function checkDsh(found: { bin?: string; version?: string }): Finding {
  const install = `Install it with pnpm: \`pnpm add -g @deepseek-ai/dsh@${DSH_TESTED}\` (about 20 s; \`npm install -g\` of rc.8 has been seen to hang for 15 minutes at 3 GB).`;
  if (!found.bin) return { check: 'dsh', status: 'problem', detail: 'no `dsh` command on PATH', fix: install };
  if (!found.version)
    return {
      check: 'dsh',
      status: 'note',
      detail: `${found.bin} is not part of an @deepseek-ai/dsh package this command can read; version unknown`,
    };
  if (found.version !== DSH_TESTED)
    return {
      check: 'dsh',
      status: 'note',
      detail: `DSH ${found.version} at ${found.bin}; ${PLUGIN} is tested with ${DSH_TESTED}`,
    };
  return { check: 'dsh', status: 'ok', detail: `DSH ${found.version} at ${found.bin}` };
}

interface ProfileManifest {
  dependencies?: Record<string, string>;
  dsh?: { profile?: { bundles?: string[] } };
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

/** Static checks of one profile: the plugin row, the rc.8 workarounds, the plugin's options in patch files. */
export function checkProfile(dshHome: string, profile: string): Finding[] {
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
  if (hmr === HMR_PIN)
    findings.push({
      check: check('DSH rc.8 workaround: hmr pin'),
      status: 'ok',
      detail: `@deepseek-ai/cordis-plugin-hmr ${HMR_PIN}`,
    });
  else {
    findings.push({
      check: check('DSH rc.8 workaround: hmr pin'),
      status: 'problem',
      detail: `@deepseek-ai/cordis-plugin-hmr is ${hmr ? `"${hmr}"` : 'not pinned'}: DSH rc.8's range ^1.0.16 resolves to 1.0.19, which lost registerConfig(), and every profile fails to boot with "TypeError: hmr.registerConfig is not a function" (a DSH issue, with or without this plugin)`,
      fix: `\`dsh plugin --profile ${profile} add @deepseek-ai/cordis-plugin-hmr@${HMR_PIN}\``,
    });
  }

  const patchFile = path.join(dir, 'cordis.patch.yml');
  const profilePatch = readPatch(patchFile);
  const needsRow = bundles.some((bundle) => /dsh-(headless|web)$/.test(bundle));
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
  return findings;
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

/** Boots `dsh --profile <profile>` with one prompt against the local model; reports whether the plugin loaded. */
export async function bootProfile(
  dshBin: string,
  dshHome: string,
  profile: string,
  timeoutMs: number,
): Promise<Finding> {
  const name = `profile ${profile}: boot`;
  const model = await startModel();
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-doctor-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DSH_HOME: dshHome,
    DEEPSEEK_BASE_URL: model.url,
    DEEPSEEK_API_KEY: 'doctor-local-model',
    DSH_TELEMETRY_DISABLED: '1',
  };
  delete env.DSH_TOOLS_MODE;
  let output = '';
  const started = Date.now();
  const exit = await new Promise<{ code: number | null; timedOut: boolean }>((resolve) => {
    const child = spawn(dshBin, ['--profile', profile, 'Reply with the word ok.'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const append = (chunk: Buffer) => {
      if (output.length < 256 * 1024) output += chunk.toString('utf8');
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      resolve({ code: null, timedOut: true });
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      output += String(error);
      resolve({ code: null, timedOut: false });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut: false });
    });
  });
  await model.close();
  fs.rmSync(cwd, { recursive: true, force: true });
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

export async function doctor(options: Options): Promise<Finding[]> {
  const findings: Finding[] = [checkNode()];
  const dsh = findDsh();
  findings.push(checkDsh(dsh));
  findings.push({ check: 'DSH_HOME', status: fs.existsSync(options.dshHome) ? 'ok' : 'note', detail: options.dshHome });
  for (const profile of profilesToCheck(options)) {
    const profileFindings = checkProfile(options.dshHome, profile);
    findings.push(...profileFindings);
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
    findings.push(await bootProfile(dsh.bin, options.dshHome, profile, options.bootTimeoutMs));
  }
  return findings;
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
