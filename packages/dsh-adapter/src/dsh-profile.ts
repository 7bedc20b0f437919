/**
 * Which DSH profile this plugin runs in, so its receipts (events, counters, metrics) carry it. DSH provides no
 * service or environment variable naming the profile; the launcher boots `$DSH_HOME/profiles/<name>/cordis.yml` and
 * anchors the root context's `baseUrl` at that folder (`@deepseek-ai/dsh` profile-boot, `boot()`), and the profile
 * also appears on the command line (`dsh --profile <name>`, `dsh web`). docs/host-facts.md#profiles.
 */
import { fileURLToPath } from 'node:url';
import { basename, dirname } from 'node:path';

/** The profile name when none can be found (telemetry-store's default too). */
export const DEFAULT_PROFILE = 'default';

/** `…/profiles/<name>/` of a file URL or path, else undefined. */
function profileOfBaseUrl(baseUrl: unknown): string | undefined {
  if (typeof baseUrl !== 'string' || baseUrl === '') return undefined;
  let path: string;
  try {
    path = baseUrl.startsWith('file:') ? fileURLToPath(baseUrl) : baseUrl;
  } catch {
    return undefined;
  }
  const dir = path.endsWith('/') ? path.slice(0, -1) : path;
  if (basename(dirname(dir)) !== 'profiles') return undefined;
  const name = basename(dir);
  // `profiles/node_modules` is DSH's shared module fallback, not a profile.
  return name !== '' && name !== 'node_modules' ? name : undefined;
}

/** `--profile <name>`, `--profile=<name>` or the `web` alias (first) among the launcher's arguments. */
function profileOfArgv(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--profile') return argv[index + 1] || undefined;
    if (arg?.startsWith('--profile=')) return arg.slice('--profile='.length) || undefined;
    if (index === 0 && arg === 'web') return 'web';
  }
  return undefined;
}

/**
 * The DSH profile name: from the context's `baseUrl` (the profile folder), else the command line, else
 * `DEFAULT_PROFILE`.
 */
export function dshProfileName(ctx: { baseUrl?: unknown }, argv: readonly string[] = process.argv.slice(2)): string {
  let baseUrl: unknown;
  try {
    baseUrl = ctx.baseUrl;
  } catch {
    baseUrl = undefined;
  }
  return profileOfBaseUrl(baseUrl) ?? profileOfArgv(argv) ?? DEFAULT_PROFILE;
}
