/**
 * A call the plugin recovered renders in the REAL DSH web UI with the tool's own card. A headless session through
 * the scripted model (plugin installed) edits a file it never read (the plugin reads it, retries the edit and
 * answers with the retry's value, so the host presents the result for the model's own call) and then, as a
 * control, reads and edits a second file directly. The real `dsh --profile web` boots in the same DSH_HOME, Debian's
 * headless Chromium opens that session from the sidebar, and both Edit rows, expanded, must show the edit tool's
 * diff card (the file path, the removed and added lines and the `+N -N · 1 file` footer), not the generic card that shows the
 * result text. The session log's `tool/result` of the recovered call carries the diff `meta` the card is built
 * from. Screenshot: `artifacts/dsh-web-recovered-edit-card.png`. Skipped, with the reason, without Chromium.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ensureBuiltPlugin,
  hasChromium,
  openChromiumPage,
  openDshWebUi,
  repoRoot,
  runSession,
  startWebProfile,
  type SessionRun,
  type WebProfile,
  warnIfNoChromium,
} from '../src/index.js';

warnIfNoChromium('plugin-web-recovered-card', '');

/** Unique per run: the lab's DSH_HOME keeps sessions of earlier runs. */
const NONCE = `c${Date.now().toString(36)}`;
const RECOVERED = `recovered_${NONCE}`;
const DIRECT = `direct_${NONCE}`;

describe.skipIf(!hasChromium)('a recovered edit in the real DSH web UI', () => {
  let session: SessionRun;
  let web: WebProfile;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuiltPlugin();
    const edit = (id: string, file: string) => ({
      id,
      name: 'edit',
      arguments: JSON.stringify({ file_path: `{{ws}}/${file}`, old_string: 'alpha', new_string: 'ALPHA' }),
    });
    session = await runSession({
      mode: 'native',
      plugin: true,
      label: 'recovered-card',
      task: `Card check ${NONCE}`,
      workspaceFixtures: { 'recovered.txt': 'alpha\nbeta\n', 'direct.txt': 'alpha\nbeta\n' },
      steps: [
        { toolCalls: [edit(RECOVERED, 'recovered.txt')] },
        {
          toolCalls: [
            { id: `read_${NONCE}`, name: 'read', arguments: JSON.stringify({ file_path: '{{ws}}/direct.txt' }) },
          ],
        },
        { toolCalls: [edit(DIRECT, 'direct.txt')] },
        { text: 'Both files were edited.' },
      ],
    });
    expect(session.exitCode, session.stderr).toBe(0);
    web = await startWebProfile({ kind: 'plugin' });
    ({ browser, page } = await openChromiumPage(pageErrors));
  });

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  it("the recovered edit succeeded for the model, and its session-log result carries the edit tool's diff meta", () => {
    const message = session.toolMessages.find((m) => m.callId === RECOVERED);
    expect(message?.isError).toBe(false);
    expect(message?.content).toContain('has been updated successfully');
    expect(fs.readFileSync(path.join(session.workspace, 'recovered.txt'), 'utf8')).toBe('ALPHA\nbeta\n');
    const result = session.sessionEvents.find(
      (event) =>
        event.type === 'tool/result' &&
        (event.data as { message?: { source?: { callId?: string } } }).message?.source?.callId === RECOVERED,
    );
    const meta = (result?.data as { meta?: { diffs?: { path: string; newText: string }[] } } | undefined)?.meta;
    expect(meta?.diffs?.[0]?.path).toBe(path.join(session.workspace, 'recovered.txt'));
    expect(meta?.diffs?.[0]?.newText).toContain('ALPHA');
  });

  /** Opens the session from the sidebar (Ungrouped holds headless sessions, newest first). */
  async function openSession(): Promise<void> {
    await openDshWebUi(page, web.url, { noticeTimeoutMs: 3000 });
    const ungrouped = page.getByRole('treeitem').filter({ hasText: /^Ungrouped$/ });
    await ungrouped.waitFor({ timeout: 30_000 });
    if ((await ungrouped.getAttribute('aria-expanded')) === 'false') await ungrouped.click();
    const target = page.locator(`[data-chat-call-id="${RECOVERED}"]`);
    const sessions = page.locator('[role="treeitem"]:not([aria-expanded])').filter({ hasNotText: 'New Session' });
    for (let index = 0; index < 10; index += 1) {
      if (index >= (await sessions.count())) break;
      await sessions.nth(index).click();
      if (
        await target.waitFor({ timeout: 4000 }).then(
          () => true,
          () => false,
        )
      )
        return;
    }
    throw new Error(`the session with ${RECOVERED} is not among the newest sessions of the sidebar`);
  }

  /** Expands one tool row (clicking its title, not its file link) and returns the row's text. */
  async function expandedCardText(callId: string): Promise<string> {
    const row = page.locator(`[data-chat-call-id="${callId}"]`);
    await row.locator('[data-disclosure-row] [class*="_title"]').click();
    await expect.poll(() => row.locator('[data-disclosure-row]').getAttribute('aria-expanded')).toBe('true');
    return (await row.innerText()).replaceAll(session.workspace, '{{ws}}');
  }

  it("both Edit rows render the edit tool's diff card, the recovered one exactly like the direct one", async () => {
    await openSession();
    const row = page.locator(`[data-chat-call-id="${RECOVERED}"] [data-tool]`);
    expect(await row.getAttribute('data-tool')).toBe('edit');
    expect(await row.getAttribute('data-state')).toBe('ok');
    const recovered = await expandedCardText(RECOVERED);
    fs.mkdirSync(path.join(repoRoot, 'artifacts'), { recursive: true });
    await page.screenshot({ path: path.join(repoRoot, 'artifacts', 'dsh-web-recovered-edit-card.png') });
    const direct = await expandedCardText(DIRECT);
    // The diff card: the file's path, the removed then the added lines (their -/+ marks are drawn by CSS), the
    // summary footer; not the result text the generic card shows.
    expect(recovered).toContain('{{ws}}/recovered.txt\nalpha\nbeta\nALPHA\nbeta\n└ +2 -2 · 1 file');
    expect(recovered).not.toContain('has been updated successfully');
    expect(recovered.replaceAll('recovered.txt', 'FILE')).toBe(direct.replaceAll('direct.txt', 'FILE'));
    expect(pageErrors).toEqual([]);
  });
});
