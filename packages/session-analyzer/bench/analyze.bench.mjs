/**
 * Benchmark of the built analyzer on generated session logs of realistic size: by default 1,000 sessions of about
 * 1 MB of JSONL each (1 GB of log text), stored the way DSH stores them (zstd, one frame per write batch, in
 * `sessions/<cwd-slug>/<session-id>/session.jsonl.zstd`). Each session has a system prompt, the tool list, model
 * turns with usage, tool calls with a few KB of output, and about 8% failed calls cycling through the failure
 * classes DSH reports. Prints wall time, throughput and peak RSS (sampled, and the kernel's high-water mark).
 *
 *   node bench/analyze.bench.mjs [sessions=1000] [kbPerSession=1000]     (Node >= 22.15, after the build)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { analyzeSessions } from '../dist/node.js';

// Child mode: analyse a folder in a fresh process so its memory figures cover the analysis alone.
if (process.argv[2] === '--analyze') {
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sample = () => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  };
  const sampler = setInterval(sample, 20);
  const start = performance.now();
  const { report } = await analyzeSessions({ sessionsDir: process.argv[3] });
  const wallMs = performance.now() - start;
  clearInterval(sampler);
  sample();
  const { census, prediction, cost, filesAnalysed, skipped } = report;
  const summary = {
    filesAnalysed,
    skipped: skipped.length,
    toolCalls: census.toolCalls,
    errors: census.errors,
    outcomes: prediction.outcomes,
    costTokens: cost.measured.total,
  };
  process.stdout.write(
    JSON.stringify({ wallMs, peakRss, peakHeap, maxRss: process.resourceUsage().maxRSS * 1024, summary }),
  );
} else {
  const SESSIONS = Number(process.argv[2] ?? 1000);
  const KB_PER_SESSION = Number(process.argv[3] ?? 1000);
  if (typeof zlib.zstdCompressSync !== 'function') {
    console.error(`this Node (${process.version}) has no zstd; run with Node >= 22.15`);
    process.exit(1);
  }

  const schema = (required, properties) => ({
    type: 'object',
    properties: Object.fromEntries(properties.map((name) => [name, { type: 'string' }])),
    required,
  });
  const tools = [
    {
      name: 'bash',
      description: 'Run a command',
      parameters: schema(['command', 'description'], ['command', 'description', 'workdir']),
    },
    {
      name: 'read',
      description: 'Read a file',
      parameters: {
        type: 'object',
        properties: { file_path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } },
        required: ['file_path'],
      },
    },
    {
      name: 'edit',
      description: 'Edit a file',
      parameters: schema(['file_path', 'old_string', 'new_string'], ['file_path', 'old_string', 'new_string']),
    },
    {
      name: 'write',
      description: 'Write a file',
      parameters: schema(['file_path', 'content'], ['file_path', 'content']),
    },
    {
      name: 'str_replace_editor',
      description: 'View and edit files',
      parameters: {
        type: 'object',
        properties: {
          command: { enum: ['view', 'create', 'str_replace', 'insert'] },
          path: { type: 'string' },
          view_range: { type: 'array', items: { type: 'integer' } },
        },
        required: ['command', 'path'],
      },
    },
  ];
  const filler = 'The quick brown fox jumps over the lazy dog while the build runs its tests. '.repeat(60);
  let seed = 12345;
  /** Pseudo-random hex (fixed seed): tool output that compresses like real output, not like a repeated sentence. */
  function noise(chars) {
    let text = '';
    while (text.length < chars) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      text += seed.toString(16);
    }
    return text.slice(0, chars);
  }

  /** One failed call per failure class, as DSH reports it. */
  function failure(index, ws) {
    const cases = [
      [
        'bash',
        { command: `ls ${index}` },
        'INVALID_ARGS',
        'ToolArgsError',
        'invalid arguments: missing required property "description"',
      ],
      [
        'edit',
        { file_path: `${ws}/src/file${index}.ts`, old_string: 'a', new_string: 'b' },
        'FS_NOT_OBSERVED',
        'FsError',
        `edit requires reading "${ws}/src/file${index}.ts" first — read the file, then retry`,
      ],
      [
        'str_replace_editor',
        { command: 'view', path: `${ws}/README.md`, view_range: [50, 60] },
        undefined,
        undefined,
        'Invalid `view_range`: [50, 60]. Its first element `50` should be within the range of lines of the file: [1, 11]',
      ],
      [
        'edit',
        { file_path: `${ws}/src/a.ts`, old_string: `missing ${index}`, new_string: 'x' },
        'FS_EDIT_NOT_FOUND',
        'FsError',
        `old_string was not found in "${ws}/src/a.ts"`,
      ],
      [
        'read_file',
        { file_path: `${ws}/package.json` },
        'UNKNOWN_TOOL',
        'ToolNotFoundError',
        'unknown tool "read_file"',
      ],
    ];
    return cases[index % cases.length];
  }

  function sessionText(sessionIndex, targetBytes) {
    const ws = `/home/user/project-${sessionIndex % 37}`;
    const id = `session-bench-${String(sessionIndex).padStart(6, '0')}`;
    const lines = [
      JSON.stringify({ type: 'session', version: 0, id, createdAt: 1_790_000_000_000, cwd: ws, delegationDepth: 0 }),
    ];
    let seq = 0;
    let time = 1_790_000_000_000 + sessionIndex * 10_000_000;
    const push = (type, data) => {
      time += 7;
      lines.push(JSON.stringify({ type, seq: seq++, time, data }));
    };
    push('request/header', {
      header: {
        config: {
          provider: 'deepseek-official',
          model: sessionIndex % 5 === 0 ? 'deepseek-v4-pro' : 'deepseek-v4-flash',
        },
        system: `You are a coding agent. ${filler}`,
        tools,
      },
    });
    let bytes = lines.reduce((sum, line) => sum + line.length + 1, 0);
    let context = 9000;
    for (let step = 1; bytes < targetBytes; step++) {
      const callId = `call_${sessionIndex}_${step}`;
      const fails = (sessionIndex * 31 + step * 17) % 100 < 8;
      const [name, args, code, errorName, message] = fails
        ? failure(step, ws)
        : [
            'bash',
            { command: `npm test -- --shard ${step}`, description: 'Run the tests' },
            undefined,
            undefined,
            undefined,
          ];
      const argumentsText = JSON.stringify(args);
      const start = lines.length;
      push('step/start', { turn: 1, step });
      push('assistant/chunk', { turn: 1, step, chunk: { type: 'block-start', index: 0, blockType: 'tool-call' } });
      push('tool-call-chunks', { turn: 1, step, index: 0, dt: [0, 0], id: callId, name, args: ['', argumentsText] });
      push('assistant/chunk', {
        turn: 1,
        step,
        chunk: { type: 'usage', usage: { inputTokens: 300, outputTokens: 40, cacheReadTokens: context } },
      });
      push('assistant/message', {
        turn: 1,
        step,
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: filler.slice(0, 400) },
            { type: 'tool-call', id: callId, name, arguments: argumentsText },
          ],
          source: { kind: 'model', provider: 'deepseek-official', model: 'deepseek-v4-flash' },
        },
        usage: { inputTokens: 300, outputTokens: 40, cacheReadTokens: context },
      });
      push('tool/call', { turn: 1, step, callId, name, arguments: argumentsText });
      const text = fails ? `Error: ${message}` : `${filler.slice(0, 2400)}\n${noise(800)}\n[exit code: 0]`;
      push('tool/result', {
        turn: 1,
        step,
        message: {
          source: { kind: 'tool', callId },
          content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }], isError: fails }],
          role: 'user',
        },
        ...(code ? { error: { name: errorName, code } } : {}),
      });
      push('step/end', { turn: 1, step });
      context += Math.ceil(text.length / 4) + 120;
      for (let index = start; index < lines.length; index++) bytes += (lines[index]?.length ?? 0) + 1;
    }
    return `${lines.join('\n')}\n`;
  }

  /** zstd frames the way DSH writes them: the header line alone, then one frame per write batch (~64 KB here). */
  function compressLikeDsh(text) {
    const firstLineEnd = text.indexOf('\n') + 1;
    const frames = [zlib.zstdCompressSync(Buffer.from(text.slice(0, firstLineEnd)))];
    for (let start = firstLineEnd; start < text.length; ) {
      let end = text.indexOf('\n', Math.min(text.length - 1, start + 64 * 1024));
      end = end < 0 ? text.length : end + 1;
      frames.push(zlib.zstdCompressSync(Buffer.from(text.slice(start, end))));
      start = end;
    }
    return Buffer.concat(frames);
  }

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'session-analyzer-bench-'));
  const sessionsDir = path.join(root, 'sessions');
  let textBytes = 0;
  let diskBytes = 0;
  const generateStart = performance.now();
  for (let index = 0; index < SESSIONS; index++) {
    const text = sessionText(index, KB_PER_SESSION * 1024);
    const data = compressLikeDsh(text);
    const dir = path.join(
      sessionsDir,
      `--home-user-project-${index % 37}--`,
      `session-bench-${String(index).padStart(6, '0')}`,
    );
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'session.jsonl.zstd'), data);
    textBytes += Buffer.byteLength(text);
    diskBytes += data.length;
  }
  const generateMs = performance.now() - generateStart;

  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--analyze', sessionsDir], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  fs.rmSync(root, { recursive: true, force: true });
  if (child.status !== 0) {
    console.error(child.stderr);
    process.exit(1);
  }
  const { wallMs, peakRss, peakHeap, maxRss, summary: report } = JSON.parse(child.stdout);

  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
  console.log(
    `generated ${SESSIONS} sessions: ${mb(textBytes)} MB of JSONL, ${mb(diskBytes)} MB zstd on disk (${(generateMs / 1000).toFixed(1)} s)`,
  );
  console.log(
    `analysed ${report.filesAnalysed} sessions, ${report.toolCalls} tool calls, ${report.errors} errors, ${report.skipped} skipped`,
  );
  console.log(
    `wall ${(wallMs / 1000).toFixed(1)} s; ${(textBytes / 1024 / 1024 / (wallMs / 1000)).toFixed(1)} MB/s of log text; ${(report.filesAnalysed / (wallMs / 1000)).toFixed(1)} sessions/s`,
  );
  console.log(
    `analysing process: peak RSS ${mb(peakRss)} MB, peak JS heap ${mb(peakHeap)} MB (sampled every 20 ms), kernel high-water mark ${mb(maxRss)} MB`,
  );
  console.log(`predicted: ${JSON.stringify(report.outcomes)}; measured cost ${report.costTokens} tokens`);
}
