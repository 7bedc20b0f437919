/**
 * Who may use the plugin's web routes. DSH's web server checks nothing itself (its README: "no TLS, auth, or origin
 * policy"), and `dsh --profile web` can listen on every interface, so each route asks this guard first:
 *
 * - `Host` must be a loopback name (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`) or one the user listed in
 *   `allowedHosts`. A DNS-rebinding page (attacker.example resolving to 127.0.0.1) sends its own name, and a LAN
 *   peer's IP literal is not loopback. DSH's own `/api` fence uses the same loopback set (docs/host-facts.md#web-profile).
 * - A browser request must be same-origin: `Sec-Fetch-Site` (when sent) is `same-origin`/`none`, `Origin` (when sent)
 *   is this Host; the clear action needs an `Origin` outright (browsers send it on every POST).
 * - A per-activation random token. The token route hands it out only to a same-origin browser request
 *   (`Sec-Fetch-Site: same-origin`) with an allowed Host that came from this machine (a loopback TCP peer, which a
 *   network peer cannot forge, unlike every header). The clear action always needs the token back in
 *   `TOKEN_HEADER`; the reading routes need it too when the server listens on a non-loopback address.
 *
 * So a plain network request with forged Host, Origin and Fetch-Metadata headers gets nothing but 403.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { TOKEN_HEADER, TOKEN_REFUSAL } from '@dsh-tool-normalizer/telemetry-store/feed';

/** Why a request was refused; the body names it so the page can fetch a new token when it was `token`. */
export type RefusalReason = 'host' | 'origin' | 'peer' | typeof TOKEN_REFUSAL;

export interface Refusal {
  status: 403;
  reason: RefusalReason;
  error: string;
}

const REFUSALS: Record<RefusalReason, string> = {
  host: 'host not allowed: add this host name to the tool-normalizer option allowedHosts',
  origin: 'cross-origin requests are not allowed',
  peer: 'the token is only handed to a same-origin page loaded from this machine',
  token: `a valid ${TOKEN_HEADER} header is required (the dashboard fetches it from the token route)`,
};

function refuse(reason: RefusalReason): Refusal {
  return { status: 403, reason, error: REFUSALS[reason] };
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for an IP address in 127.0.0.0/8 or ::1, also written as an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped?.[1] ?? address;
  if (isIPv4(ip)) return LOOPBACK.check(ip, 'ipv4');
  return isIPv6(ip) && LOOPBACK.check(ip, 'ipv6');
}

/** `host[:port]` or `[ipv6][:port]`; anything else (userinfo, paths, spaces, empty) does not match. */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[^\s:@/\\[\]?#%]+)(?::\d{1,5})?$/;

/** A host name compared case-insensitively and without one trailing dot (`Localhost.` is `localhost`). */
function canonicalName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * The host name of a `Host` header as WHATWG URL reads it (lowercase, IPv4 in dotted decimal, IPv6 compressed and
 * bracketed, punycode), or undefined when the header is missing or not a bare `host[:port]`.
 */
function hostNameOf(host: string | undefined): string | undefined {
  if (host === undefined || !HOST_HEADER.test(host)) return undefined;
  try {
    return canonicalName(new URL(`http://${host}`).hostname);
  } catch {
    return undefined;
  }
}

/** True for `localhost`, `*.localhost` (names resolving to loopback only, RFC 6761) and loopback IP literals. */
function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const literal = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  return (isIPv4(literal) || (isIPv6(literal) && name.startsWith('['))) && isLoopbackAddress(literal);
}

/**
 * True when the `Host` header names this machine in a way neither a DNS-rebinding page nor a LAN peer's address can
 * produce (a loopback name or literal), or a name the user listed in `allowedHosts`. A missing or malformed header
 * is refused.
 */
export function isAllowedHost(host: string | undefined, allowedHosts: readonly string[]): boolean {
  const name = hostNameOf(host);
  if (name === undefined) return false;
  if (isLoopbackName(name)) return true;
  return allowedHosts.some((allowed) => hostNameOf(allowed) === name);
}

/**
 * True when the request comes from the page this server serves (or from no page at all, e.g. curl). A browser
 * sends `Origin` on every cross-origin request and on same-origin POSTs, and `Sec-Fetch-Site` to trustworthy
 * (loopback or https) origins.
 */
export function isSameOrigin(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const host = req.headers.host;
  if (host === undefined) return false;
  try {
    const url = new URL(origin);
    // URL lowercases the Origin's host; Host names are case-insensitive too.
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase();
  } catch {
    return false;
  }
}

export interface RouteGuardOptions {
  allowedHosts: readonly string[];
  /**
   * The address the web server is bound to (`webServer.host`: `127.0.0.1` or `0.0.0.0`). A non-loopback bind makes
   * the reading routes need the token; so does a request that arrived on a non-loopback local address.
   */
  bindHost?: () => string | undefined;
  /** The secret (tests); a fresh 256-bit random token otherwise. */
  token?: string;
}

export interface RouteGuard {
  /** The token the token route hands out. */
  readonly token: string;
  /** Checks of a reading route (stats, events, metrics); undefined means allowed. */
  read(req: IncomingMessage): Refusal | undefined;
  /** Checks of a state-changing route (clear). */
  write(req: IncomingMessage): Refusal | undefined;
  /** Checks of the token route itself. */
  tokenRequest(req: IncomingMessage): Refusal | undefined;
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

export function createRouteGuard(options: RouteGuardOptions): RouteGuard {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const expected = Buffer.from(token);
  const hasToken = (req: IncomingMessage): boolean => {
    const sent = Buffer.from(headerValue(req, TOKEN_HEADER) ?? '');
    return sent.length === expected.length && timingSafeEqual(sent, expected);
  };
  const exposed = (req: IncomingMessage): boolean => {
    let bound: string | undefined;
    try {
      bound = options.bindHost?.();
    } catch {
      return true; // the bind address is unknown: ask for the token rather than assume loopback
    }
    if (bound !== undefined && !isLoopbackAddress(bound)) return true;
    const local = req.socket?.localAddress;
    return local !== undefined && !isLoopbackAddress(local);
  };
  const common = (req: IncomingMessage): Refusal | undefined => {
    if (!isAllowedHost(req.headers.host, options.allowedHosts)) return refuse('host');
    if (!isSameOrigin(req)) return refuse('origin');
    return undefined;
  };
  return {
    token,
    read(req) {
      return common(req) ?? (exposed(req) && !hasToken(req) ? refuse(TOKEN_REFUSAL) : undefined);
    },
    write(req) {
      const refused = common(req);
      if (refused) return refused;
      if (req.headers.origin === undefined) return refuse('origin');
      return hasToken(req) ? undefined : refuse(TOKEN_REFUSAL);
    },
    tokenRequest(req) {
      const refused = common(req);
      if (refused) return refused;
      if (req.headers['sec-fetch-site'] !== 'same-origin') return refuse('origin');
      return isLoopbackAddress(req.socket?.remoteAddress) ? undefined : refuse('peer');
    },
  };
}
