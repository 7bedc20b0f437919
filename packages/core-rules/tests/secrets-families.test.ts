/**
 * The secret families of issue 30, generated with fresh values (tests/secret-families.ts): after `redact`, no
 * 8-character piece of any secret is left, whatever the name's case style, the syntax, the glue or the line the
 * label is on, also inside a secretlint-disable block and inside JSON-encoded file content; and valid text that
 * only looks like these shapes comes back unchanged.
 */
import { describe, expect, it } from 'vitest';
import { redact } from '../src/secrets.js';
import {
  LOOK_ALIKES,
  PROVIDER_TOKENS,
  leakedPiece,
  namedCases,
  nextLineCases,
  providerCases,
  type Case,
} from './secret-families.js';

/** The labels of the cases whose secret still has a piece in the redacted text, with that piece. */
function leaks(cases: readonly Case[]): string[] {
  const found: string[] = [];
  for (const { label, text, secret } of cases) {
    const out = redact(text);
    const piece = leakedPiece(secret, out);
    if (piece !== undefined) found.push(`${label}: ${JSON.stringify(out).slice(0, 200)}`);
  }
  return found;
}

describe('secret families (issue 30)', () => {
  it('a credential under a name ending in a secret word, in any case style and syntax, is removed', () => {
    const cases = namedCases();
    expect(cases.length).toBeGreaterThan(2000);
    expect(leaks(cases)).toEqual([]);
  });

  it("every token prefix of secretlint's preset is removed: bare, under auth:, glued by - _ . :, under a label", () => {
    expect(Object.keys(PROVIDER_TOKENS).length).toBeGreaterThanOrEqual(50);
    const cases = providerCases();
    expect(cases.length).toBeGreaterThan(2000);
    expect(leaks(cases)).toEqual([]);
  });

  it('a value on the line after its label is removed (newline, CRLF, indented, blank line; raw or encoded)', () => {
    expect(leaks(nextLineCases())).toEqual([]);
  });

  it('the issue shapes: twilioAuth in a directive block, ops_ under auth:, a JWT glued in a model name, xapp after a label', () => {
    const hex = PROVIDER_TOKENS.databricks?.().slice(4) as string;
    const ops = PROVIDER_TOKENS['onepassword-ops']?.() as string;
    const token = PROVIDER_TOKENS.jwt?.() as string;
    const xapp = PROVIDER_TOKENS['slack-xapp']?.() as string;
    const twilio = redact(`// secretlint-disable\nconst twilioAuth = '${hex}';\n`);
    expect(twilio).toBe("// secretlint-disable\nconst twilioAuth = '[REDACTED]';\n");
    expect(redact(`const op = new OnePassword({ auth: '${ops}' });`)).toBe(
      "const op = new OnePassword({ auth: '[REDACTED]' });",
    );
    expect(redact(`gpt-${token}`)).toBe('gpt-[REDACTED]:jwt');
    const file = JSON.stringify({ path: '.env.example', content: `# Slack app-level token\n${xapp}\n` });
    expect(redact(file)).toBe(
      JSON.stringify({ path: '.env.example', content: '# Slack app-level token\n[REDACTED]\n' }),
    );
  });

  it('a plain-word value is a secret under a Pass, Creds or Salt name, a setting under an Auth name', () => {
    const word = 'sunshine';
    expect(redact(`const adminPass = "${word}";`)).toBe('const adminPass = "[REDACTED]";');
    expect(redact(`db-creds: '${word}'`)).toBe("db-creds: '[REDACTED]'");
    expect(redact(`const twilioAuth = 'Basic';`)).toBe("const twilioAuth = 'Basic';");
    expect(redact(`{ auth: "oauth", retries: 3 }`)).toBe('{ auth: "oauth", retries: 3 }');
  });

  it('valid look-alikes are returned unchanged', () => {
    const changed = LOOK_ALIKES.filter((text) => redact(text) !== text).map((text) => `${text} -> ${redact(text)}`);
    expect(changed).toEqual([]);
    for (const text of LOOK_ALIKES)
      expect(redact(JSON.stringify({ content: `${text}\n${text}` }))).toBe(
        JSON.stringify({ content: `${text}\n${text}` }),
      );
  });
});
