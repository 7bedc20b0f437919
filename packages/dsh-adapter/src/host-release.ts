/**
 * Which DSH release this plugin runs in, so it can use that release's way of storing live options
 * (`releaseFacts(version).liveOptions` in @dsh-tool-normalizer/dsh-profile). DSH hands a plugin no version: the
 * launcher is `@deepseek-ai/dsh`'s `lib/bin.js` (the process's entry script), so the version is that package's
 * `package.json`, found by walking up from the entry script (the doctor reads the same package from PATH).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The DSH CLI package whose version is the release (the gate's runtime version follows it). */
const DSH_PACKAGE = '@deepseek-ai/dsh';

/** The version of the `@deepseek-ai/dsh` package the entry script belongs to, or undefined when there is none. */
export function runningDshVersion(entry: string | undefined = process.argv[1]): string | undefined {
  if (typeof entry !== 'string' || entry === '') return undefined;
  let current: string;
  try {
    current = dirname(realpathSync(entry));
  } catch {
    return undefined;
  }
  for (let depth = 0; depth < 8; depth += 1) {
    const manifest = join(current, 'package.json');
    if (existsSync(manifest)) {
      try {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
        if (parsed.name === DSH_PACKAGE) return typeof parsed.version === 'string' ? parsed.version : undefined;
      } catch {
        return undefined;
      }
    }
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return undefined;
}
