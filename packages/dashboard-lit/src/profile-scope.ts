/**
 * Which profile's receipts the dashboard opens on. The page shows the profile its server runs in, unless that
 * profile has no calls while others do (a user who works headless and opens the web page, or `bash scripts/demo.sh`
 * then `--web`): then it opens on every profile, says so, and offers one click back. One rule, one place: the
 * element and the demo's `--web` line both decide with it, so they show the same thing. Pure and browser-safe.
 */
import { ALL_PROFILES } from './feed.js';

/** What the decision reads of a stats payload (the server's own profile's). */
export interface ProfileScopeInput {
  ownProfile?: string | undefined;
  profile?: string | undefined;
  profiles?: readonly string[] | undefined;
  totals: { calls: number };
}

/** The other profiles with receipts, when the payload is of the server's own profile and that profile has no calls. */
export function otherProfilesWhenOwnIsEmpty(payload: ProfileScopeInput): string[] {
  const own = payload.ownProfile;
  if (own === undefined || payload.profile === ALL_PROFILES) return [];
  if (payload.profile !== undefined && payload.profile !== own) return [];
  if (payload.totals.calls !== 0) return [];
  return (payload.profiles ?? []).filter((name) => name !== own && name !== ALL_PROFILES);
}

/**
 * True when a page with no choice of its own should show every profile instead: its own profile (`own`, the
 * payload of the server's own profile) has no calls, and every profile added up (`all`) has some.
 */
export function opensOnAllProfiles(own: ProfileScopeInput, all: ProfileScopeInput): boolean {
  return otherProfilesWhenOwnIsEmpty(own).length > 0 && all.totals.calls > 0;
}
