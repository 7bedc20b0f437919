/**
 * The report built from parsed sessions: repeated failed calls grouped as the plugin counts identical failures
 * (core-rules' failureFingerprint: tool, canonical arguments, error code or category; key order does not split a
 * group, another error category does) with every error text of the group and the sessions counted; the model read from an older log's
 * `data.provenance.model`; an estimate that includes the recorded system prompt and tools, or says it is a lower
 * bound when the log hides them; and log text that cannot inject markup into the HTML page.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { analyzeSessionText, ReportBuilder, renderHtml } from '../src/index.js';
import { FAILURE_FILTER_SCRIPT, FAILURE_FILTER_SCRIPT_HASH } from '../src/report-script.js';

const line = (event: object) => JSON.stringify(event);
const failing = (callId: string, args: string, error: string) => [
  { type: 'tool/call', time: 1_790_000_000_000, data: { callId, name: 'read', arguments: args } },
  {
    type: 'tool/result',
    time: 1_790_000_000_100,
    data: { callId, content: [{ type: 'text', text: `Error: ${error}` }], isError: true },
  },
];
const log = (id: string, events: object[]) =>
  [{ type: 'session', version: 0, id, cwd: '/w' }, ...events].map(line).join('\n');
const build = (...texts: [string, string][]) => {
  const builder = new ReportBuilder();
  for (const [file, text] of texts) builder.add(analyzeSessionText(file, text));
  return builder.build({
    sessionsDir: '/logs',
    interrupted: false,
    filesSeen: 2,
    filesAnalysed: 2,
    skipped: [],
    now: 0,
  });
};

describe('the report', () => {
  it('groups repeated failed calls by tool, canonical arguments and error category, with every error and the sessions counted', () => {
    const report = build(
      ['/logs/a.jsonl', log('a', [...failing('1', '{"file_path":"/w/x","limit":5}', 'cannot read "/w/x": not found')])],
      [
        '/logs/b.jsonl',
        log('b', [
          ...failing('2', '{"limit":5,"file_path":"/w/x"}', 'cannot read "/w/x": not found'),
          ...failing('3', '{ "limit": 5, "file_path": "/w/x" }', 'permission denied'),
          ...failing(
            '4',
            '{"limit":5,"file_path":"/w/x"}',
            'The path x is not an absolute path, it should start with `/`',
          ),
        ]),
      ],
    );
    // The fourth failed otherwise (editor-path): a group of its own, listed only when it repeats.
    expect(report.census.repeatedFailures).toHaveLength(1);
    const group = report.census.repeatedFailures[0];
    expect(group).toMatchObject({ tool: 'read', count: 3, sessions: 2, first: { file: '/logs/a.jsonl', line: 3 } });
    expect(group?.errors.map((error) => [error.count, error.errorPreview])).toEqual([
      [2, 'cannot read "/w/x": not found'],
      [1, 'permission denied'],
    ]);
    expect(report.failures.map((row) => `${row.file}:${row.line}`)).toEqual([
      '/logs/a.jsonl:3',
      '/logs/b.jsonl:3',
      '/logs/b.jsonl:5',
      '/logs/b.jsonl:7',
    ]);
    expect(report.census.byDay).toEqual([{ day: '2026-09-21', calls: 4, errors: 4 }]);
  });

  it("reads the model of an older log's assistant message from data.provenance", () => {
    const analysis = analyzeSessionText(
      'old.jsonl',
      log('old', [
        ...failing('1', '{}', 'boom'),
        {
          type: 'assistant/message',
          data: {
            content: [{ type: 'text', text: 'ok' }],
            provenance: { provider: 'deepseek', model: 'deepseek-v4-pro' },
          },
        },
      ]),
    );
    expect(analysis.models).toEqual(['deepseek-v4-pro']);
  });

  it('estimates with the recorded system prompt and tools, and marks a lower bound when the log hides them', () => {
    const header = (system: string, tools: unknown) => ({
      type: 'request/header',
      data: { header: { config: { model: 'deepseek-v4-flash' }, system, tools } },
    });
    const next = { type: 'assistant/message', data: { message: { content: [{ type: 'text', text: 'ok' }] } } };
    const system = 'S'.repeat(40_000);
    const tools = [{ name: 'read', parameters: { type: 'object', properties: { file_path: { type: 'string' } } } }];
    const recorded = analyzeSessionText('r', log('r', [header(system, tools), ...failing('1', '{}', 'boom'), next]));
    expect(recorded.failures[0]?.cost).toMatchObject({ source: 'estimated', lowerBound: false });
    expect(recorded.failures[0]?.cost.estimated).toBeGreaterThan(10_000);
    const hidden = analyzeSessionText(
      'h',
      log('h', [header('{{system}}', '{{tools}}'), ...failing('1', '{}', 'boom'), next]),
    );
    expect(hidden.failures[0]?.cost).toMatchObject({ source: 'estimated', lowerBound: true });
  });

  it('escapes log text in the HTML page', () => {
    const evil = '<img src=x onerror=alert(1)></td></table><script>alert(2)</script>';
    const report = build(['/logs/e.jsonl', log('e', [...failing('1', JSON.stringify({ file_path: evil }), evil)])]);
    const html = renderHtml(report);
    expect(html).not.toContain('<img');
    // the page's one script is its own fixed filter; the log's script tag is text
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html).toContain(`<script>${FAILURE_FILTER_SCRIPT}</script>`);
    expect(html).toContain('&#60;img src=x');
    expect(html).toContain('&#60;script&#62;alert(2)&#60;/<wbr>script&#62;');
    // a Content-Security-Policy allows that script by its hash only
    const hash = createHash('sha256').update(FAILURE_FILTER_SCRIPT).digest('base64');
    expect(FAILURE_FILTER_SCRIPT_HASH).toBe(`'sha256-${hash}'`);
    expect(html).toContain(`script-src 'sha256-${hash}';`);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  });
});
