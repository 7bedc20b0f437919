/**
 * What the plugin's `llm/stream` listener costs per model response, measured through the REAL waterfall of the real
 * LlmRuntime (`ctx.llm.stream`, a real `LlmAdapter` subclass replaying frozen chunks, the real tool runtime), against
 * the same context with a no-op `llm/stream` listener instead of the plugin. Compared with the host's own compile of
 * the same program (wrap, `node:module.stripTypeScriptTypes` in strip mode, strict AsyncFunction: what the run_code
 * worker does before running it).
 *
 * Run on Node >= 22.15 (the host's Node), from packages/dsh-adapter: `node bench/stream.bench.mjs`. The plugin is
 * bundled from the TypeScript sources with esbuild first (no build of the workspace needed); pass
 * `--plugin <file.mjs>` to measure another bundle (e.g. one built from an older tree). Every response carries a
 * program text the process has not compiled before (a counter in a trailing comment), as every real response does:
 * V8 caches compiles by source text, and a repeated text would hide the compile cost on both sides.
 *
 * Scenarios (each: responses interleaved one by one with the no-op context and the host compile; medians):
 * - code mode, one valid ~1.7 KB plain-JavaScript run_code program, the request's tools array reused / rebuilt per request;
 * - code mode, one valid ~1.7 KB run_code program with TypeScript annotations;
 * - native mode, one valid `read` call (the plugin must stay within about 2 us of the no-op listener).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { Context } from '@deepseek-ai/cordis';
import LlmRuntime, { LlmAdapter, deepFreeze } from '@deepseek-ai/dsh-llm';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime from '@deepseek-ai/dsh-tools';

const RESPONSES_PER_ROUND = Number(process.env.BENCH_RESPONSES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

const nodeModule = process.getBuiltinModule?.('node:module');
if (typeof nodeModule?.stripTypeScriptTypes !== 'function') {
  console.error(
    `stream.bench needs Node >= 22.15 (the host's Node); this is ${process.version}. Use: "$(bash scripts/ensure-node22.sh)" bench/stream.bench.mjs`,
  );
  process.exit(2);
}

/** The plugin, bundled from src (workspace packages resolved to their sources, like the published build does). */
async function pluginBundle(dir) {
  const argument = process.argv.indexOf('--plugin');
  if (argument !== -1) return import(pathToFileURL(process.argv[argument + 1]).href);
  const outfile = join(dir, 'plugin.mjs');
  await build({
    entryPoints: [here('../src/index.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external: ['@deepseek-ai/*'],
    logLevel: 'error',
    // Workspace packages from their sources through their export condition (listing conditions drops esbuild's `module`).
    conditions: ['@dsh-tool-normalizer/source', 'module'],
    // CommonJS dependencies that require Node built-ins need a real `require` inside the ESM bundle.
    banner: {
      js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);",
    },
  });
  return import(pathToFileURL(outfile).href);
}

/** A realistic plain-JavaScript program of about 1.7 KB (kubectl, cleanup, parallel reads, a guarded edit). */
const PLAIN_PROGRAM = `const ns = 'staging';
const manifests = await tools.glob({ pattern: 'k8s/**/*.yaml' });
if (manifests.length > 0) {
  const applied = await tools.bash({ command: \`kubectl apply -n \${ns} -f k8s/\`, description: 'Apply manifests' })
    .then(() => tools.bash({ command: \`kubectl rollout status -n \${ns} deploy/api --timeout=120s\`, description: 'Wait for rollout' }));
  console.log(applied.output);
}
const base = '/workspace/build';
for (const dir of ['cache', 'tmp']) {
  const cmd = 'rm -rf ' + base
    + '/' + dir
    + '/*';
  await tools.bash({ command: cmd, description: 'Clean ' + dir });
}
const paths = ['/workspace/src/index.ts', '/workspace/src/server.ts', '/workspace/src/db.ts'];
const contents = await Promise.all(paths.map(async (path) => {
  const file = await tools.read({ file_path: path });
  return { path, lines: file.content.split('\\n').length };
}));
const longest = contents
  .filter((entry) => entry.lines > 10)
  .sort((a, b) => b.lines - a.lines)
  .map((entry) => \`\${entry.path}: \${entry.lines}\`)
  .join('\\n');
const file = '/workspace/.env.example';
const current = await tools.read({ file_path: file });
if (!current.content.includes('LOG_LEVEL')) {
  await tools.edit({
    file_path: file,
    old_string: 'PORT=3000',
    new_string: 'PORT=3000\\nLOG_LEVEL=info',
  });
} else if (current.content.includes('LOG_LEVEL=debug')) {
  await tools.edit({ file_path: file, old_string: 'LOG_LEVEL=debug', new_string: 'LOG_LEVEL=info' });
} else {
  console.log('already set');
}
const summary = { manifests: manifests.length, longest };
console.log(JSON.stringify(summary, null, 2));
return summary;`;

/** The same size, with erasable TypeScript (an interface, annotations, an \`as\` assertion). */
const TYPESCRIPT_PROGRAM = `interface TestReport {
  file: string;
  passed: number;
  failed: number;
}
${PLAIN_PROGRAM.replace('const base = ', 'const base: string = ').replace('const summary = ', 'const summary: Record<string, unknown> = ').replace('return summary;', 'return summary as object;')}`;

const WRAP = 'async function __dsh_program__() {\n';
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
/** The host's compile of one program (dsh-code-runtime-worker-thread rc.8): wrap, strip, slice, strict AsyncFunction. */
function hostCompile(code) {
  const wrapped = nodeModule.stripTypeScriptTypes(WRAP + code + '\n}', { mode: 'strip' });
  new AsyncFunction(
    'tools',
    'ToolCallError',
    'console',
    "'use strict';\n" + wrapped.slice(WRAP.length, wrapped.length - 2),
  );
}

let unique = 0;
/** A real adapter: one text block and one tool-call block per response, frozen like the host's chunks. */
class ReplayAdapter extends LlmAdapter {
  constructor(callFor) {
    super();
    this.callFor = callFor;
  }
  async *stream() {
    const { name, args } = this.callFor(++unique);
    yield* deepFreeze([
      { type: 'block-start', index: 0, blockType: 'text' },
      { type: 'text-delta', index: 0, text: 'Running it.' },
      { type: 'block-end', index: 0, block: { type: 'text', text: 'Running it.' } },
      { type: 'block-start', index: 1, blockType: 'tool-call' },
      { type: 'tool-call-delta', index: 1, id: `call_${unique}`, name, argumentsDelta: args },
      { type: 'block-end', index: 1, block: { type: 'tool-call', id: `call_${unique}`, name, arguments: args } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  }
}

const agent = { id: 'session-bench', options: { model: 'bench' }, session: { header: { cwd: '/workspace' } } };

async function context(mode, plugin, logDir, callFor) {
  const ctx = new Context();
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime, { mode });
  await ctx.plugin(LlmRuntime);
  ctx.provide('agents', { get: (id) => (id === agent.id ? agent : undefined) });
  if (plugin) await ctx.plugin(plugin, { logDir, injectPrompt: false });
  else ctx.on('llm/stream', (_options, next) => next());
  ctx.llm.registerAdapter(['bench'], new ReplayAdapter(callFor));
  return ctx;
}

async function respond(ctx, request) {
  let last;
  for await (const chunk of ctx.llm.stream(request)) last = chunk;
  return last;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Response by response, interleaved (no-op context, plugin context, host compile; order rotating), each timed on its
 * own, so load on the shared machine hits all three alike; the figures are medians over all samples (robust to the
 * scheduler's spikes), and the overhead is the median of the per-response differences. Figures in us per response.
 */
async function compare(label, noop, withPlugin, requestFor, compileOf) {
  const time = async (ctx) => {
    const start = performance.now();
    await respond(ctx, requestFor(ctx));
    return (performance.now() - start) * 1000;
  };
  for (let i = 0; i < 200; i += 1) {
    await time(noop);
    await time(withPlugin);
    compileOf?.(++unique);
  }
  const floor = [];
  const diffs = [];
  const compiles = [];
  const samples = RESPONSES_PER_ROUND * ROUNDS;
  for (let i = 0; i < samples; i += 1) {
    if (i % RESPONSES_PER_ROUND === 0) globalThis.gc?.();
    let base;
    let plugin;
    if (i % 2 === 0) {
      base = await time(noop);
      plugin = await time(withPlugin);
    } else {
      plugin = await time(withPlugin);
      base = await time(noop);
    }
    floor.push(base);
    diffs.push(plugin - base);
    if (compileOf) {
      const start = performance.now();
      compileOf(++unique);
      compiles.push((performance.now() - start) * 1000);
    }
  }
  const sorted = [...diffs].sort((p, q) => p - q);
  const overhead = median(diffs);
  const iqr = `IQR ${sorted[Math.floor(samples / 4)].toFixed(1)}..${sorted[Math.floor((3 * samples) / 4)].toFixed(1)}`;
  const compile = compileOf ? median(compiles) : undefined;
  const versus =
    compile === undefined
      ? ''
      : ` | host compile ${compile.toFixed(1)} us -> plugin = ${(overhead / compile).toFixed(2)}x`;
  console.log(
    `${label.padEnd(64)} no-op ${median(floor).toFixed(1)} us | plugin +${overhead.toFixed(1)} us (${iqr})${versus}`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'tn-stream-bench-'));
try {
  const plugin = await pluginBundle(dir);
  console.log(`node ${process.version}, ${RESPONSES_PER_ROUND * ROUNDS} interleaved responses per scenario, medians`);
  console.log(`programs: plain ${PLAIN_PROGRAM.length} chars, TypeScript ${TYPESCRIPT_PROGRAM.length} chars`);

  for (const [label, program] of [
    ['code mode: valid plain-JS run_code', PLAIN_PROGRAM],
    ['code mode: valid TypeScript run_code', TYPESCRIPT_PROGRAM],
  ]) {
    const callFor = (n) => ({
      name: 'run_code',
      args: JSON.stringify({ code: `${program}\n// response ${n}`, description: 'Deploy and tidy up' }),
    });
    const noop = await context('code', undefined, dir, callFor);
    const withPlugin = await context('code', plugin, dir, callFor);
    const presented = (ctx) => ctx.tools.schemas(agent).filter((tool) => tool.name === 'run_code');
    if (presented(noop).length !== 1) throw new Error('run_code is not presented in code mode');
    const fixed = new Map(
      [noop, withPlugin].map((ctx) => [
        ctx,
        deepFreeze({ provider: 'bench', model: 'bench', messages: [], tools: presented(ctx), sessionId: agent.id }),
      ]),
    );
    const compileOf = (n) => hostCompile(`${program}\n// compile ${n}`);
    await compare(`${label}, same tools array`, noop, withPlugin, (ctx) => fixed.get(ctx), compileOf);
    // The agent loop assembles the system prompt (and a new tools array) for every step.
    const fresh = (ctx) =>
      deepFreeze({ provider: 'bench', model: 'bench', messages: [], tools: presented(ctx), sessionId: agent.id });
    await compare(`${label}, new tools array per request`, noop, withPlugin, fresh, compileOf);
  }

  const readCall = () => ({ name: 'read', args: JSON.stringify({ file_path: '/workspace/src/index.ts' }) });
  const noop = await context('native', undefined, dir, readCall);
  const withPlugin = await context('native', plugin, dir, readCall);
  const requests = new Map(
    [noop, withPlugin].map((ctx) => [
      ctx,
      deepFreeze({
        provider: 'bench',
        model: 'bench',
        messages: [],
        tools: ctx.tools.schemas(agent),
        sessionId: agent.id,
      }),
    ]),
  );
  await compare('native mode: valid read call', noop, withPlugin, (ctx) => requests.get(ctx));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
