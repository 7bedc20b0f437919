/**
 * Who may use the HTTP proxy, and where it may go. The proxy reaches one upstream origin only: a request target
 * must be a path (origin-form), and the path is appended to the upstream's origin, never resolved against it, so
 * `//host:port/x`, `/\host/x`, `http://host/x` (absolute-form), `host:port` (authority-form, CONNECT) and `*` never
 * name another host. And because a browser page can reach a loopback port through DNS rebinding, the client's
 * `Host` and `Origin` are checked here the way `@modelcontextprotocol/sdk` checks them for a local server
 * (`hostHeaderValidation`, `createMcpExpressApp`): loopback names only, plus the names the user allows. The check
 * is the proxy's, not the upstream's, because the client's `Host` names the proxy: the upstream is sent its own
 * name, so an upstream with the SDK's protection keeps accepting the proxy, and a forged name never reaches it.
 */
import { isIP } from 'node:net';

/** A refusal: the HTTP status and the JSON-RPC error message the client gets (nothing is forwarded). */
export interface Refusal {
  status: number;
  message: string;
}

/** The hostnames `localhost`, `127.0.0.1` and `[::1]` (the SDK's `localhostHostValidation` list), any port. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for a name or address that only this machine reaches (`localhost`, 127.0.0.0/8, `::1`). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/**
 * The upstream URL for a client's request target, or the refusal. Only origin-form (`/path?query`) is accepted;
 * the result always has the upstream's origin.
 */
export function upstreamTarget(requestTarget: string | undefined, upstream: URL): URL | Refusal {
  const target = requestTarget ?? '';
  const refuse = (why: string): Refusal => ({
    status: 400,
    message: `Bad request target: ${why}; this proxy forwards paths to ${upstream.origin} only`,
  });
  if (!target.startsWith('/')) return refuse('not a path (absolute-form, authority-form and * are refused)');
  if (target[1] === '/' || target[1] === '\\') return refuse('a path starting with // names a host');
  let url: URL;
  try {
    url = new URL(`${upstream.origin}${target}`);
  } catch {
    return refuse('not a valid path');
  }
  return url.origin === upstream.origin ? url : refuse('the path does not stay on the upstream');
}

export interface GuardOptions {
  /** Hostnames (no port; IPv6 in brackets) accepted in `Host` besides the loopback names. */
  allowHosts?: readonly string[];
  /** Origins (`scheme://host[:port]`) accepted in `Origin` besides loopback ones. */
  allowOrigins?: readonly string[];
}

/** The hostname of a `Host` header value (lowercase, IPv6 in brackets, no port), or undefined when it is not one. */
function hostnameOf(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
    return url.hostname;
  } catch {
    return undefined;
  }
}

/** A hostname as `Host` spells it: lowercase, an IPv6 address in brackets. */
export function hostKey(name: string): string {
  const lowered = name.toLowerCase();
  return isIP(lowered) === 6 ? `[${lowered}]` : lowered;
}

/** Checks `Host` and `Origin` (the SDK's DNS-rebinding protection); undefined when the request may pass. */
export function createHostGuard(options: GuardOptions = {}): (host: unknown, origin: unknown) => Refusal | undefined {
  const hosts = new Set([...LOOPBACK_NAMES, ...(options.allowHosts ?? []).map(hostKey)]);
  const origins = new Set((options.allowOrigins ?? []).map((origin) => origin.toLowerCase().replace(/\/$/, '')));
  return (host, origin) => {
    if (typeof host !== 'string' || host === '') return { status: 403, message: 'Missing Host header' };
    const hostname = hostnameOf(host);
    if (hostname === undefined) return { status: 403, message: `Invalid Host header: ${host.slice(0, 200)}` };
    if (!hosts.has(hostname))
      return { status: 403, message: `Invalid Host: ${hostname.slice(0, 200)} (allow it with --allow-host)` };
    if (origin === undefined) return undefined;
    if (typeof origin !== 'string') return { status: 403, message: 'Invalid Origin header' };
    const lowered = origin.toLowerCase();
    if (origins.has(lowered)) return undefined;
    let parsed: URL | undefined;
    try {
      parsed = new URL(lowered);
    } catch {
      parsed = undefined;
    }
    if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && isLoopback(parsed.hostname))
      return undefined;
    return { status: 403, message: `Invalid Origin header: ${origin.slice(0, 200)} (allow it with --allow-origin)` };
  };
}
