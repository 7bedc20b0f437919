/** The small pure pieces: the bounded table every per-call map uses, the mode probe, the origin and host checks. */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../src/bounded-map.js';
import { modeOfPresentedTools } from '../src/host.js';
import { createRouteGuard, isAllowedHost, isLoopbackAddress, isSameOrigin } from '../src/route-guard.js';
import { dshProfileName } from '../src/dsh-profile.js';
import { processIdentity } from '../src/metrics.js';
import { PluginErrors } from '../src/plugin-errors.js';
import { PROMPT_SECTION_TEXT } from '../src/prompt-section.js';

describe('BoundedMap', () => {
  it('forgets the oldest entry at capacity and never grows past it', () => {
    const map = new BoundedMap<string, number>(3);
    for (let i = 0; i < 1000; i += 1) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
    expect(map.get('k996')).toBeUndefined();
    expect([map.get('k997'), map.get('k998'), map.get('k999')]).toEqual([997, 998, 999]);
  });

  it('take() returns an entry once', () => {
    const map = new BoundedMap<symbol, string>(2);
    const key = Symbol('t');
    map.set(key, 'note');
    expect(map.take(key)).toBe('note');
    expect(map.take(key)).toBeUndefined();
  });

  it('refreshes a key that is set again, so it is evicted last', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    map.set('c', 4);
    expect(map.get('a')).toBe(3);
    expect(map.get('b')).toBeUndefined();
  });

  it('rejects a capacity that is not a positive integer', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
  });
});

describe('modeOfPresentedTools', () => {
  it.each([
    [[{ name: 'run_code' }], 'code'],
    [[{ name: 'read' }, { name: 'run_code' }], 'both'],
    [[{ name: 'read' }, { name: 'bash' }], 'native'],
  ] as const)('%j -> %s', (tools, mode) => {
    expect(modeOfPresentedTools(tools)).toBe(mode);
  });
});

describe('isSameOrigin', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
  it('accepts a request without Origin (curl, a same-origin GET) and a matching Origin', () => {
    expect(isSameOrigin(req({ host: '127.0.0.1:5173' }))).toBe(true);
    expect(
      isSameOrigin(req({ host: '127.0.0.1:5173', origin: 'http://127.0.0.1:5173', 'sec-fetch-site': 'same-origin' })),
    ).toBe(true);
  });
  it('refuses another origin, another port, a cross-site fetch and a malformed Origin', () => {
    expect(isSameOrigin(req({ host: '127.0.0.1:5173', origin: 'https://evil.example' }))).toBe(false);
    expect(isSameOrigin(req({ host: '127.0.0.1:5173', origin: 'http://127.0.0.1:9999' }))).toBe(false);
    expect(isSameOrigin(req({ host: '127.0.0.1:5173', 'sec-fetch-site': 'cross-site' }))).toBe(false);
    expect(isSameOrigin(req({ host: '127.0.0.1:5173', origin: 'null' }))).toBe(false);
  });
});

describe('isAllowedHost', () => {
  it.each([
    '127.0.0.1:5173',
    '127.0.0.1',
    '127.255.3.4:80',
    '127.1', // WHATWG URL reads it as 127.0.0.1, as DSH's own /api fence does
    '[::1]:5173',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:127.0.0.1]',
    'localhost:5173',
    'LOCALHOST',
    'localhost.',
    'dsh.localhost:5173',
  ])('accepts %s with no allowedHosts', (host) => {
    expect(isAllowedHost(host, [])).toBe(true);
  });
  it.each([
    undefined,
    '',
    'attacker.example',
    'attacker.example:5173',
    'localhost.attacker.example',
    'notlocalhost',
    '::1',
    '[attacker.example]',
    '[::1',
    '127.0.0.1:port',
    'user@127.0.0.1',
    '127.0.0.1/x',
    '127.0.0.1?x',
    '127.0.0.1#x',
    '127.0.0.1%2f',
    'dsh.lan',
    // A LAN peer's or any other non-loopback IP literal: before, any IP literal was accepted.
    '192.168.1.50',
    '192.168.1.20:80',
    '10.231.0.1:3080',
    '0.0.0.0',
    '[fe80::1]',
    '[::ffff:192.168.1.50]',
    '[::]',
    '128.0.0.1',
  ])('refuses %j with no allowedHosts', (host) => {
    expect(isAllowedHost(host, [])).toBe(false);
  });
  it('accepts a listed name in any case and with a trailing dot, and nothing else', () => {
    expect(isAllowedHost('dsh.lan:5173', ['dsh.lan'])).toBe(true);
    expect(isAllowedHost('DSH.Lan.', ['dsh.lan'])).toBe(true);
    expect(isAllowedHost('dsh.lan', ['DSH.LAN'])).toBe(true);
    expect(isAllowedHost('sub.dsh.lan', ['dsh.lan'])).toBe(false);
    expect(isAllowedHost('attacker.example', ['dsh.lan'])).toBe(false);
  });
  it('accepts a LAN IP literal only when allowedHosts lists it', () => {
    expect(isAllowedHost('192.168.1.50:3080', ['192.168.1.50'])).toBe(true);
    expect(isAllowedHost('192.168.1.51:3080', ['192.168.1.50'])).toBe(false);
  });
});

describe('dshProfileName', () => {
  it.each([
    [{ baseUrl: 'file:///home/u/.dsh/profiles/web/' }, [], 'web'],
    [{ baseUrl: 'file:///home/u/.dsh/profiles/my%20ci/' }, [], 'my ci'],
    [{ baseUrl: '/srv/dsh/profiles/headless' }, [], 'headless'],
    [{}, ['--profile', 'tui', '--resume', 'x'], 'tui'],
    [{}, ['--profile=ci'], 'ci'],
    [{}, ['web', '--no-open'], 'web'],
    [{}, ['--profile', 'headless', 'run the web tests'], 'headless'],
    [{ baseUrl: 'file:///work/project/' }, ['run', 'web'], 'default'],
    [{ baseUrl: 42 }, [], 'default'],
    [{ baseUrl: 'file:///home/u/.dsh/profiles/node_modules/' }, ['--profile', 'ci'], 'ci'],
    [{}, ['--profile'], 'default'],
  ] as const)('%j %j -> %s', (ctx, argv, name) => {
    expect(dshProfileName(ctx, argv)).toBe(name);
  });
  it('labels metrics with a plain profile name only', () => {
    expect(processIdentity('web').profile).toBe('web');
    expect(processIdentity('sk-live-abcdef0123456789abcdef0123').profile).toBe('redacted');
  });
});

describe('createRouteGuard', () => {
  const TOKEN = 'a'.repeat(43);
  const request = (
    headers: Record<string, string>,
    socket: { remoteAddress?: string; localAddress?: string } = {
      remoteAddress: '127.0.0.1',
      localAddress: '127.0.0.1',
    },
  ) => ({ headers: { host: '127.0.0.1:3080', ...headers }, socket }) as unknown as IncomingMessage;
  const browser = { origin: 'http://127.0.0.1:3080', 'sec-fetch-site': 'same-origin' };
  const lan = { remoteAddress: '10.231.0.2', localAddress: '10.231.0.1' };

  it.each([
    ['loopback bind, no token', '127.0.0.1', {}, undefined, undefined],
    ['loopback bind, a browser', '127.0.0.1', browser, undefined, undefined],
    ['loopback bind, cross-site', '127.0.0.1', { 'sec-fetch-site': 'cross-site' }, undefined, 'origin'],
    ['loopback bind, LAN IP Host', '127.0.0.1', { host: '10.231.0.1:3080' }, undefined, 'host'],
    ['0.0.0.0 bind, no token', '0.0.0.0', {}, undefined, 'token'],
    ['0.0.0.0 bind, the token', '0.0.0.0', { 'x-tool-normalizer-token': TOKEN }, undefined, undefined],
    ['0.0.0.0 bind, a wrong token', '0.0.0.0', { 'x-tool-normalizer-token': 'b'.repeat(43) }, undefined, 'token'],
    ['unknown bind, a LAN connection', undefined, {}, lan, 'token'],
    ['a bind address that throws', 'throws', {}, undefined, 'token'],
  ] as const)('read: %s', (_, bind, headers, socket, refused) => {
    const guard = createRouteGuard({
      allowedHosts: [],
      token: TOKEN,
      bindHost: () => {
        if (bind === 'throws') throw new Error('disposed');
        return bind;
      },
    });
    expect(guard.read(request(headers, socket))?.reason).toBe(refused);
  });

  it.each([
    ['the dashboard', { ...browser, 'x-tool-normalizer-token': TOKEN }, undefined],
    ['no token', browser, 'token'],
    ['no Origin', { 'x-tool-normalizer-token': TOKEN }, 'origin'],
    ['another origin', { origin: 'http://evil.example', 'x-tool-normalizer-token': TOKEN }, 'origin'],
    ['a token with a suffix', { ...browser, 'x-tool-normalizer-token': `${TOKEN}a` }, 'token'],
    ['an empty token', { ...browser, 'x-tool-normalizer-token': '' }, 'token'],
  ] as const)('write: %s', (_, headers, refused) => {
    const guard = createRouteGuard({ allowedHosts: [], token: TOKEN, bindHost: () => '127.0.0.1' });
    expect(guard.write(request(headers))?.reason).toBe(refused);
  });

  it.each([
    ['a same-origin page from this machine', browser, undefined, undefined],
    ['from ::ffff:127.0.0.1', browser, { remoteAddress: '::ffff:127.0.0.1' }, undefined],
    ['without Sec-Fetch-Site (curl)', {}, undefined, 'origin'],
    ['Sec-Fetch-Site none (typed URL)', { 'sec-fetch-site': 'none' }, undefined, 'origin'],
    ['same-site (another local port)', { 'sec-fetch-site': 'same-site' }, undefined, 'origin'],
    ['a LAN peer forging every header', browser, lan, 'peer'],
    ['a rebound name', { ...browser, host: 'attacker.example:3080' }, undefined, 'host'],
    ['no socket address', browser, {}, 'peer'],
  ] as const)('tokenRequest: %s', (_, headers, socket, refused) => {
    const guard = createRouteGuard({ allowedHosts: [], token: TOKEN });
    expect(guard.tokenRequest(request(headers, socket))?.reason).toBe(refused);
  });

  it('makes a fresh 256-bit token per guard', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => createRouteGuard({ allowedHosts: [] }).token));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])('%s is loopback', (ip) => {
    expect(isLoopbackAddress(ip)).toBe(true);
  });
  it.each([undefined, '', '0.0.0.0', '10.231.0.2', '::', '::ffff:10.0.0.1', 'fe80::1', 'localhost', '128.0.0.1'])(
    '%j is not loopback',
    (ip) => {
      expect(isLoopbackAddress(ip)).toBe(false);
    },
  );
});

describe('PluginErrors', () => {
  it('counts every contained error and logs each distinct one once', () => {
    const logged: string[] = [];
    const errors = new PluginErrors({ warn: (message) => logged.push(message) });
    errors.report('tools/execute', new Error('boom'));
    errors.report('tools/execute', new Error('boom'));
    errors.report('llm/stream', new Error('boom'));
    expect(errors.count).toBe(3);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain('failed open');
  });

  it('survives a logger that throws', () => {
    const errors = new PluginErrors({
      warn: () => {
        throw new Error('logger down');
      },
    });
    expect(() => errors.report('tools/result', 'x')).not.toThrow();
    expect(errors.count).toBe(1);
  });
});

describe('the prompt section', () => {
  it('is short, static and free of template syntax', () => {
    expect(PROMPT_SECTION_TEXT.length).toBeLessThan(1000);
    expect(PROMPT_SECTION_TEXT).not.toContain('{{');
  });
});
