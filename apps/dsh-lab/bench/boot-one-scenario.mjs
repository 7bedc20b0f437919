/**
 * Benchmark: a warm boot of real DSH headless + one scripted scenario + exit, per mode, without the plugin
 * (and with it when it is built). Prints median and max wall time and max RSS over N runs.
 * Usage (after `pnpm --filter @dsh-tool-normalizer/dsh-lab build`): node apps/dsh-lab/bench/boot-one-scenario.mjs [runs=3]
 */
import {
  codeScenarios,
  nativeScenarios,
  pluginStatus,
  runSession,
  scenarioFixtures,
  scenarioScript,
} from '../dist/index.js';

const runs = Number(process.argv[2] ?? 3);
const cases = [
  ['native', nativeScenarios.find((s) => s.id === 'n_bash_no_description')],
  ['code', codeScenarios.find((s) => s.id === 'c_c_direct_read')],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kinds = pluginStatus().available ? [false, true] : [false];
// one warm-up per kind so provisioning is not measured
for (const plugin of kinds)
  await runSession({ mode: 'native', plugin, steps: [{ text: 'warm-up' }], label: 'bench-warmup' });
for (const plugin of kinds) {
  for (const [mode, scenario] of cases) {
    const walls = [];
    const rss = [];
    for (let i = 0; i < runs; i++) {
      const run = await runSession({
        mode,
        plugin,
        steps: scenarioScript([scenario]),
        workspaceFixtures: scenarioFixtures,
        label: 'bench',
      });
      if (run.exitCode !== 0) throw new Error(`run failed: ${run.stderr}`);
      walls.push(run.wallMs);
      if (run.maxRssKb) rss.push(run.maxRssKb);
    }
    console.log(
      `${mode.padEnd(6)} ${plugin ? 'with plugin   ' : 'without plugin'} ${scenario.id.padEnd(24)} wall median ${(median(walls) / 1000).toFixed(2)} s, max ${(Math.max(...walls) / 1000).toFixed(2)} s; max RSS ${rss.length ? Math.round(Math.max(...rss) / 1024) : 'n/a'} MiB (n=${runs})`,
    );
  }
}
