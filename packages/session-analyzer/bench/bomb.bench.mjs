/**
 * Memory benchmark of the built analyzer on a decompression bomb: a zstd session log of distinct calls that never
 * get a result (small on disk, `megabytes` expanded, each call's arguments `callBytes` long), next to a normal log.
 * It is analysed in a fresh process with the default per-session bounds, so the peak RSS printed is the analysis
 * alone: the bomb must be skipped at a bound and the normal log reported, whatever the bomb's expanded size.
 *
 *   node bench/bomb.bench.mjs [megabytes=2048] [callBytes=1000]     (Node >= 22.15, after the build)
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
      wallMs: Math.round(performance.now() - start),
      maxRssMB: Math.round((process.resourceUsage().maxRSS * 1024) / 1024 / 1024),
      skipped: report.skipped,
      analysed: report.filesAnalysed,
    }),
  );
} else {
  const megabytes = Number(process.argv[2] ?? 2048);
  const callBytes = Number(process.argv[3] ?? 1000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-analyzer-bomb-'));
  const file = path.join(dir, 'bomb', 'session.jsonl.zstd');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const header = (id) => `${JSON.stringify({ type: 'session', version: 0, id, cwd: '/w' })}\n`;
  fs.mkdirSync(path.join(dir, 'good'));
  fs.writeFileSync(
    path.join(dir, 'good', 'session.jsonl.zstd'),
    zlib.zstdCompressSync(
      `${header('good')}${JSON.stringify({ type: 'tool/call', data: { callId: 'c', name: 'read', arguments: '{}' } })}\n`,
    ),
  );
  const padding = 'x'.repeat(callBytes);
  async function* text() {
    yield header('bomb');
    let written = 0;
    let index = 0;
    while (written < megabytes * 1024 * 1024) {
      let chunk = '';
      for (let n = 0; n < 1000; n++, index++)
        chunk += `${JSON.stringify({ type: 'tool/call', data: { callId: `call-${index}`, name: 'bash', arguments: `{"command":"echo ${index} ${padding}"}` } })}\n`;
      written += chunk.length;
      yield chunk;
    }
  }
  const started = performance.now();
  await pipeline(text(), zlib.createZstdCompress(), fs.createWriteStream(file));
  const generated = Math.round(performance.now() - started);
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--analyze', dir], { encoding: 'utf8' });
  console.log(
    JSON.stringify({
      expandedMB: megabytes,
      callBytes,
      zstdMB: Math.round((fs.statSync(file).size / 1024 / 1024) * 10) / 10,
      generatedMs: generated,
      status: child.status,
      ...JSON.parse(child.stdout || '{}'),
      stderr: child.stderr.slice(0, 300),
    }),
  );
  fs.rmSync(dir, { recursive: true, force: true });
}
