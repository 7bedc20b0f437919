/**
 * Logs the analyzer cannot read are skipped with one line each, never a crash: a truncated zstd file, a log
 * still being written (its last line torn), a foreign JSONL file, bytes that are not zstd, an empty file, a
 * corrupt line in the middle. Built from one real DSH log so the readable neighbours are real too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeSessions } from '../src/node.js';
import { allRealLogs, compress, decompress, hasRealSessions, tempDir } from './support.js';

describe.skipIf(!hasRealSessions)('unreadable logs', () => {
  let dir: string;
  let text: string;
  const write = (name: string, data: Buffer | string) => {
    const file = path.join(dir, name, 'session.jsonl.zstd');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data);
  };

  beforeAll(() => {
    dir = tempDir('skipped');
    // a real log with tool calls and errors
    const source = allRealLogs().find(
      (file) => file.includes('pty-tools') && decompress(file).includes('"isError":true'),
    ) as string;
    text = decompress(source);
    const original = fs.readFileSync(source);
    write('a-good', original);
    write('b-truncated', original.subarray(0, Math.floor(original.length * 0.6)));
    const cut = text.lastIndexOf('\n', text.length - 2);
    write('c-being-written', compress(text.slice(0, cut + 1 + Math.floor((text.length - cut) / 2))));
    write('d-foreign', compress('{"jsonrpc":"2.0","method":"session/update"}\n'));
    write('e-not-zstd', 'this is plain text, not zstd\n');
    write('f-empty', Buffer.alloc(0));
    const lines = text.split('\n');
    lines.splice(3, 0, '{"type":"tool/call",');
    write('g-corrupt-middle', compress(lines.join('\n')));
    fs.writeFileSync(path.join(dir, 'plain.jsonl'), text);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('analyses the readable logs and lists every other file with one reason', async () => {
    const { report, sessions } = await analyzeSessions({ sessionsDir: dir, keepSessions: true });
    expect(report.filesSeen).toBe(8);
    expect(sessions.map((session) => path.relative(dir, session.file)).sort()).toEqual([
      'a-good/session.jsonl.zstd',
      'plain.jsonl',
    ]);
    expect(sessions[0]?.errors).toBeGreaterThan(0);
    expect(sessions[0]?.toolCalls).toBe(sessions[1]?.toolCalls);
    const reasons = Object.fromEntries(report.skipped.map((skip) => [skip.file.split(path.sep)[0], skip.reason]));
    expect(Object.keys(reasons).sort()).toEqual([
      'b-truncated',
      'c-being-written',
      'd-foreign',
      'e-not-zstd',
      'f-empty',
      'g-corrupt-middle',
    ]);
    expect(reasons['b-truncated']).toMatch(/zstd|still being written|truncated/);
    expect(reasons['c-being-written']).toMatch(/still being written or truncated/);
    expect(reasons['d-foreign']).toBe('not a DSH session log (first line is not a session header)');
    expect(reasons['e-not-zstd']).toMatch(/not readable as zstd/);
    expect(reasons['f-empty']).toBe('empty file');
    expect(reasons['g-corrupt-middle']).toBe('line 4 is not JSON (corrupt or torn)');
    for (const reason of Object.values(reasons)) expect(reason).not.toContain('\n');
  });
});
