/**
 * One DSH_HOME, several real DSH processes at the same time (real DSH 0.1.0-rc.8 with the plugin): `dsh --profile
 * web` is up while two `dsh --profile headless` runs play different scripted sessions concurrently in the same
 * DSH_HOME. The plugin's telemetry database is shared by all three processes, so the web process's stats route
 * must count every call of both headless runs exactly (the model's calls that the host answered, read from the
 * scripted model's requests, not from the plugin) and list the events of both. Then a corrupt telemetry database
 * file in that DSH_HOME: headless DSH still boots and plays its session, the plugin moves the file aside once
 * (keeping its bytes) and counts in a new database, which the web profile's stats route then shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clearStats as clearRoute,
  nativeScenarios,
  ensureBuiltPlugin,
  runSession,
  scenarioFixtures,
  scenarioScript,
  startWebProfile,
  type SessionRun,
  type WebProfile,
} from '../src/index.js';

// Every profile: the headless runs record under `headless`, the web process reads as `web`.
const STATS = '/plugin-api/tool-normalizer/stats?profile=all';
const EVENTS = '/plugin-api/tool-normalizer/events';
const DATABASE = 'tool-normalizer.sqlite';

/** Two sessions with no call id in common, so each run's events can be told apart in the shared database. */
const RUN_A = ['n_bash_ok', 'n_bash_no_description', 'n_bash_wrong_key'];
const RUN_B = ['n_f_view_range_start_past_end', 'n_e_edit_unread', 'n_unknown_tool', 'n_m_fenced_json'];

interface Stats {
  totals: { calls: number };
  storage: { logging: boolean };
  pluginErrors: number;
}
interface EventsPage {
  events: { callId?: string }[];
  total: number;
}

const scriptOf = (ids: readonly string[]) => scenarioScript(ids.map((id) => nativeScenarios.find((s) => s.id === id)!));
/** The calls of a run that the host answered (the model saw a tool message for each): what the plugin must count. */
const answeredCalls = (run: SessionRun) => run.toolMessages.filter((message) => message.content !== undefined);

async function getJson<T>(web: WebProfile, route: string): Promise<T> {
  const response = await fetch(`${web.url}${route}`);
  expect(response.status, web.stderr()).toBe(200);
  return (await response.json()) as T;
}

async function clearStats(web: WebProfile): Promise<void> {
  expect(await clearRoute(web.url), web.stderr()).toBe(200);
}

beforeAll(async () => {
  await ensureBuiltPlugin();
});

describe('DSH web and two DSH headless runs at the same time on one DSH_HOME', () => {
  let web: WebProfile;
  let runs: SessionRun[];

  beforeAll(async () => {
    web = await startWebProfile({ kind: 'plugin' });
    await clearStats(web);
    expect((await getJson<Stats>(web, STATS)).totals.calls).toBe(0);
    runs = await Promise.all([
      runSession({
        mode: 'native',
        plugin: true,
        label: 'shared-home-a',
        steps: scriptOf(RUN_A),
        workspaceFixtures: scenarioFixtures,
      }),
      runSession({
        mode: 'native',
        plugin: true,
        label: 'shared-home-b',
        steps: scriptOf(RUN_B),
        workspaceFixtures: scenarioFixtures,
      }),
    ]);
  });

  afterAll(async () => {
    await web?.stop();
  });

  it('runs all three processes in the same DSH_HOME, the headless runs overlapping in time', () => {
    for (const run of runs) {
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.dshHome).toBe(web.dshHome);
      expect(answeredCalls(run).length).toBeGreaterThan(0);
    }
    const [a, b] = runs as [SessionRun, SessionRun];
    expect(a.startedAt < b.startedAt + b.wallMs && b.startedAt < a.startedAt + a.wallMs).toBe(true);
    expect(web.child.exitCode).toBeNull();
  });

  it('the web stats route counts every call of both headless runs exactly', async () => {
    const expected = runs.reduce((sum, run) => sum + answeredCalls(run).length, 0);
    const stats = await getJson<Stats>(web, STATS);
    expect(stats.totals.calls, JSON.stringify(runs.map((run) => answeredCalls(run).map((m) => m.callId)))).toBe(
      expected,
    );
    expect(stats.storage.logging).toBe(true);
    expect(stats.pluginErrors).toBe(0);
  });

  it('the web events route lists the stored events of both runs', async () => {
    const page = await getJson<EventsPage>(web, `${EVENTS}?limit=200&profile=all`);
    const callIds = new Set(page.events.map((event) => event.callId));
    // passthrough calls are counted but not stored as events; every run here has healed or failed calls
    for (const ids of [RUN_A, RUN_B])
      expect(
        ids.some((id) => callIds.has(id)),
        JSON.stringify([...callIds]),
      ).toBe(true);
    expect(page.total).toBe(page.events.length);
  });
});

describe('a corrupt telemetry database file in the DSH_HOME', () => {
  let web: WebProfile | undefined;
  let run: SessionRun;
  let dshHome: string;
  let movedAside: string[];
  const garbage = Buffer.from(
    'this is not a SQLite database, just bytes where the plugin keeps its telemetry\n'.repeat(64),
  );

  beforeAll(async () => {
    // the web profile is only booted to learn the DSH_HOME and to leave it with no process holding the database
    const probe = await startWebProfile({ kind: 'plugin' });
    dshHome = probe.dshHome;
    await probe.stop();
    const before = new Set(fs.readdirSync(dshHome));
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(dshHome, `${DATABASE}${suffix}`), { force: true });
    fs.writeFileSync(path.join(dshHome, DATABASE), garbage);
    run = await runSession({
      mode: 'native',
      plugin: true,
      label: 'corrupt-db',
      steps: scriptOf(RUN_A),
      workspaceFixtures: scenarioFixtures,
    });
    movedAside = fs.readdirSync(dshHome).filter((name) => name.startsWith(`${DATABASE}.corrupt-`) && !before.has(name));
    web = await startWebProfile({ kind: 'plugin' });
  });

  afterAll(async () => {
    await web?.stop();
    for (const name of movedAside ?? []) fs.rmSync(path.join(dshHome, name), { force: true });
  });

  it('headless DSH still boots and plays the whole session', () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.timedOut).toBe(false);
    expect(answeredCalls(run).length).toBe(RUN_A.length);
  });

  it('the plugin moved the corrupt file aside once, bytes kept, and started a new database', () => {
    const files = movedAside.filter((name) => !name.endsWith('-wal') && !name.endsWith('-shm'));
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(path.join(dshHome, files[0]!)).equals(garbage)).toBe(true);
    expect(fs.readFileSync(path.join(dshHome, DATABASE)).subarray(0, 16).toString('latin1')).toBe(
      'SQLite format 3\u0000',
    );
  });

  it('the new database counted the run: the web stats route shows exactly its calls', async () => {
    const stats = await getJson<Stats>(web!, STATS);
    expect(stats.totals.calls).toBe(answeredCalls(run).length);
    expect(stats.storage.logging).toBe(true);
    expect(stats.pluginErrors).toBe(0);
  });
});
