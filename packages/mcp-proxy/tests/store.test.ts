/**
 * Receipts: `--store DIR` writes one event per tools/call into the same telemetry store the DSH plugin uses, read
 * back here with `createTelemetryStore` after the proxy exited. Secrets in healed arguments never reach its files.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTelemetryStore } from '@dsh-tool-normalizer/telemetry-store';
import { describe, expect, it } from 'vitest';
import { connectThroughProxy, EVERYTHING, FILESYSTEM, tempDir } from './support.js';

function randomToken(alphabet: string, length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

/** The meta-package's bundled command (built before the tests), whose `analyze` reads what the proxy wrote. */
const CLI = fileURLToPath(new URL('../../dsh-tool-normalizer/dist/cli.js', import.meta.url));

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

describe('--store', () => {
  it('records healed, untouched and failed calls, labelled mcp, where analyze, the dashboard and /metrics read them', async () => {
    const dir = path.join(tempDir('mcp-store-'), 'new', 'store');
    const { client, transport } = await connectThroughProxy(['--store', dir], [process.execPath, EVERYTHING, 'stdio']);
    await client.listTools();
    await client.callTool({ name: 'get-sum', arguments: { a: '1', b: 2 } });
    await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
    await client.callTool({ name: 'get-sum', arguments: { a: 'one', b: 2 } });
    const pid = transport.pid;
    await client.close();
    await expect.poll(() => processAlive(pid), { timeout: 10_000 }).toBe(false);

    const store = createTelemetryStore({ dir, warn: () => {} });
    try {
      const stats = store.stats();
      expect(stats.totals.calls).toBe(3);
      expect(stats.totals.healedSuccess).toBe(1);
      expect(stats.totals.passThrough).toBe(1);
      expect(stats.totals.passThroughFailed).toBe(1);
      const page = await store.queryEvents({});
      const healed = page.events.find((event) => event.outcome === 'healed-success');
      expect(healed).toMatchObject({ tool: 'get-sum', category: 'invalid-args', ruleIds: ['args.coerce-scalar'] });
      expect(healed?.before).toContain('"a":"1"');
      expect(healed?.after).toContain('"a":1');
      const failed = page.events.find((event) => event.outcome === 'passthrough-failed');
      expect(failed).toMatchObject({ tool: 'get-sum', ruleIds: [] });
      expect(failed?.error).toBeTruthy();
      // Every receipt says which harness recorded it, and the store counts them apart (what DSH's /metrics serves).
      expect(page.events.every((event) => event.harness === 'mcp')).toBe(true);
      expect(store.harnessCalls()).toEqual([
        { harness: 'mcp', outcome: 'healed-success', calls: 1 },
        { harness: 'mcp', outcome: 'passthrough', calls: 1 },
        { harness: 'mcp', outcome: 'passthrough-failed', calls: 1 },
      ]);
    } finally {
      await store.close();
    }
    // The published `analyze` reads the same folder as DSH_HOME (no DSH sessions there): a measured MCP section.
    const analyze = spawnSync(process.execPath, [CLI, 'analyze', '--json'], {
      env: { ...process.env, DSH_HOME: dir },
      encoding: 'utf8',
    });
    expect(analyze.status, analyze.stderr).toBe(0);
    expect(analyze.stderr).toContain(
      `no sessions folder at ${path.join(dir, 'sessions')}; reporting the telemetry store in ${dir}`,
    );
    const report = JSON.parse(analyze.stdout);
    // `--store DIR` names the proxy's folder directly, with no DSH_HOME, and reads the same receipts.
    const byStore = spawnSync(process.execPath, [CLI, 'analyze', '--store', dir, '--json'], { encoding: 'utf8' });
    expect(byStore.status, byStore.stderr).toBe(0);
    expect(JSON.parse(byStore.stdout).otherHarnesses).toEqual(report.otherHarnesses);
    expect(report.otherHarnesses).toEqual([
      expect.objectContaining({
        harness: 'mcp',
        healedSuccess: 1,
        healedFailed: 0,
        passThroughFailed: 1,
        healedByTool: [{ key: 'get-sum', count: 1 }],
        healedByRule: [{ key: 'args.coerce-scalar', count: 1 }],
      }),
    ]);
    expect(report.findings.sessions).toBe(0);
    const text = spawnSync(process.execPath, [CLI, 'analyze'], {
      env: { ...process.env, DSH_HOME: dir },
      encoding: 'utf8',
    });
    expect(text.stdout).toContain('Recorded by another harness: MCP healing proxy (mcp)');
    expect(readdirSync(dir).length).toBeGreaterThan(0);
    // The folder the proxy created is the user's alone (the store's files take the process's default mode).
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('keeps fresh secrets in healed arguments out of every stored file', async () => {
    const dir = tempDir('mcp-store-secret-');
    const root = tempDir('mcp-fs-secret-');
    const target = path.join(root, 'notes.txt');
    writeFileSync(target, 'old\n');
    const github = `ghp_${randomToken(ALNUM, 36)}`;
    const aws = `AKIA${randomToken('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
    const { client, transport } = await connectThroughProxy(['--store', dir], [process.execPath, FILESYSTEM, root]);
    await client.listTools();
    // `contents` is an alias of the required `content`: healed, and the secrets sit in what the receipt previews.
    const result = await client.callTool({
      name: 'write_file',
      arguments: { path: target, contents: `token=${github}\naws=${aws}\n` },
    });
    expect(result.isError).toBeFalsy();
    expect(readFileSync(target, 'utf8')).toBe(`token=${github}\naws=${aws}\n`);
    const pid = transport.pid;
    await client.close();
    await expect.poll(() => processAlive(pid), { timeout: 10_000 }).toBe(false);

    const store = createTelemetryStore({ dir, warn: () => {} });
    const page = await store.queryEvents({});
    await store.close();
    expect(page.events.find((event) => event.outcome === 'healed-success')?.ruleIds).toEqual(['args.rename-alias']);
    for (const name of readdirSync(dir)) {
      const bytes = readFileSync(path.join(dir, name)).toString('latin1');
      expect(bytes).not.toContain(github);
      expect(bytes).not.toContain(aws);
      expect(bytes).not.toContain(github.slice(4, 24));
    }
  });
});

function processAlive(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
