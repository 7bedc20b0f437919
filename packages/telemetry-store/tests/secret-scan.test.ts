/**
 * The secretlint layer on its own: every text is scanned by itself, and no secretlint directive in stored text
 * (any of the four, in any comment syntax, in the same text or another text of the event) switches it off. The
 * tokens are shapes only secretlint's rules know, with fresh random values, so only that layer can catch them.
 */
import { describe, expect, it, vi } from 'vitest';
import { DIRECTIVE_RULE_ID, SLICE_CHARS, SLICE_OVERLAP, scanSecrets } from '../src/secret-scan.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
function random(length: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

/** Tokens only the secretlint layer knows (rule in secretlint-rule-preset-recommend 13.1 in the comment). */
const TOKENS: Record<string, () => string> = {
  shopify: () => `shpat_${random(32)}`, // secretlint-rule-shopify
  databricks: () => `dapi${random(32, HEX)}`, // secretlint-rule-databricks
  groq: () => `gsk_${random(52)}`, // secretlint-rule-groq
  tailscale: () => `tskey-auth-${random(17)}-${random(30)}`, // secretlint-rule-tailscale
  grafanaCloud: () => `glc_${random(48)}`, // secretlint-rule-grafana
  grafanaServiceAccount: () => `glsa_${random(32)}_${random(8, HEX)}`,
  figma: () => `figd_${random(43)}`, // secretlint-rule-figma
  notion: () => `ntn_${random(11, '0123456789')}${random(35)}`, // secretlint-rule-notion (new style)
  vercel: () => `vcp_${random(40)}`, // secretlint-rule-vercel
  cloudflare: () => `cfat_${random(40)}${random(8, HEX)}`, // secretlint-rule-cloudflare
  docker: () => `dckr_pat_${random(27)}`, // secretlint-rule-docker
};

/** An event's free texts with a directive somewhere and the token somewhere (same text or another one). */
type Placement = (token: string) => string[];
const PLACEMENTS: Record<string, Placement> = {
  jsLineComment: (t) => [`// secretlint-disable -- fixture\nconst key = "${t}";`],
  jsBlockComment: (t) => [`/* secretlint-disable */\nexport const key = '${t}';\n/* secretlint-enable */`],
  python: (t) => [`# secretlint-disable -- x\nKEY = "${t}"\n`],
  html: (t) => [`<!-- secretlint-disable -->\n<meta name="k" content="${t}">`],
  disableLine: (t) => [`const key = "${t}"; // secretlint-disable-line`],
  disableNextLine: (t) => [`# secretlint-disable-next-line\nexport KEY=${t}`],
  namedRule: (t) => [`// secretlint-disable @secretlint/secretlint-rule-preset-recommend\n${t}`],
  shellAndYaml: (t) => [`token: ${t} # secretlint-disable-line`],
  spacedAndCased: (t) => [`//secretlint-disable\n#  secretlint-disable   \n  ${t}`],
  inCallId: (t) => ['call_secretlint-disable', `{"command":"deploy ${t}"}`],
  inErrorText: (t) => [`{"code":"x ${t}"}`, 'Error: <!-- secretlint-disable --> failed'],
  inToolNameOrRuleId: (t) => ['secretlint-disable', 'secretlint-disable-next-line', `changed ${t}`],
  directiveAfterToken: (t) => [`${t}\n// secretlint-enable\n// secretlint-disable`],
};

describe('scanSecrets', () => {
  it('finds the token whatever directive the event carries (every placement x every token)', async () => {
    const leaks: string[] = [];
    let cases = 0;
    for (const [tokenName, token] of Object.entries(TOKENS)) {
      for (const [placeName, place] of Object.entries(PLACEMENTS)) {
        const secret = token();
        const texts = place(secret);
        const out = await scanSecrets(texts);
        cases += 1;
        expect(out).toHaveLength(texts.length);
        if (out.some((text) => text.includes(secret.slice(-16)))) leaks.push(`${tokenName} in ${placeName}`);
      }
    }
    expect(cases).toBeGreaterThanOrEqual(100);
    expect(leaks).toEqual([]);
  }, 60_000);

  it('scans each text on its own: a match never spans two texts, and texts without findings come back as they are', async () => {
    const a = `prefix shpat_${random(16)}`;
    const b = `${random(16)} suffix`;
    const texts = [a, b, '', 'plain text about a password field'];
    expect(await scanSecrets(texts)).toEqual(texts);
    const token = `gsk_${random(52)}`;
    const out = await scanSecrets(['keep me', `groq ${token} end`, 'keep me too']);
    expect(out).toEqual(['keep me', 'groq [REDACTED] end', 'keep me too']);
  });

  it('catches a token on the boundary of two scanned pieces of a long text', async () => {
    for (const offset of [-20, -5, 0, 3, SLICE_OVERLAP - 10]) {
      const token = `shpat_${random(40)}`;
      const at = SLICE_CHARS - SLICE_OVERLAP + offset;
      const text = `${'x'.repeat(at - 1)} ${token} ${'y '.repeat(SLICE_CHARS)}`;
      const [out = ''] = await scanSecrets([text]);
      expect(out.includes(token.slice(-20)), `offset ${offset}`).toBe(false);
      expect(out.includes('[REDACTED]')).toBe(true);
    }
  }, 60_000);
});

describe('scanSecrets without the directive rule to leave out', () => {
  it('refuses to run (the store then keeps free text as "secret scan unavailable") instead of honouring directives', async () => {
    vi.resetModules();
    vi.doMock('@secretlint/secretlint-rule-preset-recommend', async (importOriginal) => {
      const real = await importOriginal<typeof import('@secretlint/secretlint-rule-preset-recommend')>();
      // A preset release that renamed the directive rule: its id is no longer the one left out.
      const rules = real.creator.rules.map((rule) =>
        rule.meta.id === DIRECTIVE_RULE_ID ? { ...rule, meta: { ...rule.meta, id: `${DIRECTIVE_RULE_ID}-v2` } } : rule,
      );
      return { ...real, creator: { ...real.creator, rules } };
    });
    try {
      const fresh = await import('../src/secret-scan.js');
      await expect(
        fresh.scanSecrets(['// secretlint-disable\nshpat_0123456789abcdef0123456789abcdef']),
      ).rejects.toThrow(/directives could not be switched off/);
    } finally {
      vi.doUnmock('@secretlint/secretlint-rule-preset-recommend');
      vi.resetModules();
    }
  });
});
