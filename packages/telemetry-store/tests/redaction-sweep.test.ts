/**
 * Generated redaction sweep: hundreds of realistic secret shapes, each with a fresh random secret, placed in every
 * field a caller can fill (arguments at several nesting and escaping depths, error text, changes, tool, category
 * and model names). After a real flush, every file the store wrote (the database, its WAL and shared-memory files
 * as raw bytes, the journal) and the stats and events payloads must contain no 10-character piece of any secret.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, tempDir } from './helpers.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function random(length: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

/** A shape: the secret it hides and the text (or value) it appears in. */
type Shape = () => { secret: string; value: unknown };
const pw = () => random(18);
const shapes: Record<string, Shape> = {
  camelPrivateKey: () => {
    const s = pw();
    return { secret: s, value: { privateKey: s } };
  },
  camelAccessKey: () => {
    const s = pw();
    return { secret: s, value: { accessKey: s } };
  },
  screamingKey: () => {
    const s = pw();
    return { secret: s, value: { DB_PASSWORD: s } };
  },
  kebabKey: () => {
    const s = pw();
    return { secret: s, value: { 'client-secret': s } };
  },
  numericPassword: () => {
    const s = String(100000000 + Math.floor(Math.random() * 800000000)) + random(4, '0123456789');
    return { secret: s, value: { password: Number(s) } };
  },
  arrayPassword: () => {
    const s = pw();
    return { secret: s, value: { password: [s] } };
  },
  jsObjectArray: () => {
    const s = pw();
    return { secret: s, value: `const cfg = {password: ['${s}']}` };
  },
  deepEscaped: () => {
    const s = pw();
    let v: unknown = { token: s };
    for (let i = 0; i < 6; i += 1) v = JSON.stringify(v);
    return { secret: s, value: { payload: v } };
  },
  redisEmptyUser: () => {
    const s = pw();
    return { secret: s, value: `redis-cli -u redis://:${s}@cache.local:6379` };
  },
  urlAtInPassword: () => {
    const s = pw();
    return { secret: s, value: `git clone https://bob:${s.slice(0, 9)}@${s.slice(9)}@git.example.com/r.git` };
  },
  awsConfigure: () => {
    const s = random(40);
    return { secret: s, value: `aws configure set aws_secret_access_key ${s}` };
  },
  pgpBlock: () => {
    const s = random(64);
    return {
      secret: s,
      value: `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF${s}\n=abcd\n-----END PGP PRIVATE KEY BLOCK-----`,
    };
  },
  pemKey: () => {
    const s = random(64);
    return { secret: s, value: `-----BEGIN OPENSSH PRIVATE KEY-----\n${s}\n-----END OPENSSH PRIVATE KEY-----` };
  },
  mysqlP: () => {
    const s = pw();
    return { secret: s, value: `mysql -u root -p${s} -h db app` };
  },
  mysqlPwd: () => {
    const s = pw();
    return { secret: s, value: `MYSQL_PWD=${s} mysql -u root app` };
  },
  sshpass: () => {
    const s = pw();
    return { secret: s, value: `sshpass -p ${s} ssh deploy@host uptime` };
  },
  dockerLogin: () => {
    const s = pw();
    return { secret: s, value: `docker login -u bot -p ${s} registry.example.com` };
  },
  curlUser: () => {
    const s = pw();
    return { secret: s, value: `curl -u admin:${s} https://api.example.com` };
  },
  netrc: () => {
    const s = pw();
    return { secret: s, value: `machine api.example.com\n  login bob\n  password ${s}\n` };
  },
  dockerAuth: () => {
    const s = random(32);
    return { secret: s, value: `{"auths":{"registry.example.com":{"auth":"${s}"}}}` };
  },
  azure: () => {
    const s = random(44);
    return {
      secret: s,
      value: `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${s};EndpointSuffix=core.windows.net`,
    };
  },
  slackWebhook: () => {
    const s = random(24);
    return { secret: s, value: `curl -X POST https://hooks.slack.com/services/T${random(8)}/B${random(8)}/${s}` };
  },
  xapp: () => {
    const s = random(30);
    return { secret: s, value: `SLACK_APP=xapp-1-A0${s}` };
  },
  envAmp: () => {
    const s = `${random(8)}&${random(8)};${random(8)}`;
    return { secret: s.slice(9, 17), value: `API_TOKEN=${s}\nOTHER=1` };
  },
  envFile: () => {
    const s = pw();
    return { secret: s, value: `export STRIPE_SECRET="${s}"` };
  },
  openai: () => {
    const s = random(40);
    return { secret: s, value: `OPENAI=sk-proj-${s}` };
  },
  anthropic: () => {
    const s = random(93);
    return { secret: s, value: `key sk-ant-api03-${s}AA` };
  },
  github: () => {
    const s = random(36);
    return { secret: s, value: `git push https://ghp_${s}@github.com/o/r` };
  },
  jwt: () => {
    const s = random(43);
    return { secret: s, value: `Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${s}` };
  },
  bearer: () => {
    const s = random(30);
    return { secret: s, value: `curl -H 'Authorization: Bearer ${s}' https://x` };
  },
  postgres: () => {
    const s = pw();
    return { secret: s, value: `psql postgres://app:${s}@db.example.com:5432/app` };
  },
  mongo: () => {
    const s = pw();
    return { secret: s, value: `mongodb+srv://user:${s}@cluster0.example.net/db` };
  },
  djangoSettings: () => {
    const s = pw();
    return { secret: s, value: `SECRET_KEY = "${s}"` };
  },
  tomlPassword: () => {
    const s = pw();
    return { secret: s, value: `[database]\npassword = "${s}"\n` };
  },
  pySubscript: () => {
    const s = random(32);
    return { secret: s, value: `os.environ['SERVICE_TOKEN'] = '${s}'` };
  },
  goSetenv: () => {
    const s = random(32);
    return { secret: s, value: `os.Setenv("API_TOKEN", "${s}")` };
  },
  googleOauth: () => {
    const s = random(60, `${ALNUM}_-`);
    return { secret: s, value: `gcloud auth print-access-token\nya29.${s}` };
  },
  sendgrid: () => {
    const s = `${random(22, `${ALNUM}_-`)}.${random(43, `${ALNUM}_-`)}`;
    return { secret: s, value: `SENDGRID=SG.${s}` };
  },
  odbc: () => {
    const s = pw();
    return { secret: s, value: `Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd=${s};` };
  },
  curlCookieFlag: () => {
    const s = random(40);
    return { secret: s, value: `curl -b 'session=${s}' https://app.example.com` };
  },
  redisCli: () => {
    const s = pw();
    return { secret: s, value: `redis-cli -h cache -a ${s} ping` };
  },
  sqlcmd: () => {
    const s = pw();
    return { secret: s, value: `sqlcmd -S db -U sa -P '${s}' -Q "SELECT 1"` };
  },
  opensslPass: () => {
    const s = pw();
    return { secret: s, value: `openssl enc -aes-256-cbc -in a -out a.enc -pass pass:${s}` };
  },
  opensslPassout: () => {
    const s = pw();
    return { secret: s, value: `openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:${s}` };
  },
  keytool: () => {
    const s = pw();
    return { secret: s, value: `keytool -importcert -keystore ks.jks -storepass ${s} -file c.crt` };
  },
  htpasswd: () => {
    const s = pw();
    return { secret: s, value: `htpasswd -b -c .htpasswd admin ${s}` };
  },
  dockerStdin: () => {
    const s = pw();
    return { secret: s, value: `echo "${s}" | docker login ghcr.io -u ci --password-stdin` };
  },
  ghSecretSet: () => {
    const s = pw();
    return { secret: s, value: `gh secret set NPM_TOKEN --body "${s}"` };
  },
  dotnetSecrets: () => {
    const s = pw();
    return { secret: s, value: `dotnet user-secrets set "Db:Password" "${s}"` };
  },
  fishSet: () => {
    const s = random(32);
    return { secret: s, value: `set -x GITHUB_TOKEN ${s}` };
  },
  mavenXml: () => {
    const s = pw();
    return { secret: s, value: `<server><id>nexus</id><password>${s}</password></server>` };
  },
  pgpass: () => {
    const s = pw();
    return { secret: s, value: `echo "db.internal:5432:app:app:${s}" >> ~/.pgpass` };
  },
  httpieAuth: () => {
    const s = pw();
    return { secret: s, value: `http -a alice:${s} GET https://api.example.com` };
  },
  twine: () => {
    const s = random(60);
    return { secret: s, value: `twine upload -u __token__ -p pypi-${s} dist/*` };
  },
  vaultLogin: () => {
    const s = random(24);
    return { secret: s, value: `vault login hvs.${s}` };
  },
  discordWebhook: () => {
    const s = random(68, `${ALNUM}_-`);
    return { secret: s, value: `https://discord.com/api/webhooks/971362713835625028/${s}` };
  },
  telegramBot: () => {
    const s = random(35, `${ALNUM}_-`);
    return { secret: s, value: `curl https://api.telegram.org/bot0278762436:${s}/getMe` };
  },
  laravelKey: () => {
    const s = random(44);
    return { secret: s, value: `APP_KEY=base64:${s}` };
  },
  puttyKey: () => {
    const s = random(64);
    return {
      secret: s,
      value: `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n${s}\nPrivate-MAC: ${random(64, '0123456789abcdef')}`,
    };
  },
  chpasswd: () => {
    const s = pw();
    return { secret: s, value: `echo 'deploy:${s}' | chpasswd` };
  },
  wranglerStdin: () => {
    const s = pw();
    return { secret: s, value: `echo "${s}" | wrangler secret put API_KEY` };
  },
  rclone: () => {
    const s = pw();
    return { secret: s, value: `rclone config create s3 s3 access_key_id AKIAX secret_access_key ${s}` };
  },
  sentryDsn: () => {
    const s = random(32, '0123456789abcdef');
    return { secret: s, value: `SENTRY_DSN=https://${s}@o12345.ingest.sentry.io/678` };
  },
  cliFlag: () => {
    const s = pw();
    return { secret: s, value: `deploy --api-key=${s} --env prod` };
  },
};

type Placement = (value: unknown) => Record<string, unknown>;
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const placements: Record<string, Placement> = {
  argument: (value) => ({ before: { command: value } }),
  nestedArgument: (value) => ({
    before: { steps: [{ run: value }] },
    after: { code: `await tools.bash(${JSON.stringify({ command: value })})` },
  }),
  error: (value) => ({ error: `Error: command failed: ${asText(value)}` }),
  changes: (value) => ({ changes: [`ran ${asText(value)}`] }),
  toolName: (value) => ({ tool: asText(value) }),
  categoryAndModel: (value) => ({ category: asText(value), model: asText(value) }),
  escapedThreeTimes: (value) => {
    let text: unknown = { command: value };
    for (let i = 0; i < 3; i += 1) text = JSON.stringify(text);
    return { before: { arguments: text } };
  },
};

describe('redaction sweep', () => {
  it('leaks no piece of any of hundreds of fresh secrets to any file or payload', async () => {
    const dir = tempDir();
    const { store } = openStore({ dir, maxQueuedEvents: 5000 });
    const secrets: { secret: string; label: string }[] = [];
    for (let round = 0; round < 2; round += 1) {
      for (const [shapeName, shape] of Object.entries(shapes)) {
        for (const [placeName, place] of Object.entries(placements)) {
          const { secret, value } = shape();
          secrets.push({ secret, label: `${shapeName} in ${placeName}` });
          store.record({ tool: 'bash', category: 'SHELL', outcome: 'healed-failed', ruleIds: ['r'], ...place(value) });
        }
      }
    }
    expect(secrets.length).toBeGreaterThanOrEqual(300);
    await store.flush();
    const payloads = [
      JSON.stringify(store.stats({ limit: 1000 })),
      JSON.stringify(await store.queryEvents({ limit: 1000 })),
    ];
    const files = readdirSync(dir).map((name) => readFileSync(join(dir, name)).toString('latin1'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    const leaks: string[] = [];
    for (const { secret, label } of secrets) {
      const pieces = new Set<string>();
      for (let i = 0; i + 10 <= secret.length; i += 1) pieces.add(secret.slice(i, i + 10));
      const where = [...payloads, ...files].findIndex((haystack) =>
        [...pieces].some((piece) => haystack.includes(piece)),
      );
      if (where !== -1) leaks.push(`${label} (${where < payloads.length ? 'payload' : 'file'})`);
    }
    expect([...new Set(leaks)]).toEqual([]);
    await store.close();
  }, 120_000);
});
