/**
 * The command users run: `dsh-tool-normalizer mcp-proxy` from the meta-package's bundled `dist/cli.js` (built by the
 * test command before the tests), on the Node running the tests and on the system `node` on PATH (Node 20 on the
 * project's machines: the proxy without --store promises Node 20; --store needs node:sqlite and says so).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { EVERYTHING, tempDir } from './support.js';

const CLI = fileURLToPath(new URL('../../dsh-tool-normalizer/dist/cli.js', import.meta.url));
const systemNode = execFileSync('node', ['-p', 'process.execPath'], { encoding: 'utf8' }).trim();
const systemVersion = execFileSync(systemNode, ['--version'], { encoding: 'utf8' }).trim();
const systemMajor = Number(systemVersion.slice(1).split('.')[0]);

async function healThrough(node: string): Promise<string> {
  const transport = new StdioClientTransport({
    command: node,
    args: [CLI, 'mcp-proxy', '--', process.execPath, EVERYTHING, 'stdio'],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'published-cli-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    await client.listTools();
    const result = (await client.callTool({ name: 'get-sum', arguments: { a: '2', b: '40' } })) as CallToolResult;
    return result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
  } finally {
    await client.close();
  }
}

describe('dsh-tool-normalizer mcp-proxy (the published command)', () => {
  it(`heals through the bundled command on ${process.version}`, async () => {
    expect(await healThrough(process.execPath)).toBe('The sum of 2 and 40 is 42.');
  });

  it(`heals through the bundled command on the system ${systemVersion}`, async () => {
    expect(await healThrough(systemNode)).toBe('The sum of 2 and 40 is 42.');
  });

  it.runIf(systemMajor < 22)(`refuses --store on the system ${systemVersion} with one clear line`, () => {
    const run = spawnSync(systemNode, [CLI, 'mcp-proxy', '--store', tempDir('mcp-n20-'), '--', 'true'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      `dsh-tool-normalizer mcp-proxy: --store needs Node >= 22.13 (node:sqlite); this is Node ${systemVersion}. Run without --store, or on a newer Node.`,
    );
  });

  it('explains a bad command line and exits 2', () => {
    for (const args of [[], ['--http'], ['--http', 'ftp://x'], ['--listen', '1:2', '--', 'x'], ['--bogus'], ['--']]) {
      const run = spawnSync(process.execPath, [CLI, 'mcp-proxy', ...args], { encoding: 'utf8' });
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^dsh-tool-normalizer mcp-proxy: .+\n\nusage: dsh-tool-normalizer mcp-proxy/);
    }
  });
});
