/** Redaction: every secret shape listed in the issue is removed; text without secrets is returned untouched. */
import { describe, expect, it } from 'vitest';
import { previewText, previewValue, redact, REDACTED } from '../src/query.js';

const SECRETS: { label: string; text: string; secret: string }[] = [
  {
    label: 'OpenAI-style key',
    text: 'use key sk-proj-AbCdEf0123456789xyzXYZ please',
    secret: 'AbCdEf0123456789xyzXYZ',
  },
  { label: 'live key', text: 'sk-live-9f8e7d6c5b4a39281706', secret: '9f8e7d6c5b4a39281706' },
  {
    label: 'GitHub classic token',
    text: 'token ghp_0123456789abcdefghijABCDEFGHIJ0123',
    secret: 'ghp_0123456789abcdefghijABCDEFGHIJ0123',
  },
  {
    label: 'GitHub fine-grained token',
    text: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
    secret: '11ABCDEFG0123456789_abcdefghijklmnop',
  },
  { label: 'Slack token', text: 'SLACK=xoxb-123456789012-abcdefABCDEF', secret: 'xoxb-123456789012-abcdefABCDEF' },
  { label: 'AWS access key id', text: 'aws id AKIAIOSFODNN7EXAMPLE here', secret: 'AKIAIOSFODNN7EXAMPLE' },
  {
    label: 'JWT',
    text: 'cookie=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    secret: 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  },
  {
    label: 'Authorization header',
    text: 'curl -H "Authorization: token-abc-123-def" https://x',
    secret: 'token-abc-123-def',
  },
  { label: 'Bearer value', text: 'send Bearer abcDEF123456ghi', secret: 'abcDEF123456ghi' },
  { label: 'Basic value', text: 'Basic dXNlcjpwYXNzd29yZA==', secret: 'dXNlcjpwYXNzd29yZA' },
  { label: 'password= pair', text: 'mysql --host db password=hunter2xyz --verbose', secret: 'hunter2xyz' },
  { label: 'token= query string', text: 'GET /api?user=1&token=q1w2e3r4t5&x=2', secret: 'q1w2e3r4t5' },
  { label: 'secret: YAML', text: 'client_secret: s3cr3tValue', secret: 's3cr3tValue' },
  { label: 'api_key env', text: 'export OPENAI_API_KEY="with spaces inside"', secret: 'with spaces inside' },
  { label: 'JSON password key', text: '{"user":"bob","password":"p@ss \\"quoted\\" w0rd"}', secret: 'w0rd' },
  { label: 'JSON apiKey key', text: "{'apiKey': 'zzTopSecretzz'}", secret: 'zzTopSecretzz' },
  {
    label: 'JSON inside a JSON string',
    text: JSON.stringify(JSON.stringify({ secret: 'in"ner-value' })),
    secret: 'ner-value',
  },
  { label: 'CLI flag', text: 'tool --password hunter3abc --user x', secret: 'hunter3abc' },
  { label: 'curl user:password', text: 'curl -u admin:Pa55w0rdXYZ https://x', secret: 'Pa55w0rdXYZ' },
  { label: 'API key header', text: 'curl -H "X-Api-Key: k3yValue99" https://x', secret: 'k3yValue99' },
  {
    label: 'Stripe secret key as curl user',
    text: 'curl https://api.stripe.com/v1/charges -u sk_live_4eC39HqLyjWDarjtT1zdp7dc:',
    secret: '4eC39HqLyjWDarjtT1zdp7dc',
  },
  {
    label: 'Stripe restricted key in code',
    text: 'const stripe = new Stripe("rk_test_51HxYzAbCdEf0123456789");',
    secret: '51HxYzAbCdEf0123456789',
  },
  {
    label: 'npm token',
    text: 'npm config set //registry.npmjs.org/:_authToken npm_abcdefghijklmnopqrstuvwxyz0123456789',
    secret: 'abcdefghijklmnopqrstuvwxyz0123456789',
  },
  {
    label: 'Hugging Face token',
    text: 'huggingface-cli login hf_abcdefghijklmnopqrstuvwxyzABCDEFGH',
    secret: 'abcdefghijklmnopqrstuvwxyzABCDEFGH',
  },
  { label: 'GitLab token', text: 'glab auth login glpat-abcdefghij1234567890', secret: 'abcdefghij1234567890' },
  {
    label: 'Cookie header',
    text: 'curl -H "Cookie: session=abcdef1234567890abcdef" https://x',
    secret: 'abcdef1234567890abcdef',
  },
  { label: 'URL credentials', text: 'postgres://admin:pw0rdXYZ@db.local/app', secret: 'pw0rdXYZ' },
  {
    label: 'PEM private key',
    text: 'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END RSA PRIVATE KEY-----\nend',
    secret: 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo',
  },
  {
    label: 'PEM key cut before its END',
    text: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
    secret: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
  },
  {
    label: 'PEM key whose BEGIN was cut',
    text: 'gkqhkiG9w0BAQEFAASCxyz\n-----END PRIVATE KEY-----\nafter',
    secret: 'gkqhkiG9w0BAQEFAASCxyz',
  },
];

describe('redact', () => {
  it.each(SECRETS)('removes a $label', ({ text, secret }) => {
    const out = redact(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('REDACTED');
  });

  it.each(SECRETS)('removes a $label inside a JSON-stringified argument object', ({ text, secret }) => {
    const out = previewValue({ command: text, nested: { note: text } }, 10_000);
    expect(out).not.toContain(secret);
  });

  it.each([
    'plain text with nothing to hide',
    'a basic example of a bearer of news',
    '{"path":"/srv/app/index.ts","line":12}',
    'const token_count = tokens.length; // prose about tokens',
    'the token limit is 4096 and the password field is required',
    '{"max_tokens":1000,"maxTokens":5,"input_tokens":12,"model":"deepseek-chat"}',
    'call_0_8f2c rule json-repair tool bash category CODE_RUN_FAILED',
    'git clone ssh://git@github.com/o/r && git checkout -b feature/x && set -x PATH /usr/bin',
    'echo hello | grep h; openssl enc -pass env:PW',
    'const salt = crypto.randomBytes(16); hash = bcrypt(pw, salt=gen_salt())',
    'interface Login { password: string; token?: string; auth_code: number | null }',
    'openai api --max-tokens 100 --temperature 0.2 && zip -r out.zip dir && unzip -o out.zip',
    'ssh-keygen -t ed25519 -C me@example.com -f ~/.ssh/id && setx PATH C:/bin && set -e',
    'Enter your password in the field below, then press login.',
  ])('leaves %j untouched (same string)', (text) => {
    expect(redact(text)).toBe(text);
    expect(previewValue({ text }, 10_000)).toBe(JSON.stringify({ text }));
  });

  it('keeps the label of a redacted pair so the preview still says what was there', () => {
    expect(redact('password=abc123')).toBe(`password=${REDACTED}`);
    expect(redact('Authorization: Bearer xyz987654')).toBe(`Authorization: ${REDACTED}`);
  });
});

describe('previewText', () => {
  it('keeps short text as is', () => {
    expect(previewText('hello', 100)).toBe('hello');
  });

  it('keeps the head and the tail of a long value and says how much was left out', () => {
    const text = `HEAD${'x'.repeat(10_000)}TAIL`;
    const preview = previewText(text, 100);
    expect(preview.startsWith('HEAD')).toBe(true);
    expect(preview.endsWith('TAIL')).toBe(true);
    expect(preview).toContain('chars omitted');
    expect(preview.length).toBeLessThan(140);
  });

  it('redacts a secret that straddles the cut instead of keeping half of it', () => {
    const secret = 'sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
    const text = `${'a'.repeat(40)}${secret}${'b'.repeat(5000)}`;
    const preview = previewText(text, 100);
    expect(preview).not.toContain('ABCDEFGHIJ');
    expect(preview).not.toContain('OPQRSTUVWXYZ');
  });

  it('redacts secrets at both ends of a text too long to redact whole', () => {
    const text = `password=headSecret1 ${'z'.repeat(200_000)} api_key=tailSecret2`;
    const preview = previewText(text, 200);
    expect(preview).not.toContain('headSecret1');
    expect(preview).not.toContain('tailSecret2');
    expect(preview).toContain('chars omitted');
  });

  it('describes values JSON cannot express instead of throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(previewValue(cyclic, 100)).toBe('{"self":"[circular]"}');
    expect(previewValue(10n, 100)).toBe('[unserializable bigint]');
  });
});
