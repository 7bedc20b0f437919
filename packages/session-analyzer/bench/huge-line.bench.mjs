/**
 * Memory benchmark of the built analyzer on a valid session log holding one huge line (default 200 MB): the log is
 * generated zstd-compressed, then analysed in a fresh process so the peak RSS printed is the analysis alone. The
 * line must be skipped without ever being held whole (the issue's bound for a whole run is 300 MB).
 *
 *   node bench/huge-line.bench.mjs [megabytes=200]     (Node >= 22.15, after the build)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

if (process.argv[2] === '--analyze') {
  const { analyzeSessions } = await import('../dist/node.js');
  const start = performance.now();
  const { report } = await analyzeSessions({ sessionsDir: process.argv[3] });
  process.stdout.write(
    JSON.stringify({
      wallMs: performance.now() - start,
      maxRss: process.resourceUsage().maxRSS * 1024,
      skipped: report.skipped,
      analysed: report.filesAnalysed,
    }),
  );
} else {
  const megabytes = Number(process.argv[2] ?? 200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-analyzer-huge-'));
  const file = path.join(dir, 'huge', 'session.jsonl.zstd');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const chunk = 'a'.repeat(1024 * 1024);
  async function* text() {
    yield `${JSON.stringify({ type: 'session', id: 'huge', cwd: '/w' })}\n{"type":"user/message","data":{"content":[{"type":"text","text":"`;
    for (let index = 0; index < megabytes; index++) yield chunk;
    yield '"}]}}\n';
  }
  await pipeline(text(), zlib.createZstdCompress(), fs.createWriteStream(file));
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--analyze', dir], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  if (child.status !== 0) {
    process.stderr.write(child.stderr);
    process.exit(1);
  }
  const result = JSON.parse(child.stdout);
  const outcome =
    result.skipped.length > 0
      ? `skipped (${result.skipped.map((skip) => skip.reason).join('; ')})`
      : `analysed (${result.analysed} log)`;
  console.log(
    `one ${megabytes} MB line: ${outcome}; wall ${(result.wallMs / 1000).toFixed(2)} s, peak RSS ${(result.maxRss / 1e6).toFixed(0)} MB`,
  );
}
