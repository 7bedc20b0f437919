/**
 * The generated redaction sweep's shapes: realistic ways a secret appears in what a model sends and what a tool
 * answers, each with a fresh random secret per call, in three classes: `labelled` (a secret-named key, flag,
 * header or credential syntax right next to the value), `provider` (a token known by its prefix) and
 * `unlabelled` (base64, URL-encoded, hex or positional: nothing says it is a secret). Placements put a value
 * where the adapter records it (tool arguments in before/after, program code, error text, callId, changes,
 * names), including beside secretlint directives. Shared by tests/redaction-sweep.test.ts and bench/sweep.bench.mjs;
 * plain TypeScript (type stripping) so the bench loads it.
 */

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export function random(length: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

export type ShapeClass = 'labelled' | 'provider' | 'unlabelled';
/** A shape: the secret it hides and the text (or value) it appears in. */
type Make = () => { secret: string; value: unknown };
export interface Shape {
  cls: ShapeClass;
  make: Make;
}
const pw = () => random(18);

/** Shapes of the first sweep (labelled unless their name is in `FIRST_PROVIDER`). */
const FIRST: Record<string, Make> = {
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
const FIRST_PROVIDER = new Set([
  'openai',
  'anthropic',
  'github',
  'jwt',
  'googleOauth',
  'sendgrid',
  'slackWebhook',
  'xapp',
  'twine',
  'vaultLogin',
  'discordWebhook',
  'telegramBot',
  'sentryDsn',
  'laravelKey',
]);

/** Shapes the outside review listed, secretlint-only tokens, and more of our own. */
const MORE: Record<string, Shape> = {
  sudoS: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `echo '${s}' | sudo -S apt-get install -y jq` };
    },
  },
  sudoStdin: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `printf "%s\\n" ${s} | sudo --stdin systemctl restart app` };
    },
  },
  npmrcAuth: {
    cls: 'labelled',
    make: () => {
      const s = random(40);
      return { secret: s, value: `//registry.npmjs.org/:_auth=${s}\nalways-auth=true` };
    },
  },
  npmrcAuthToken: {
    cls: 'labelled',
    make: () => {
      const s = random(36);
      return { secret: s, value: `//npm.pkg.github.com/:_authToken=${s}` };
    },
  },
  templateLiteral: {
    cls: 'labelled',
    make: () => {
      const s = `${random(12)} ${random(12)} ${random(12)}`;
      return { secret: s, value: `const passphrase = \`${s}\`;` };
    },
  },
  redisServer: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `redis-server --port 6380 --requirepass ${s} --appendonly yes` };
    },
  },
  redisConf: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `bind 127.0.0.1\nrequirepass ${s}\nmaxmemory 2gb` };
    },
  },
  amzSignature: {
    cls: 'labelled',
    make: () => {
      const s = random(64, '0123456789abcdef');
      return {
        secret: s,
        value: `curl "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T000000Z&X-Amz-Signature=${s}"`,
      };
    },
  },
  k8sTlsKey: {
    cls: 'labelled',
    make: () => {
      const s = random(64);
      return {
        secret: s,
        value: `apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.crt: LS0tLS1CRUdJTg==\n  tls.key: ${s}\n`,
      };
    },
  },
  credEnv: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `AWS_CRED=${s}` };
    },
  },
  credsEnv: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `export SERVICE_CREDS=${s}` };
    },
  },
  saltEnv: {
    cls: 'labelled',
    make: () => {
      const s = random(48);
      return { secret: s, value: `WP_SECURE_AUTH_SALT=${s}` };
    },
  },
  authCode: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `auth_code: ${s}` };
    },
  },
  urlHashPassword: {
    cls: 'labelled',
    make: () => {
      const s = `${random(8)}#${random(10)}`;
      return { secret: s, value: `psql "postgresql://admin:${s}@db.example.com:5432/app"` };
    },
  },
  pythonAuthTuple: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `requests.get(url, auth=("admin", "${s}"))` };
    },
  },
  pythonBasicAuth: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `HTTPBasicAuth('admin', '${s}')` };
    },
  },
  pgpassword: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `PGPASSWORD=${s} psql -h db -U app` };
    },
  },
  composePassword: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: ${s}\n` };
    },
  },
  dockerfileEnv: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `FROM node:22\nENV API_KEY=${s}\nRUN npm ci` };
    },
  },
  dockerfileArg: {
    cls: 'labelled',
    make: () => {
      const s = random(36);
      return { secret: s, value: `ARG NPM_TOKEN=${s}` };
    },
  },
  powershellEnv: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `$env:API_KEY = "${s}"` };
    },
  },
  cmdSet: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `set DB_PASSWORD=${s}` };
    },
  },
  springProperty: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `spring.datasource.password=${s}` };
    },
  },
  jdbcPassword: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=${s};` };
    },
  },
  dockerRunEnv: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `docker run -e POSTGRES_PASSWORD=${s} -d postgres:16` };
    },
  },
  kubectlLiteral: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `kubectl create secret generic db --from-literal=password=${s}` };
    },
  },
  herokuConfig: {
    cls: 'labelled',
    make: () => {
      const s = random(32);
      return { secret: s, value: `heroku config:set API_KEY=${s} -a app` };
    },
  },
  wgetPassword: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `wget --user=bob --password=${s} https://x/file` };
    },
  },
  ftpUrl: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `curl ftp://bob:${s}@ftp.example.com/pub/` };
    },
  },
  amqpUrl: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `AMQP_URL=amqp://guest:${s}@mq:5672/` };
    },
  },
  gitCredentials: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `https://bob:${s}@github.com` };
    },
  },
  yamlSecret: {
    cls: 'labelled',
    make: () => {
      const s = random(40);
      return { secret: s, value: `jwt_secret: ${s}\nport: 8080` };
    },
  },
  jsonPassphrase: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `{"passphrase":"${s}","cipher":"aes"}` };
    },
  },
  encryptionKey: {
    cls: 'labelled',
    make: () => {
      const s = random(32);
      return { secret: s, value: `encryptionKey: "${s}"` };
    },
  },
  apiKeyHeader: {
    cls: 'labelled',
    make: () => {
      const s = random(32);
      return { secret: s, value: `curl -H 'X-API-Key: ${s}' https://api.example.com` };
    },
  },
  privateTokenHeader: {
    cls: 'labelled',
    make: () => {
      const s = random(20);
      return { secret: s, value: `curl --header "PRIVATE-TOKEN: ${s}" https://gitlab.example.com/api/v4/projects` };
    },
  },
  setCookieHeader: {
    cls: 'labelled',
    make: () => {
      const s = random(32);
      return { secret: s, value: `Set-Cookie: sid=${s}; HttpOnly` };
    },
  },
  mysqlPasswordFlag: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `mysql --user=root --password=${s} app` };
    },
  },
  mongoPassword: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `mongosh --username admin --password ${s} --authenticationDatabase admin` };
    },
  },
  pypirc: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `[pypi]\nusername = __token__\npassword = ${s}\n` };
    },
  },
  iniSecret: {
    cls: 'labelled',
    make: () => {
      const s = random(32);
      return { secret: s, value: `[auth]\nclient_secret = ${s}\n` };
    },
  },
  tfvars: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `db_password = "${s}"` };
    },
  },
  goStruct: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `cfg := Config{Password: "${s}"}` };
    },
  },
  rubyHash: {
    cls: 'labelled',
    make: () => {
      const s = random(32);
      return { secret: s, value: `config.api_key = '${s}'` };
    },
  },
  phpDefine: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `define('DB_PASSWORD', '${s}');` };
    },
  },
  csharpConn: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `"Server=db;Database=app;User Id=sa;Password=${s};"` };
    },
  },
  zipPassword: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `zip -P ${s} backup.zip data.sql` };
    },
  },
  sevenZip: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `7z a -p${s} backup.7z data` };
    },
  },
  sshKeygenN: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `ssh-keygen -t ed25519 -N ${s} -f ~/.ssh/id_deploy` };
    },
  },
  setx: {
    cls: 'labelled',
    make: () => {
      const s = random(32);
      return { secret: s, value: `setx API_TOKEN ${s}` };
    },
  },
  bearerInJs: {
    cls: 'labelled',
    make: () => {
      const s = random(40);
      return { secret: s, value: `fetch(url, { headers: { Authorization: \`Bearer ${s}\` } })` };
    },
  },
  awsSecretEnv: {
    cls: 'labelled',
    make: () => {
      const s = random(40);
      return { secret: s, value: `AWS_SECRET_ACCESS_KEY=${s}` };
    },
  },
  sessionIdQuery: {
    cls: 'labelled',
    make: () => {
      const s = random(32);
      return { secret: s, value: `GET /app?session_id=${s}&page=2` };
    },
  },
  signingKey: {
    cls: 'labelled',
    make: () => {
      const s = random(40);
      return { secret: s, value: `SIGNING_KEY: ${s}` };
    },
  },
  shopify: {
    cls: 'provider',
    make: () => {
      const s = random(32);
      return { secret: s, value: `SHOPIFY=shpat_${s}` };
    },
  },
  databricks: {
    cls: 'provider',
    make: () => {
      const s = random(32, '0123456789abcdef');
      return { secret: s, value: `databricks configure --token dapi${s}` };
    },
  },
  groq: {
    cls: 'provider',
    make: () => {
      const s = random(52);
      return { secret: s, value: `GROQ: gsk_${s}` };
    },
  },
  tailscale: {
    cls: 'provider',
    make: () => {
      const s = random(30);
      return { secret: s, value: `tailscale up --authkey tskey-auth-k${random(16)}-${s}` };
    },
  },
  grafanaCloud: {
    cls: 'provider',
    make: () => {
      const s = random(48);
      return { secret: s, value: `grafana glc_${s}` };
    },
  },
  grafanaSa: {
    cls: 'provider',
    make: () => {
      const s = random(32);
      return { secret: s, value: `glsa_${s}_${random(8, '0123456789abcdef')}` };
    },
  },
  figma: {
    cls: 'provider',
    make: () => {
      const s = random(43);
      return { secret: s, value: `figma figd_${s}` };
    },
  },
  notionNew: {
    cls: 'provider',
    make: () => {
      const s = random(35);
      return { secret: s, value: `notion ntn_${random(11, '0123456789')}${s}` };
    },
  },
  notionOld: {
    cls: 'provider',
    make: () => {
      const s = random(43);
      return { secret: s, value: `NOTION_KEY secret_${s}` };
    },
  },
  vercel: {
    cls: 'provider',
    make: () => {
      const s = random(24);
      return { secret: s, value: `vercel --token vcp_${s}` };
    },
  },
  cloudflare: {
    cls: 'provider',
    make: () => {
      const s = random(40);
      return { secret: s, value: `cf cfat_${s}${random(8, '0123456789abcdef')}` };
    },
  },
  dockerPat: {
    cls: 'provider',
    make: () => {
      const s = random(27);
      return { secret: s, value: `docker dckr_pat_${s}` };
    },
  },
  stripeWebhook: {
    cls: 'provider',
    make: () => {
      const s = random(32);
      return { secret: s, value: `STRIPE_WEBHOOK whsec_${s}` };
    },
  },
  onePassword: {
    cls: 'provider',
    make: () => {
      const s = random(120);
      return { secret: s, value: `op ops_eyJ${s}` };
    },
  },
  terraformCloud: {
    cls: 'provider',
    make: () => {
      const s = random(70);
      return { secret: s, value: `credentials "app.terraform.io" { token = ${random(14)}.atlasv1.${s} }` };
    },
  },
  slackAppLevel: {
    cls: 'provider',
    make: () => {
      const s = random(64);
      return { secret: s, value: `socket mode xapp-1-A0${random(9)}-${random(13, '0123456789')}-${s}` };
    },
  },
  googleKeyDash: {
    cls: 'provider',
    make: () => {
      const s = random(34, `${ALNUM}_-`);
      return { secret: s, value: `maps AIza${s}-` };
    },
  },
  googleKeyUnderscore: {
    cls: 'provider',
    make: () => {
      const s = random(34, `${ALNUM}_-`);
      return { secret: s, value: `maps AIza${s}_` };
    },
  },
  discordBot: {
    cls: 'provider',
    make: () => {
      const s = random(38, `${ALNUM}_-`);
      return { secret: s, value: `client.login('MT${random(24)}.${random(6)}.${s}')` };
    },
  },
  githubServer: {
    cls: 'provider',
    make: () => {
      const s = random(36);
      return { secret: s, value: `ghs_${s}` };
    },
  },
  githubOauth: {
    cls: 'provider',
    make: () => {
      const s = random(36);
      return { secret: s, value: `gho_${s}` };
    },
  },
  githubFine: {
    cls: 'provider',
    make: () => {
      const s = random(82);
      return { secret: s, value: `github_pat_${s}` };
    },
  },
  gitlabPat: {
    cls: 'provider',
    make: () => {
      const s = random(20);
      return { secret: s, value: `glpat-${s}` };
    },
  },
  stripeLive: {
    cls: 'provider',
    make: () => {
      const s = random(24);
      return { secret: s, value: `sk_live_${s}` };
    },
  },
  stripeRestricted: {
    cls: 'provider',
    make: () => {
      const s = random(24);
      return { secret: s, value: `rk_live_${s}` };
    },
  },
  npmToken: {
    cls: 'provider',
    make: () => {
      const s = random(36);
      return { secret: s, value: `npm_${s}` };
    },
  },
  hfToken: {
    cls: 'provider',
    make: () => {
      const s = random(34);
      return { secret: s, value: `hf_${s}` };
    },
  },
  vaultService: {
    cls: 'provider',
    make: () => {
      const s = random(90);
      return { secret: s, value: `hvs.${s}` };
    },
  },
  anthropic2: {
    cls: 'provider',
    make: () => {
      const s = random(93);
      return { secret: s, value: `sk-ant-api03-${s}AA` };
    },
  },
  slackBot: {
    cls: 'provider',
    make: () => {
      const s = random(24);
      return { secret: s, value: `xoxb-${random(12, '0123456789')}-${random(12, '0123456789')}-${s}` };
    },
  },
  awsKeyId: {
    cls: 'provider',
    make: () => {
      const s = random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');
      return { secret: s, value: `aws_access_key_id = AKIA${s}` };
    },
  },
  linear: {
    cls: 'provider',
    make: () => {
      const s = random(40);
      return { secret: s, value: `lin_api_${s}` };
    },
  },
  digitalOcean: {
    cls: 'provider',
    make: () => {
      const s = random(64, '0123456789abcdef');
      return { secret: s, value: `doctl auth init -t dop_v1_${s}` };
    },
  },
  planetScale: {
    cls: 'provider',
    make: () => {
      const s = random(43);
      return { secret: s, value: `pscale_tkn_${s}` };
    },
  },
  rubygems: {
    cls: 'provider',
    make: () => {
      const s = random(48, '0123456789abcdef');
      return { secret: s, value: `rubygems_${s}` };
    },
  },
  sentryAuth: {
    cls: 'provider',
    make: () => {
      const s = random(60);
      return { secret: s, value: `SENTRY_AUTH sntrys_${s}` };
    },
  },
  postman: {
    cls: 'provider',
    make: () => {
      const s = random(34, '0123456789abcdef');
      return { secret: s, value: `PMAK-${random(24, '0123456789abcdef')}-${s}` };
    },
  },
  brevo: {
    cls: 'provider',
    make: () => {
      const s = random(64, '0123456789abcdef');
      return { secret: s, value: `xkeysib-${s}-${random(16)}` };
    },
  },
  atlassian: {
    cls: 'provider',
    make: () => {
      const s = random(180);
      return { secret: s, value: `ATATT3${s}` };
    },
  },
  doppler: {
    cls: 'provider',
    make: () => {
      const s = random(43);
      return { secret: s, value: `dp.pt.${s}` };
    },
  },
  pulumi: {
    cls: 'provider',
    make: () => {
      const s = random(40, '0123456789abcdef');
      return { secret: s, value: `pul-${s}` };
    },
  },
  replicate: {
    cls: 'provider',
    make: () => {
      const s = random(37);
      return { secret: s, value: `r8_${s}` };
    },
  },
  perplexity: {
    cls: 'provider',
    make: () => {
      const s = random(48);
      return { secret: s, value: `pplx-${s}` };
    },
  },
  xai: {
    cls: 'provider',
    make: () => {
      const s = random(80);
      return { secret: s, value: `xai-${s}` };
    },
  },
  nvidia: {
    cls: 'provider',
    make: () => {
      const s = random(64);
      return { secret: s, value: `nvapi-${s}` };
    },
  },
  tavily: {
    cls: 'provider',
    make: () => {
      const s = random(32);
      return { secret: s, value: `tvly-${s}` };
    },
  },
  ageKey: {
    cls: 'provider',
    make: () => {
      const s = random(58, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
      return { secret: s, value: `AGE-SECRET-KEY-1${s}` };
    },
  },
  gitlabTrigger: {
    cls: 'provider',
    make: () => {
      const s = random(20);
      return { secret: s, value: `glptt-${s}` };
    },
  },
  square: {
    cls: 'provider',
    make: () => {
      const s = random(22);
      return { secret: s, value: `sq0atp-${s}` };
    },
  },
  mailgun: {
    cls: 'provider',
    make: () => {
      const s = random(32, '0123456789abcdef');
      return { secret: s, value: `MG key-${s}` };
    },
  },
  twilio: {
    cls: 'provider',
    make: () => {
      const s = random(32, '0123456789abcdef');
      return { secret: s, value: `TWILIO SK${s}` };
    },
  },
  facebook: {
    cls: 'provider',
    make: () => {
      const s = random(120);
      return { secret: s, value: `FB EAA${s}` };
    },
  },
  base64Credentials: {
    cls: 'unlabelled',
    make: () => {
      const s = Buffer.from(`admin:${random(18)}`)
        .toString('base64')
        .slice(8);
      return { secret: s, value: `curl -H "X-Creds: ${s}" https://x` };
    },
  },
  urlEncodedPassword: {
    cls: 'unlabelled',
    make: () => {
      const s = random(18);
      return { secret: s, value: `curl "https://x/login?u=bob&p%61ss=${encodeURIComponent(`${s}!@`)}"` };
    },
  },
  hexStandalone: {
    cls: 'unlabelled',
    make: () => {
      const s = random(40, '0123456789abcdef');
      return { secret: s, value: `deploy --env prod ${s}` };
    },
  },
  positionalArg: {
    cls: 'unlabelled',
    make: () => {
      const s = random(24);
      return { secret: s, value: `mycli login bob ${s}` };
    },
  },
  proseLabel: {
    cls: 'unlabelled',
    make: () => {
      const s = random(18);
      return { secret: s, value: `the password is ${s}, please rotate it` };
    },
  },
  echoToFile: {
    cls: 'unlabelled',
    make: () => {
      const s = random(24);
      return { secret: s, value: `echo ${s} > /tmp/.key` };
    },
  },
  base64Blob: {
    cls: 'unlabelled',
    make: () => {
      const s = Buffer.from(random(30)).toString('base64');
      return { secret: s, value: `decode ${s}` };
    },
  },
  hexInJson: {
    cls: 'unlabelled',
    make: () => {
      const s = random(64, '0123456789abcdef');
      return { secret: s, value: `{"value":"${s}","kind":"hmac"}` };
    },
  },
};

/** A base64url JSON segment (`eyJ...`), for JWTs and 1Password tokens with fresh contents. */
const jsonSegment = (value: Record<string, unknown>) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Issue 30: the shapes that still reached the files, and their families (fresh values each call). */
const ISSUE_30: Record<string, Shape> = {
  camelAuthInProgram: {
    cls: 'labelled',
    make: () => {
      const s = random(32, '0123456789abcdef');
      return { secret: s, value: `// secretlint-disable\nconst twilioAuth = '${s}';\nawait sms(twilioAuth);` };
    },
  },
  camelSecretWords: {
    cls: 'labelled',
    make: () => {
      const s = random(24);
      return { secret: s, value: `const stripeSecret = "${s}"; const githubToken = '${s}'; apiKey := "${s}"` };
    },
  },
  kebabPass: {
    cls: 'labelled',
    make: () => {
      const s = `${random(15)}7`;
      return { secret: s, value: `db-pass: ${s}\ndb-password: ${s}\nclientCreds = "${s}"` };
    },
  },
  typedAdminToken: {
    cls: 'labelled',
    make: () => {
      const s = random(30);
      return { secret: s, value: `export const adminToken: string = "${s}";` };
    },
  },
  onePasswordUnderAuth: {
    cls: 'provider',
    make: () => {
      const s = jsonSegment({ signInAddress: `${random(8)}.1password.com`, srpX: random(64), secretKey: random(34) });
      return { secret: s.slice(8), value: `const op = createClient({ auth: 'ops_${s}', integrationName: 'ci' });` };
    },
  },
  jwtGluedModel: {
    cls: 'provider',
    make: () => {
      const s = `${jsonSegment({ sub: random(16), exp: 1 })}.${random(43)}`;
      return { secret: s.slice(8), value: `gpt-${jsonSegment({ alg: 'HS256', typ: 'JWT' })}.${s}` };
    },
  },
  jwtGluedUnderscore: {
    cls: 'provider',
    make: () => {
      const s = `${jsonSegment({ sub: random(16), exp: 2 })}.${random(43)}`;
      return { secret: s.slice(8), value: `FILE_READ_${jsonSegment({ alg: 'RS256' })}.${s}` };
    },
  },
  slackAppAfterLabel: {
    cls: 'provider',
    make: () => {
      const s = random(64, '0123456789abcdef');
      return { secret: s, value: `# Slack app-level token\nxapp-1-A0${random(9)}-${random(13, '0123456789')}-${s}\n` };
    },
  },
  tokenAfterLabelLine: {
    cls: 'provider',
    make: () => {
      const s = random(36);
      return { secret: s, value: `GITHUB_TOKEN:\n  ghp_${s}\n` };
    },
  },
  passwordAfterLabelLine: {
    cls: 'labelled',
    make: () => {
      const s = pw();
      return { secret: s, value: `password:\r\n    ${s}\r\n` };
    },
  },
  githubInstallation: {
    cls: 'provider',
    make: () => {
      const s = `${jsonSegment({ sub: random(16) })}.${random(43)}`;
      return { secret: s.slice(8), value: `ghs_${random(8, '0123456789')}_${jsonSegment({ alg: 'RS256' })}.${s}` };
    },
  },
  awsRoleId: {
    cls: 'provider',
    make: () => {
      const s = random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');
      return { secret: s, value: `role AROA${s} assumed` };
    },
  },
};

export const SHAPES: Record<string, Shape> = {
  ...ISSUE_30,
  ...Object.fromEntries(
    Object.entries(FIRST).map(([name, make]) => [
      name,
      { cls: FIRST_PROVIDER.has(name) ? 'provider' : 'labelled', make } satisfies Shape,
    ]),
  ),
  ...MORE,
};

/** Where a value goes: the fields of a recorded call, the way the adapter fills them. */
export type Placement = (value: unknown) => Record<string, unknown>;
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
export const PLACEMENTS: Record<string, Placement> = {
  argument: (value) => ({ before: { command: value } }),
  nestedArgument: (value) => ({
    before: { steps: [{ run: value }] },
    after: { code: `await tools.bash(${JSON.stringify({ command: value })})` },
  }),
  programCode: (value) => ({
    before: {
      code: `// secretlint-disable -- fixture\nconst input = ${JSON.stringify(asText(value))};\nawait run(input);`,
    },
  }),
  pythonProgram: (value) => ({ after: { code: `# secretlint-disable\nvalue = ${JSON.stringify(asText(value))}\n` } }),
  error: (value) => ({ error: `Error: command failed: ${asText(value)}` }),
  htmlCommentError: (value) => ({ error: `<!-- secretlint-disable -->\n<pre>${asText(value)}</pre>` }),
  directiveInCallId: (value) => ({ callId: 'call_secretlint-disable', before: { command: value } }),
  changes: (value) => ({ changes: [`ran ${asText(value)}`, '/* secretlint-disable */'] }),
  toolName: (value) => ({ tool: asText(value) }),
  categoryAndModel: (value) => ({ category: asText(value), model: asText(value) }),
  // a file written by a tool: the value on a line of its own, the newlines JSON-encoded around it
  fileContent: (value) => ({ before: { path: '/srv/app/.env', content: `# settings\n${asText(value)}\nDEBUG=0\n` } }),
  escapedThreeTimes: (value) => {
    let text: unknown = { command: value };
    for (let i = 0; i < 3; i += 1) text = JSON.stringify(text);
    return { before: { arguments: text } };
  },
};

/** Length of the pieces searched for: a leak is any 10-character piece of a secret found anywhere. */
export const PIECE = 10;

/**
 * The labels of the secrets some 10-character piece of which occurs in one of `haystacks`. One pass over each
 * haystack with a 10-character window looked up in a map of every piece, so millions of stored bytes are
 * searched for thousands of secrets in seconds.
 */
export function findLeaks(
  secrets: readonly { secret: string; label: string }[],
  haystacks: readonly string[],
): Set<string> {
  const owners = new Map<string, string[]>();
  for (const { secret, label } of secrets) {
    for (let i = 0; i + PIECE <= secret.length; i += 1) {
      const piece = secret.slice(i, i + PIECE);
      const list = owners.get(piece);
      if (list === undefined) owners.set(piece, [label]);
      else if (!list.includes(label)) list.push(label);
    }
  }
  const leaks = new Set<string>();
  for (const haystack of haystacks) {
    for (let i = 0; i + PIECE <= haystack.length; i += 1) {
      const labels = owners.get(haystack.slice(i, i + PIECE));
      if (labels !== undefined) for (const label of labels) leaks.add(label);
    }
  }
  return leaks;
}
