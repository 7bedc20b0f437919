/**
 * `dsh-tool-normalizer doctor`, its static checks on real profile folders laid out the way `dsh plugin add` writes
 * them (package.json with dsh.profile.bundles, cordis.patch.yml, the installed plugin's package.json,
 * settings.yaml), on rc.8 and on other releases (fixtures: a `dsh` on PATH inside an `@deepseek-ai/dsh` package of
 * that version, profiles as the issue-22 facts describe them), and the subcommand dispatcher. The boots against a
 * real rc.8 (good and broken web profile, headless) are in apps/dsh-lab/tests/doctor.test.ts. Also: a boot leaves
 * no session in the user's sessions folder (a stand-in `dsh` that files one the way DSH does), and the OTLP probe
 * against real local endpoints (answering, refusing, silent, unreachable).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import {
  bootHeadlessProfile,
  checkDsh,
  checkLiveOptions,
  checkOtlpEndpoint,
  checkNode,
  checkProfile,
  checkToolsMode,
  doctor,
  findDsh,
  HMR_ROW,
  parseArgs,
  removeBootSessions,
  verifiedSummary,
} from '../src/cli/doctor.js';
import { releaseFacts } from '@dsh-tool-normalizer/dsh-profile';
import { main, SUBCOMMANDS } from '../src/cli/main.js';

function profile(files: {
  name?: string;
  deps?: Record<string, string>;
  bundles?: string[];
  patch?: string;
  homePatch?: string;
  settings?: string;
  /** peerDependencies of the installed plugin (node_modules/dsh-tool-normalizer/package.json) */
  installedPeers?: Record<string, string>;
}): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-doctor-test-'));
  const dir = path.join(home, 'profiles', files.name ?? 'headless');
  fs.mkdirSync(dir, { recursive: true });
  const manifest = {
    name: 'dsh-profile-headless',
    private: true,
    dependencies: files.deps ?? {},
    dsh: { profile: { bundles: files.bundles ?? ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-headless'] } },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  if (files.patch !== undefined) fs.writeFileSync(path.join(dir, 'cordis.patch.yml'), files.patch);
  if (files.homePatch !== undefined) fs.writeFileSync(path.join(home, 'cordis.patch.yml'), files.homePatch);
  if (files.settings !== undefined) fs.writeFileSync(path.join(home, 'settings.yaml'), files.settings);
  if (files.installedPeers) {
    const installed = path.join(dir, 'node_modules', 'dsh-tool-normalizer');
    fs.mkdirSync(installed, { recursive: true });
    fs.writeFileSync(
      path.join(installed, 'package.json'),
      JSON.stringify({ name: 'dsh-tool-normalizer', version: '0.1.0', peerDependencies: files.installedPeers }),
    );
  }
  return home;
}

/** A `dsh` command inside an `@deepseek-ai/dsh` package of the given version, as `npm i -g` lays it out. */
function fakeDsh(version: string): string {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-doctor-dsh-'));
  const pkg = path.join(prefix, 'lib', 'node_modules', '@deepseek-ai', 'dsh');
  fs.mkdirSync(path.join(pkg, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: '@deepseek-ai/dsh', version }));
  fs.writeFileSync(path.join(pkg, 'lib', 'bin.js'), '#!/usr/bin/env node\nprocess.exit(3);\n', { mode: 0o755 });
  fs.mkdirSync(path.join(prefix, 'bin'));
  fs.symlinkSync(path.join(pkg, 'lib', 'bin.js'), path.join(prefix, 'bin', 'dsh'));
  return path.join(prefix, 'bin');
}

const CURRENT_PEERS = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  .peerDependencies as Record<string, string>;

const healthy = {
  deps: { '@deepseek-ai/cordis-plugin-hmr': '1.0.17', 'dsh-tool-normalizer': '0.1.0' },
  bundles: ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-headless', 'dsh-tool-normalizer'],
  patch: HMR_ROW,
};

describe('doctor: Node', () => {
  it('Node 20 is a problem that names DSH rc.8 and its silent "failed to load"', () => {
    const finding = checkNode('20.20.2');
    expect(finding.status).toBe('problem');
    expect(finding.detail).toContain('DSH 0.1.0-rc.8 needs Node >= 22.15');
    expect(finding.detail).toContain('"failed to load" with nothing logged');
    expect(finding.fix).toBeDefined();
  });

  it.each([
    ['22.15.0', 'ok'],
    ['22.14.9', 'problem'],
    ['24.1.0', 'ok'],
    ['23.0.0', 'ok'],
  ])('Node %s: %s', (version, status) => {
    expect(checkNode(version).status).toBe(status);
  });
});

describe('doctor: a profile', () => {
  it('a healthy profile has no problem', () => {
    const findings = checkProfile(profile(healthy), 'headless');
    expect(findings.filter((f) => f.status === 'problem')).toEqual([]);
    expect(findings.map((f) => f.check)).toEqual([
      'profile headless: plugin row',
      'profile headless: DSH rc.8 workaround: hmr pin',
      'profile headless: DSH rc.8 workaround: hmr row',
    ]);
  });

  it('a fresh profile: plugin missing, hmr not pinned, no hmr row; each with its fix', () => {
    const findings = checkProfile(profile({}), 'headless');
    const problems = findings.filter((f) => f.status === 'problem');
    expect(problems.map((f) => f.check)).toEqual([
      'profile headless: plugin row',
      'profile headless: DSH rc.8 workaround: hmr pin',
      'profile headless: DSH rc.8 workaround: hmr row',
    ]);
    expect(problems[0]!.fix).toBe('`dsh plugin --profile headless add dsh-tool-normalizer`');
    expect(problems[1]!.fix).toBe('`dsh plugin --profile headless add @deepseek-ai/cordis-plugin-hmr@1.0.17`');
    expect(problems[1]!.detail).toContain('hmr.registerConfig is not a function');
    expect(problems[2]!.fix).toContain(HMR_ROW);
  });

  it('the empty patch layer `dsh plugin add` writes ([] under comments): the fix replaces the list, since a row appended after [] is invalid YAML', () => {
    const fresh = '# Your patch layer for this dsh profile, applied after every bundle layer:\n[]\n';
    const finding = checkProfile(profile({ ...healthy, patch: fresh }), 'headless').find((f) =>
      f.check.endsWith('hmr row'),
    );
    expect(finding?.status).toBe('problem');
    expect(finding?.fix).toMatch(/^Replace the empty list \(\[\]\) in .*cordis\.patch\.yml with:\n/);
    const withOtherRow = checkProfile(
      profile({ ...healthy, patch: '- id: other\n  disabled: true\n' }),
      'headless',
    ).find((f) => f.check.endsWith('hmr row'));
    expect(withOtherRow?.fix).toMatch(/^Add to the list in /);
  });

  it('a disabled hmr row is still a problem', () => {
    const findings = checkProfile(profile({ ...healthy, patch: '- id: hmr\n  disabled: true\n' }), 'headless');
    expect(findings.find((f) => f.check.endsWith('hmr row'))?.status).toBe('problem');
  });

  it('an invalid option is reported with the option, expected, got and the file that set it', () => {
    const home = profile({ ...healthy, homePatch: '- id: tool-normalizer\n  config:\n    autoWrapRunCode: "yes"\n' });
    const finding = checkProfile(home, 'headless').find((f) => f.check.endsWith('plugin options'));
    expect(finding?.status).toBe('problem');
    expect(finding?.detail).toContain('option "autoWrapRunCode" must be a boolean, got string "yes"');
    expect(finding?.detail).toContain(path.join(home, 'cordis.patch.yml'));
  });

  it('a profile patch that is not YAML is a problem, not a crash', () => {
    const findings = checkProfile(profile({ ...healthy, patch: '- id: hmr\n  disabled: [\n' }), 'headless');
    expect(findings.some((f) => f.check.endsWith('cordis.patch.yml') && f.status === 'problem')).toBe(true);
  });
});

describe('doctor: the web profile (rc.8)', () => {
  const web = {
    name: 'web',
    deps: healthy.deps,
    bundles: ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-web-app', 'dsh-tool-normalizer'],
  };

  it('a web profile (bundle dsh-web-app) without the hmr row is a problem, not a pass that crashes at boot', () => {
    const findings = checkProfile(profile({ ...web, patch: '[]\n' }), 'web');
    expect(findings.find((f) => f.check === 'profile web: DSH rc.8 workaround: hmr row')?.status).toBe('problem');
  });

  it('a correct web profile has no problem', () => {
    const findings = checkProfile(profile({ ...web, patch: HMR_ROW }), 'web');
    expect(findings.filter((f) => f.status === 'problem')).toEqual([]);
    expect(findings.map((f) => f.check)).toContain('profile web: DSH rc.8 workaround: hmr row');
  });
});

describe('doctor: other releases (fixtures)', () => {
  const later = {
    deps: { 'dsh-tool-normalizer': '0.1.0' },
    bundles: ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-headless', 'dsh-tool-normalizer'],
  };

  it('0.1.1-rc.2: a profile without the rc.8 workarounds has no problem, and they are not checked', () => {
    const findings = checkProfile(profile(later), 'headless', releaseFacts('0.1.1-rc.2'));
    expect(findings.filter((f) => f.status === 'problem')).toEqual([]);
    expect(findings.some((f) => f.check.includes('rc.8 workaround'))).toBe(false);
    expect(findings.some((f) => f.check.includes('compatibility gate'))).toBe(false);
  });

  it('0.2.0-rc.2: the compatibility gate accepts the current manifest', () => {
    const findings = checkProfile(
      profile({ ...later, installedPeers: CURRENT_PEERS }),
      'headless',
      releaseFacts('0.2.0-rc.2'),
    );
    expect(findings.filter((f) => f.status === 'problem')).toEqual([]);
    expect(findings.find((f) => f.check.endsWith('DSH compatibility gate'))).toMatchObject({ status: 'ok' });
  });

  it('0.2.1-alpha.2: the old peer range (^0.1.0-rc.8) is reported as refused by the gate, with the way out', () => {
    const home = profile({ ...later, installedPeers: { '@deepseek-ai/dsh-tools': '^0.1.0-rc.8' } });
    const finding = checkProfile(home, 'headless', releaseFacts('0.2.1-alpha.2')).find((f) =>
      f.check.endsWith('DSH compatibility gate'),
    );
    expect(finding?.status).toBe('problem');
    expect(finding?.detail).toContain('@deepseek-ai/dsh-tools "^0.1.0-rc.8" is not satisfied by 0.2.1-alpha.2');
    expect(finding?.fix).toContain('dsh plugin allow-version');
  });

  it('detects the release of the dsh on PATH (an npm global install) and says how it is proven', () => {
    const bin = fakeDsh('0.2.0-rc.2');
    expect(findDsh({ PATH: bin })).toEqual({ bin: path.join(bin, 'dsh'), version: '0.2.0-rc.2' });
    expect(checkDsh({ bin: 'dsh', version: '0.2.0-rc.2' }).detail).toContain(
      'a known release, checked by fixture facts only',
    );
    expect(checkDsh({ bin: 'dsh', version: '0.9.0' }).detail).toContain('never seen');
    expect(checkDsh({ bin: 'dsh', version: '0.1.0-rc.8' })).toMatchObject({ status: 'ok' });
    expect(checkDsh({}).fix).toContain('npm i -g @deepseek-ai/dsh@0.1.0-rc.8');
  });

  it('a whole run on a 0.2.0-rc.2 profile: no problem, and the last line says what was verified and what was not', async () => {
    const home = profile({ ...later, installedPeers: CURRENT_PEERS });
    const options = parseArgs(['--dsh-home', home, '--no-boot']);
    if (typeof options === 'string') throw new Error(options);
    const findings = await doctor(options, { PATH: fakeDsh('0.2.0-rc.2') });
    expect(findings.filter((f) => f.status === 'problem' && f.check !== 'node')).toEqual([]);
    const summary = findings.at(-1)!;
    expect(summary.check).toBe('verified');
    expect(summary.detail).toMatch(/^DSH 0\.2\.0-rc\.2 \(a known release, proven by fixture facts only\): checked /);
    expect(summary.detail).toContain('the compatibility gate');
    expect(summary.detail).toContain(
      'not checked: the rc.8 workarounds (not needed on 0.2.0-rc.2), the boot (--no-boot)',
    );
  });

  it.each([
    ['0.1.0-rc.8', 'code', 'ok'],
    ['0.1.0-rc.8', 'ptc', 'problem'],
    ['0.1.1-rc.2', 'both', 'ok'],
    ['0.2.0-rc.2', 'ptc', 'ok'],
    ['0.2.0-rc.2', 'code', 'problem'],
    ['0.2.1-alpha.2', 'both', 'problem'],
    ['0.2.1-alpha.2', 'native', 'ok'],
    ['0.2.1-alpha.2', '', 'problem'],
  ] as const)(
    'DSH %s with DSH_TOOLS_MODE=%j is %s; a problem names the name this release takes',
    (version, value, status) => {
      const finding = checkToolsMode(value, releaseFacts(version)!);
      expect(finding?.status).toBe(status);
      if (status === 'problem') expect(finding?.fix).toContain(`DSH_TOOLS_MODE=${releaseFacts(version)!.codeModeName}`);
    },
  );

  it('an unset DSH_TOOLS_MODE is no finding; a whole run reports a wrong one for the release on PATH', async () => {
    expect(checkToolsMode(undefined, releaseFacts('0.2.0-rc.2')!)).toBeUndefined();
    const home = profile({ ...later, installedPeers: CURRENT_PEERS });
    const options = parseArgs(['--dsh-home', home, '--no-boot']);
    if (typeof options === 'string') throw new Error(options);
    const findings = await doctor(options, { PATH: fakeDsh('0.2.0-rc.2'), DSH_TOOLS_MODE: 'code' });
    expect(findings.find((f) => f.check === 'DSH_TOOLS_MODE')).toMatchObject({ status: 'problem' });
  });

  it('the summary on rc.8 names the workarounds as checked and the gate as absent', () => {
    const summary = verifiedSummary(releaseFacts('0.1.0-rc.8')!, true, true, ['headless']);
    expect(summary.detail).toContain('DSH 0.1.0-rc.8 (proven live in CI)');
    expect(summary.detail).toContain('the rc.8 workarounds (hmr pin, hmr row)');
    expect(summary.detail).toContain('a boot with the plugin loaded (headless)');
    expect(summary.detail).toContain('not checked: the compatibility gate (0.1.0-rc.8 has none)');
  });
});

describe('doctor: live options in settings.yaml', () => {
  it('an invalid value is a problem naming the option, the file and what the host then does', () => {
    const home = profile({ ...healthy, settings: 'tool-normalizer:\n  errorHints: "no"\n' });
    const findings = checkLiveOptions(home, 'headless');
    expect(findings).toHaveLength(1);
    expect(findings[0]!.status).toBe('problem');
    expect(findings[0]!.detail).toContain('option "errorHints" must be a boolean');
    expect(findings[0]!.detail).toContain(path.join(home, 'settings.yaml'));
    expect(findings[0]!.detail).toContain('ignores every live override');
    // and the whole profile check carries it
    expect(checkProfile(home, 'headless').some((f) => f.check.endsWith('live options') && f.status === 'problem')).toBe(
      true,
    );
  });

  it.each([
    ['valid values', 'tool-normalizer:\n  errorHints: false\n  breakLoops: true\nother: 1\n', ['ok']],
    ['a non-live option (stored, changes nothing)', 'tool-normalizer:\n  maxStoredBytes: 10\n', ['ok', 'note']],
    ['not a mapping', 'tool-normalizer: [1, 2]\n', ['problem']],
    ['not YAML', 'tool-normalizer: [\n', ['problem']],
    ['no section of ours', 'models: {}\n', []],
  ])('%s', (_label, settings, statuses) => {
    const findings = checkLiveOptions(profile({ ...healthy, settings }), 'headless');
    expect(findings.map((f) => f.status)).toEqual(statuses);
  });
});

describe('the dsh-tool-normalizer command', () => {
  it('dispatches subcommands from one table and rejects unknown ones with exit 2', async () => {
    expect(Object.keys(SUBCOMMANDS)).toContain('doctor');
    const errors: string[] = [];
    const original = console.error;
    console.error = (text: string) => errors.push(text);
    try {
      expect(await main(['nope'])).toBe(2);
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toContain('unknown command "nope"');
  });
});

describe("doctor: a boot leaves nothing in the user's sessions folder", () => {
  /** A `dsh` that files a session the way DSH does (under a folder named after its working directory), then exits. */
  function sessionWritingDsh(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-doctor-fake-'));
    const bin = path.join(dir, 'dsh');
    fs.writeFileSync(
      bin,
      `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const slug = '--' + process.cwd().replace(/[\\/:]+/g, '-').replace(/^-+/, '') + '--';
const session = path.join(process.env.DSH_HOME, 'sessions', slug, 'a-session');
fs.mkdirSync(session, { recursive: true });
fs.writeFileSync(path.join(session, 'session.jsonl.zstd'), 'x');
// a session the user started meanwhile, in their own project
fs.mkdirSync(path.join(process.env.DSH_HOME, 'sessions', '--home-me-meanwhile--', 'b'), { recursive: true });
`,
      { mode: 0o755 },
    );
    return bin;
  }

  it('removes the session its boot filed, and only that one', async () => {
    const home = profile({ patch: HMR_ROW });
    const sessions = path.join(home, 'sessions');
    fs.mkdirSync(path.join(sessions, '--home-me-project--', 's1'), { recursive: true });
    // an older doctor's leftover is not this boot's: left alone
    fs.mkdirSync(path.join(sessions, '--tmp-tn-doctor-Old123--', 's0'), { recursive: true });
    const finding = await bootHeadlessProfile(sessionWritingDsh(), home, 'headless', 30_000);
    // the stand-in never asks the model: a problem, but the cleanup ran all the same
    expect(finding.status).toBe('problem');
    expect(fs.readdirSync(sessions).sort()).toEqual([
      '--home-me-meanwhile--',
      '--home-me-project--',
      '--tmp-tn-doctor-Old123--',
    ]);
  });

  it("removeBootSessions removes exactly the new folders that name the boot's working directory", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-doctor-home-'));
    const sessions = path.join(home, 'sessions');
    for (const name of ['--home-me-a--', '--tmp-tn-doctor-Abc123-x--'])
      fs.mkdirSync(path.join(sessions, name), { recursive: true });
    const before = new Set(fs.readdirSync(sessions));
    fs.mkdirSync(path.join(sessions, '--tmp-tn-doctor-Abc123--', 'id'), { recursive: true });
    fs.mkdirSync(path.join(sessions, '--home-me-b--'), { recursive: true });
    expect(removeBootSessions(home, '/tmp/tn-doctor-Abc123', before)).toEqual(['--tmp-tn-doctor-Abc123--']);
    expect(fs.readdirSync(sessions).sort()).toEqual(['--home-me-a--', '--home-me-b--', '--tmp-tn-doctor-Abc123-x--']);
    // no sessions folder at all: nothing to do
    expect(removeBootSessions(path.join(home, 'none'), '/tmp/tn-doctor-Abc123', new Set())).toEqual([]);
  });
});

describe('doctor: the OTLP endpoint', () => {
  async function listen(server: Server | ReturnType<typeof createNetServer>): Promise<number> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }
  const close = (server: Server | ReturnType<typeof createNetServer>) =>
    new Promise<void>((resolve) => server.close(() => resolve()));

  it('a collector that answers is ok; the push it got is an empty OTLP request with the configured headers', async () => {
    const seen: { body: string; auth: string | undefined }[] = [];
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push({ body, auth: req.headers.authorization });
        res.writeHead(req.url === '/v1/metrics' ? 200 : 404).end('{}');
      });
    });
    const port = await listen(collector);
    try {
      const headers = { authorization: 'Bearer sk-doctor-secret-123' };
      const ok = await checkOtlpEndpoint('headless', { endpoint: `http://127.0.0.1:${port}/v1/metrics`, headers });
      expect(ok).toMatchObject({ status: 'ok', check: 'profile headless: OTLP endpoint' });
      expect(seen[0]).toEqual({ body: '{"resourceMetrics":[]}', auth: 'Bearer sk-doctor-secret-123' });
      const wrongPath = await checkOtlpEndpoint('headless', {
        endpoint: `http://user:pw@127.0.0.1:${port}/metrics?token=abc`,
        headers,
      });
      expect(wrongPath.status).toBe('problem');
      expect(wrongPath.detail).toContain(`http://127.0.0.1:${port}/metrics refused an empty OTLP push with HTTP 404`);
      // credentials in the URL or the headers are never shown
      expect(JSON.stringify([ok, wrongPath])).not.toMatch(/sk-doctor-secret|pw@|token=abc/);
    } finally {
      await close(collector);
    }
  });

  it('a collector that accepts the connection and never answers is a problem, bounded by the probe timeout', async () => {
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => {
      sockets.push(socket);
      socket.resume();
    });
    const port = await listen(silent);
    try {
      const finding = await checkOtlpEndpoint(
        'headless',
        { endpoint: `http://127.0.0.1:${port}/v1/metrics`, headers: {} },
        300,
      );
      expect(finding.status).toBe('problem');
      expect(finding.detail).toContain('did not answer within 0.3 s');
      expect(finding.fix).toContain('otlpEndpoint');
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await close(silent);
    }
  });

  it('an unreachable collector is a problem naming why; a whole run reports the endpoint its patch sets', async () => {
    const spare = createNetServer();
    const port = await listen(spare);
    await close(spare); // nobody listens there now
    const endpoint = `http://127.0.0.1:${port}/v1/metrics`;
    const finding = await checkOtlpEndpoint('headless', { endpoint, headers: {} });
    expect(finding).toMatchObject({ status: 'problem' });
    expect(finding.detail).toContain('is unreachable: ECONNREFUSED');
    const home = profile({ patch: `${HMR_ROW}- id: tool-normalizer\n  config:\n    otlpEndpoint: ${endpoint}\n` });
    const options = parseArgs(['--dsh-home', home, '--no-boot']);
    if (typeof options === 'string') throw new Error(options);
    const findings = await doctor(options, { PATH: '' });
    expect(findings.find((f) => f.check === 'profile headless: OTLP endpoint')).toMatchObject({ status: 'problem' });
    // no endpoint configured: no probe, no finding
    const plain = parseArgs(['--dsh-home', profile({ patch: HMR_ROW }), '--no-boot']);
    if (typeof plain === 'string') throw new Error(plain);
    expect((await doctor(plain, { PATH: '' })).some((f) => f.check.endsWith('OTLP endpoint'))).toBe(false);
  });
});
