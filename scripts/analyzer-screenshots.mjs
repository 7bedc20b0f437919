// Regenerates docs/screenshots/session-analyzer-report-{1400,420}.png: the published command's `analyze --html`
// over the real session logs (/work/shared/dsh-sessions/real, or the folder given), opened from disk in Debian's
// headless Chromium with every section closed, at a desktop's 1,400 px and a phone's 420 px. Called by
// scripts/screenshots.sh with the Node DSH needs (zstd); never edits a picture by hand.
//
//   node scripts/analyzer-screenshots.mjs [sessions-dir]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sessions = process.argv[2] ?? '/work/shared/dsh-sessions/real';
const cli = path.join(root, 'packages/dsh-tool-normalizer/dist/cli.js');
const html = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tn-shots-')), 'report.html');
const analyze = spawnSync(process.execPath, [cli, 'analyze', sessions, '--html', html], { encoding: 'utf8' });
if (analyze.status !== 0) {
  process.stderr.write(`analyzer-screenshots: analyze exited ${analyze.status}\n${analyze.stderr}`);
  process.exit(1);
}
// playwright-core is the session analyzer's test dependency: resolve it from there.
const require = createRequire(path.join(root, 'packages/session-analyzer/package.json'));
const { chromium } = require('playwright-core');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  for (const width of [1400, 420]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`file://${html}`);
    await page.evaluate(() => {
      for (const details of document.querySelectorAll('details')) details.open = false;
    });
    const to = path.join(root, `docs/screenshots/session-analyzer-report-${width}.png`);
    await page.screenshot({ path: to, fullPage: true });
    process.stdout.write(`screenshots: ${path.relative(root, to)}\n`);
    await page.close();
  }
} finally {
  await browser.close();
}
