/**
 * The bounded line reader: lines split across chunks (a multi-byte character included), CRLF, a last line without
 * a newline, and a line past the limit discarded up to its newline while the following lines still arrive. Then a
 * real-size case: a valid zstd session log with one 200 MB line is skipped with its line number, its neighbours are
 * analysed, and a child process reading that file through the reader stays under a coarse memory bound (readline
 * held the whole line: about 430 MB).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedLines, LINE_TOO_LONG } from '../src/line-reader.js';
import { analyzeSessions } from '../src/node.js';
import { compress, compressStream, hasZstd, tempDir } from './support.js';

async function collect(chunks: (string | Uint8Array)[], maxBytes: number): Promise<(string | typeof LINE_TOO_LONG)[]> {
  const out: (string | typeof LINE_TOO_LONG)[] = [];
  async function* source() {
    yield* chunks;
  }
  for await (const line of boundedLines(source(), maxBytes)) out.push(line);
  return out;
}

describe('boundedLines', () => {
  it('joins a line split across chunks, a multi-byte character included, and drops CR of CRLF', async () => {
    const euro = Buffer.from('€', 'utf8');
    const chunks = [Buffer.from('{"a":"x'), euro.subarray(0, 1), euro.subarray(1), Buffer.from('"}\r\nsecond\nthird')];
    expect(await collect(chunks, 1024)).toEqual(['{"a":"x€"}', 'second', 'third']);
  });

  it('yields no extra empty line after a final newline, and keeps empty lines in between', async () => {
    expect(await collect(['a\n\nb\n'], 1024)).toEqual(['a', '', 'b']);
  });

  it('reports a line past the limit once, discards it up to its newline, and goes on with the next lines', async () => {
    const chunks = ['short\n', 'x'.repeat(6), 'x'.repeat(6), 'x'.repeat(6), '\nafter\n', 'y'.repeat(11)];
    expect(await collect(chunks, 10)).toEqual(['short', LINE_TOO_LONG, 'after', LINE_TOO_LONG]);
    // exactly at the limit is a line
    expect(await collect(['x'.repeat(10), '\n'], 10)).toEqual(['x'.repeat(10)]);
  });
});

const HUGE_MB = 200;

describe.skipIf(!hasZstd)('a session log with one 200 MB line', () => {
  let dir: string;
  let hugeFile: string;

  beforeAll(async () => {
    dir = tempDir('huge-line');
    hugeFile = path.join(dir, 'huge', 'session.jsonl.zstd');
    fs.mkdirSync(path.dirname(hugeFile), { recursive: true });
    const megabyte = 'a'.repeat(1024 * 1024);
    async function* text() {
      yield `${JSON.stringify({ type: 'session', id: 'huge', cwd: '/w' })}\n{"type":"user/message","data":{"content":[{"type":"text","text":"`;
      for (let index = 0; index < HUGE_MB; index++) yield megabyte;
      yield '"}]}}\n{"type":"turn/start","data":{"turn":1}}\n';
    }
    await pipeline(text(), compressStream(), fs.createWriteStream(hugeFile));
    const neighbour = path.join(dir, 'small', 'session.jsonl.zstd');
    fs.mkdirSync(path.dirname(neighbour), { recursive: true });
    const events = [
      { type: 'session', id: 'small', cwd: '/w' },
      { type: 'tool/call', data: { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}' } },
      {
        type: 'tool/result',
        data: { turn: 1, step: 1, callId: 'c1', content: [{ type: 'text', text: 'Error: nope' }], isError: true },
      },
    ];
    fs.writeFileSync(neighbour, compress(`${events.map((event) => JSON.stringify(event)).join('\n')}\n`));
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('skips the log with the line number and analyses its neighbour', async () => {
    const { report } = await analyzeSessions({ sessionsDir: dir, now: () => 0 });
    expect(report.skipped).toEqual([
      { file: path.join('huge', 'session.jsonl.zstd'), reason: 'line 2 is longer than 32 MiB' },
    ]);
    expect(report.filesAnalysed).toBe(1);
    expect(report.census.errors).toBe(1);
  }, 120_000);

  it('reads it in a child process with peak RSS under 300 MB (coarse guard; the whole line is never held)', () => {
    const reader = fileURLToPath(new URL('../src/line-reader.ts', import.meta.url));
    const script = `
      import fs from 'node:fs';
      import zlib from 'node:zlib';
      const { boundedLines, LINE_TOO_LONG } = await import(${JSON.stringify(reader)});
      const lines = [];
      const input = fs.createReadStream(process.argv[1]).pipe(zlib.createZstdDecompress());
      for await (const line of boundedLines(input, 32 * 1024 * 1024)) lines.push(line === LINE_TOO_LONG ? 'TOO_LONG' : line.length);
      process.stdout.write(JSON.stringify({ lines, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
    `;
    const child = spawnSync(
      process.execPath,
      ['--experimental-strip-types', '--no-warnings', '--input-type=module', '-e', script, hugeFile],
      { encoding: 'utf8' },
    );
    expect(child.stderr).toBe('');
    const result = JSON.parse(child.stdout) as { lines: (number | string)[]; maxRssBytes: number };
    expect(result.lines).toEqual([expect.any(Number), 'TOO_LONG', expect.any(Number)]);
    console.info(`[session-analyzer] 200 MB line read with peak RSS ${(result.maxRssBytes / 1e6).toFixed(0)} MB`);
    expect(result.maxRssBytes).toBeLessThan(300e6);
  }, 120_000);
});
