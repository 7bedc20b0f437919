/**
 * The argument engine against the real host's tool schemas (tests/fixtures, captured from DSH rc.8): the
 * changes that must never happen (table per class), the shapes it now reaches (table per class), and property
 * tests: every changed call's arguments are plain JSON that passes the tool's schema and the host's extra
 * checks, and a path that is not plainly relative is never joined to the cwd.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostViolations, normalizeCall } from '../src/index.js';
import type { Environment, ToolCall } from '../src/types.js';
import { codeEnv, nativeEnv, nativeTools, runCodeTool } from './fixtures.js';

const schemaOf = (name: string) => [runCodeTool, ...nativeTools].find((tool) => tool.name === name);

/** Plain JSON: what JSON.stringify sends is exactly the value, every object has the ordinary (or no) prototype. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.keys(value).every((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    return descriptor !== undefined && 'value' in descriptor && isPlainJson(descriptor.value);
  });
}

function expectValidChange(call: ToolCall, env: Environment) {
  const result = normalizeCall(call, env);
  expect(result.changed, result.reason).toBe(true);
  const args = result.call.arguments as Record<string, unknown>;
  expect(isPlainJson(args)).toBe(true);
  expect(JSON.parse(JSON.stringify(args))).toEqual(args);
  const tool = schemaOf(result.call.name);
  expect(tool).toBeDefined();
  expect(hostViolations(tool as never, args)).toEqual([]);
  return result;
}

const view = (path: string, extra: Record<string, unknown> = {}) => ({
  name: 'str_replace_editor',
  arguments: { command: 'view', path, ...extra },
});
const create = (path: string) => ({
  name: 'str_replace_editor',
  arguments: { command: 'create', path, file_text: 'x' },
});

describe('changes that must never happen', () => {
  const notRelative = [
    '$HOME/.bashrc',
    '${PWD}/out.txt',
    '~/notes.md',
    'file:///workspace/a.txt',
    ' /workspace/a.txt',
    'a.txt ',
    '\tb.txt',
    'C:/x.txt',
    '%USERPROFILE%/x',
    '`pwd`/x',
  ];
  it.each(notRelative)('the editor path %j is never joined to the cwd', (path) => {
    const call = view(path);
    const result = normalizeCall(call, nativeEnv);
    expect(result.call).toBe(call);
    expect(result.changed).toBe(false);
  });

  it("a path that repeats the whole cwd without its slash is read the host's way, not joined again", () => {
    expect(expectValidChange(view('workspace/fixture.txt'), nativeEnv).call.arguments).toMatchObject({
      path: '/workspace/fixture.txt',
    });
    const env = { ...nativeEnv, cwd: '/home/dev/project' };
    expect(expectValidChange(create('home/dev/project/src/a.py'), env).call.arguments).toMatchObject({
      path: '/home/dev/project/src/a.py',
    });
  });

  it.each([
    ['/home/dev/project', 'project/src/a.py'],
    ['/home/dev/project', 'dev/project/a.py'],
    ['/workspace', './workspace/a.txt'],
  ])('a partial cwd repetition has two readings and is left to the host (cwd %s, path %s)', (cwd, path) => {
    const call = create(path);
    expect(normalizeCall(call, { ...nativeEnv, cwd }).call).toBe(call);
  });

  it('a plain relative path is still resolved inside the cwd', () => {
    expect(expectValidChange(view('src/a.ts'), nativeEnv).call.arguments).toMatchObject({
      path: '/workspace/src/a.ts',
    });
  });

  it.each([[[-5, -1]], [[-1, -1]], ['-5,-1']])('a negative view_range start %j is not clamped', (range) => {
    const call = view('/workspace/a.txt', { view_range: range });
    expect(normalizeCall(call, nativeEnv).call).toBe(call);
  });

  it('a "__proto__" key never becomes the prototype of the repaired arguments', () => {
    const text = '{"cmd":"ls","__proto__":{"description":"seen through the prototype"}}';
    const result = expectValidChange({ name: 'bash', arguments: text }, nativeEnv);
    const args = result.call.arguments as Record<string, unknown>;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.hasOwn(args, 'description')).toBe(true);
    expect(JSON.parse(JSON.stringify(args)).description).toBe(args.description);
    expect(JSON.stringify(args)).toContain('"__proto__"');
  });

  it('a "__proto__" key next to a run_code command is kept as data', () => {
    const args = JSON.parse('{"command":"ls -la","__proto__":{"description":"x"}}');
    const result = expectValidChange({ name: 'run_code', arguments: args }, codeEnv);
    expect(Object.getPrototypeOf(result.call.arguments)).toBe(Object.prototype);
  });

  // The schema says number, but the host's own checks reject the coerced value: a coercion there trades one
  // error for another (issue 25). Each row is left exactly as sent.
  it.each<[string, ToolCall]>([
    ['a negative read offset', { name: 'read', arguments: { file_path: '/workspace/a.txt', offset: '-5' } }],
    ['a fractional read limit', { name: 'read', arguments: { file_path: '/workspace/a.txt', limit: '20.5' } }],
    ['a zero read offset', { name: 'read', arguments: { file_path: '/workspace/a.txt', offset: '0' } }],
    ['a read limit over the cap', { name: 'read', arguments: { file_path: '/workspace/a.txt', limit: '5000' } }],
    ['a zero bash timeout', { name: 'bash', arguments: { command: 'ls', description: 'List', timeoutMs: '0' } }],
    ['a negative bash timeout', { name: 'bash', arguments: { command: 'ls', description: 'List', timeoutMs: '-1' } }],
    ['a blank description beside an empty command', { name: 'bash', arguments: { command: '', description: '' } }],
    ['a missing description beside a blank command', { name: 'bash', arguments: { command: '   ' } }],
    ['a cmd alias that is empty', { name: 'bash', arguments: { cmd: '', description: 'Run' } }],
    [
      'an empty old_str alias on edit',
      { name: 'edit', arguments: { file_path: '/w/a', old_str: '', new_string: 'x' } },
    ],
  ])('%s is not "repaired" into a call the host still rejects', (_what, call) => {
    const result = normalizeCall(call, nativeEnv);
    expect(result.changed, result.reason).toBe(false);
    expect(result.call).toBe(call);
  });

  it('an inner tools.bash with an empty command gets no description filled in', () => {
    const code = 'const r = await tools.bash({ command: "", description: "" });\nreturn r;';
    const call = { name: 'run_code', arguments: { code, description: 'Run it' } };
    expect(normalizeCall(call, codeEnv).call).toBe(call);
  });

  it.each<[string, ToolCall, Record<string, unknown>]>([
    ['a positive read offset', { name: 'read', arguments: { file_path: '/w/a', offset: '5' } }, { offset: 5 }],
    ['an integral read limit', { name: 'read', arguments: { file_path: '/w/a', limit: '20' } }, { limit: 20 }],
    ['a bash timeout', { name: 'bash', arguments: { command: 'ls', description: 'L', timeoutMs: '2.5' } }, {}],
  ])('%s the host accepts is still coerced', (_what, call, expected) => {
    expect(expectValidChange(call, nativeEnv).call.arguments).toMatchObject(expected);
  });

  it.each([
    'console.log("hello")',
    'const x: number = 41;\nreturn x + 1;',
    'return [1, 2].map((n) => n * 2);',
    'await fetch("http://127.0.0.1")',
  ])('program text %j under "command" becomes code, not a bash call', (program) => {
    const result = expectValidChange({ name: 'run_code', arguments: { command: program } }, codeEnv);
    expect((result.call.arguments as Record<string, unknown>).code).toBe(program);
  });

  it.each([
    'ls -la',
    'git status',
    'npm test -- --watch=false',
    'echo "f(x)"',
    'greet() { echo hi; }; greet',
    'cat $(ls *.txt)',
    'x=1; echo $x',
  ])('a shell command %j under "command" runs through tools.bash', (command) => {
    const result = expectValidChange({ name: 'run_code', arguments: { cmd: command } }, codeEnv);
    expect((result.call.arguments as Record<string, unknown>).code).toMatch(/^return await tools\["bash"\]\(/);
  });
});

describe('shapes the engine now reaches', () => {
  it('bash with a blank description gets a derived one', () => {
    const result = expectValidChange(
      { name: 'bash', arguments: { command: 'git status', description: '  ' } },
      nativeEnv,
    );
    expect(result.call.arguments).toMatchObject({ description: 'Run: git status' });
  });

  it('an inner tools.bash with description: "" gets one, every other byte kept', () => {
    const code = 'const r = await tools.bash({ command: "ls", description: "" });\nreturn r;';
    const result = expectValidChange({ name: 'run_code', arguments: { code, description: 'List' } }, codeEnv);
    expect((result.call.arguments as Record<string, unknown>).code).toBe(
      'const r = await tools.bash({ command: "ls", description: "Run: ls" });\nreturn r;',
    );
  });

  it('the inner-call gate does not miss a call when the program mentions description elsewhere', () => {
    const code =
      'const meta = { description: "x" };\nawait tools.bash({ command: "ls", description: "List" });\nawait tools.bash({ command: "pwd" });\nreturn meta;';
    const result = expectValidChange({ name: 'run_code', arguments: { code, description: 'Two commands' } }, codeEnv);
    expect((result.call.arguments as Record<string, unknown>).code).toContain(
      'tools.bash({ command: "pwd", description: "Run: pwd" })',
    );
  });

  it.each([
    [
      'edit',
      { path: '/workspace/a.ts', old_str: 'a', new_str: 'b' },
      { file_path: '/workspace/a.ts', old_string: 'a', new_string: 'b' },
    ],
    [
      'edit',
      { file_path: '/workspace/a.ts', oldString: 'a', newString: 'b' },
      { file_path: '/workspace/a.ts', old_string: 'a', new_string: 'b' },
    ],
    ['read', { filename: '/workspace/a.ts' }, { file_path: '/workspace/a.ts' }],
    ['write', { file_path: '/workspace/a.ts', contents: 'x' }, { file_path: '/workspace/a.ts', content: 'x' }],
    ['bash', { script: 'ls', description: 'List' }, { command: 'ls', description: 'List' }],
    ['grep', { query: 'TODO' }, { pattern: 'TODO' }],
    ['glob', { glob: '**/*.ts' }, { pattern: '**/*.ts' }],
    ['web_search', { query: 'dsh docs' }, { queries: ['dsh docs'] }],
  ])('%s: schema-unique alias keys %j are renamed', (name, args, expected) => {
    expect(expectValidChange({ name, arguments: args }, nativeEnv).call.arguments).toEqual(expected);
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>, string]>([
    ['web_search', { queries: 'rust async runtime' }, { queries: ['rust async runtime'] }, 'args.wrap-scalar-in-list'],
    [
      'workflow',
      { script: 'return 1;', meta: '{"name": "count-files", "description": "Count the files"}' },
      { script: 'return 1;', meta: { name: 'count-files', description: 'Count the files' } },
      'args.parse-object-text',
    ],
    [
      'workflow',
      { script: 'return 1;', meta: { name: 'n', description: 'd' }, args: ' {"files": ["a.ts"]} ' },
      { script: 'return 1;', meta: { name: 'n', description: 'd' }, args: { files: ['a.ts'] } },
      'args.parse-object-text',
    ],
  ])('%s: a shape the schema reads one way only, %j, is repaired', (name, args, expected, ruleId) => {
    const result = expectValidChange({ name, arguments: args }, nativeEnv);
    expect(result.call.arguments).toEqual(expected);
    expect(result.receipts.map((receipt) => receipt.ruleId)).toEqual([ruleId]);
  });

  it.each<[string, Record<string, unknown>]>([
    // the object text does not pass meta's schema (name and description are required)
    ['workflow', { script: 'return 1;', meta: '{"name": "only-a-name"}' }],
    // not one JSON object
    ['workflow', { script: 'return 1;', meta: '{"name": "a", "description": "b"} {"x": 1}' }],
    ['workflow', { script: 'return 1;', meta: 'name: a, description: b' }],
    // a list of objects is not one string
    ['todo_write', { todos: 'write the tests' }],
    // five queries where the tool takes 1-4 is for the host to reject, not for a rule to cut
    ['web_search', { queries: ['a', 'b', 'c', 'd', 'e'] }],
  ])('%s: %j has no single passing reading and is left alone', (name, args) => {
    const call = { name, arguments: args };
    expect(normalizeCall(call, nativeEnv).call).toBe(call);
  });

  it.each([
    ['edit', { path: '/a', filename: '/b', old_string: 'a', new_string: 'b' }],
    ['grep', { query: 'a', regex: 'b' }],
    ['grep', { glob: '*.ts' }],
  ])('%s: ambiguous aliases %j are left alone', (name, args) => {
    const call = { name, arguments: args };
    expect(normalizeCall(call, nativeEnv).call).toBe(call);
  });

  it.each([
    ["{'command': 'ls', 'description': 'List',}", { command: 'ls', description: 'List' }],
    ['{command: "ls", description: "List"}', { command: 'ls', description: 'List' }],
    ['{"command": "echo a\nb", "description": "Two lines"}', { command: 'echo a\nb', description: 'Two lines' }],
  ])('near-JSON %j is repaired when complete', (text, expected) => {
    expect(expectValidChange({ name: 'bash', arguments: text }, nativeEnv).call.arguments).toEqual(expected);
  });

  it.each([
    '{"command": "ls", "description": "Li',
    "{'command': 'ls', 'description': 'it's'}",
    '{"command": "ls"',
    '{"command": "ls"} {"x": 1}',
  ])('cut-off or two-reading near-JSON %j is refused', (text) => {
    const call = { name: 'bash', arguments: text };
    expect(normalizeCall(call, nativeEnv).call).toBe(call);
  });

  it.each([
    // JSON escapes keep their JSON meaning (\n is a newline, \\ one backslash): the one reading.
    ['read', "{'file_path': 'C:\\\\work\\\\a.txt'}", { file_path: 'C:\\work\\a.txt' }],
    ['write', "{'file_path': 'a.py', 'content': 'print(1)\\tx\\n'}", { file_path: 'a.py', content: 'print(1)\tx\n' }],
    ['write', "{'content': 'it\\'s', 'file_path': 'a',}", { content: "it's", file_path: 'a' }],
    ['write', "{'content': 'say \"hi\"', 'file_path': 'a'}", { content: 'say "hi"', file_path: 'a' }],
    ['bash', "{'command': \"echo it's\", 'description': 'Echo'}", { command: "echo it's", description: 'Echo' }],
    [
      'bash',
      "{'command': 'ls', 'description': 'd', 'run_in_background': True}",
      { command: 'ls', description: 'd', run_in_background: true },
    ],
  ])('%s: near-JSON whose every string keeps its exact characters is repaired: %j', (name, text, expected) => {
    expect(expectValidChange({ name, arguments: text }, nativeEnv).call.arguments).toEqual(expected);
  });

  it.each([
    // A backslash that is not a JSON escape: jsonrepair drops it, a literal reading keeps it; two readings.
    ['grep', '{"pattern": "\\d+"}'],
    ['grep', "{pattern: '\\d+\\.\\d+', path: 'src',}"],
    ['bash', "{command: \"sed -i 's/\\./,/g' f\", description: 'x',}"],
    ['read', '{"file_path": "C:\\path\\a.txt"}'],
    ['write', "{'file_path': 'a.py', 'content': 're.compile(\"\\w+\")'}"],
    // Quotes inside a single-quoted value (an even number of them still leaves a second reading).
    ['bash', "{'command': 'echo '$HOME' > out.txt', 'description': 'x'}"],
    ['write', "{'file_path': 'a.md', 'content': 'rock 'n' roll'}"],
    ['bash', "{'command': 'it's it's ', 'description': 'x'}"],
    ['bash', "{'command': 'git commit -m 'fix: don't crash'', 'description': 'Commit'}"],
    // A repeated key, a value jsonrepair would respell, a bare word it would turn into a string.
    ['bash', "{'command': 'rm -rf /tmp/a', 'command': 'ls', 'description': 'd'}"],
    ['read', '{"file_path": "a", "offset": 010}'],
    ['bash', '{command: ls, description: "List"}'],
  ])('%s: near-JSON with a second reading is refused: %j', (name, text) => {
    const call = { name, arguments: text };
    const result = normalizeCall(call, nativeEnv);
    expect(result.call).toBe(call);
    expect(result.reason).toMatch(/not repaired/);
  });

  it.each(['{"file_path": "a.txt", // the file\n}', '{"file_path": "a.txt" /* the file */}'])(
    'near-JSON with comments %j is refused as such, not as cut off',
    (text) => {
      const call = { name: 'read', arguments: text };
      const result = normalizeCall(call, nativeEnv);
      expect(result.call).toBe(call);
      expect(result.reason).toMatch(/comments/);
      expect(result.reason).not.toMatch(/cut off/);
    },
  );

  it('near-JSON over the size bound is refused without calling jsonrepair (its time grows superlinearly)', () => {
    const text = `{'file_path': 'a', 'content': '${'ab\\n'.repeat(30_000)}'}`;
    const result = normalizeCall({ name: 'write', arguments: text }, nativeEnv);
    expect(result.changed).toBe(false);
    expect(result.reason).toMatch(/over 64 KB/);
  });

  it('empty argument text in Code Mode is read as {} (the host reading) and bridged', () => {
    const result = expectValidChange({ name: 'job_list', arguments: '' }, codeEnv);
    expect((result.call.arguments as Record<string, unknown>).code).toBe('return await tools["job_list"]({});');
  });

  it('arguments encoded three times are unwrapped', () => {
    const text = JSON.stringify(JSON.stringify(JSON.stringify({ command: 'ls', description: 'List' })));
    expect(expectValidChange({ name: 'bash', arguments: text }, nativeEnv).call.arguments).toEqual({
      command: 'ls',
      description: 'List',
    });
  });

  it.each(['functions.read', 'default_api.read', 'tools.read'])(
    'a provider-prefixed name %j calls the registered tool',
    (name) => {
      const result = expectValidChange({ name, arguments: { file_path: '/workspace/a.txt' } }, nativeEnv);
      expect(result.call.name).toBe('read');
      const bridged = expectValidChange({ name, arguments: { file_path: '/workspace/a.txt' } }, codeEnv);
      expect(bridged.call.name).toBe('run_code');
    },
  );

  it('null for optional parameters is dropped; null for a required one is not', () => {
    expect(
      expectValidChange({ name: 'read', arguments: { file_path: '/a', offset: null, limit: null } }, nativeEnv).call
        .arguments,
    ).toEqual({ file_path: '/a' });
    const call = { name: 'read', arguments: { file_path: null } };
    expect(normalizeCall(call, nativeEnv).call).toBe(call);
  });

  it.each([
    ['read', { file_path: '/a', offset: '10', limit: '20' }, { file_path: '/a', offset: 10, limit: 20 }],
    [
      'bash',
      { command: 'sleep 1', description: 'Wait', run_in_background: 'true' },
      { command: 'sleep 1', description: 'Wait', run_in_background: true },
    ],
    [
      'str_replace_editor',
      { command: 'insert', path: '/a', insert_line: '3', new_str: 'x' },
      { command: 'insert', path: '/a', insert_line: 3, new_str: 'x' },
    ],
    ['web_search', { queries: '["a", "b"]' }, { queries: ['a', 'b'] }],
  ])('%s: lossless scalar forms %j', (name, args, expected) => {
    expect(expectValidChange({ name, arguments: args }, nativeEnv).call.arguments).toEqual(expected);
  });

  it.each([
    ['read', { file_path: '/a', offset: '10.50' }],
    ['read', { file_path: '/a', offset: '1e3' }],
    ['read', { file_path: '/a', offset: '010' }],
    ['read', { file_path: '/a', offset: 'ten' }],
    ['bash', { command: 'ls', description: 'x', run_in_background: 'yes' }],
    // Only the exact canonical text is read: surrounding whitespace is not what a model writes for a number.
    ['read', { file_path: '/a', offset: ' 5' }],
    ['read', { file_path: '/a', offset: '5 ' }],
    ['read', { file_path: '/a', offset: '5\n' }],
    ['bash', { command: 'ls', description: 'x', run_in_background: 'true ' }],
    ['bash', { command: 'ls', description: 'x', run_in_background: ' false' }],
    ['str_replace_editor', { command: 'insert', path: '/a', insert_line: ' 5', new_str: 'x' }],
    ['str_replace_editor', { command: 'insert', path: '/a', insert_line: '05', new_str: 'x' }],
    ['str_replace_editor', { command: 'view', path: '/a', view_range: ['010', '20'] }],
    ['str_replace_editor', { command: 'view', path: '/a', view_range: [' 5', '9'] }],
    ['str_replace_editor', { command: 'view', path: '/a', view_range: ['5', '9\n'] }],
    ['str_replace_editor', { command: 'view', path: '/a', view_range: ' 1,20' }],
    // A negative start is refused by the host whatever its spelling; reshaping it cannot make the call pass.
    ['str_replace_editor', { command: 'view', path: '/a', view_range: ['-5', '-1'] }],
    ['str_replace_editor', { command: 'view', path: '/a', view_range: '[-5,-1]' }],
  ])('%s: lossy or unclear scalar forms %j are left alone', (name, args) => {
    const call = { name, arguments: args };
    expect(normalizeCall(call, nativeEnv).call).toBe(call);
  });
});

describe('descriptions', () => {
  it('a derived description never copies a secret', () => {
    const result = expectValidChange(
      { name: 'bash', arguments: { command: 'GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123 gh repo list' } },
      nativeEnv,
    );
    const description = (result.call.arguments as Record<string, string>).description;
    expect(description).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123');
    expect(description).toBe('Run: gh repo list');
    for (const command of [
      'curl -H "Authorization: Bearer abcdefghijklmnop" x',
      'psql postgres://admin:hunter22@db/app',
      'deploy --password s3cretvalue',
      'echo sk-abcdefghijklmnopqrstu',
    ]) {
      const derived = (
        expectValidChange({ name: 'bash', arguments: { command } }, nativeEnv).call.arguments as Record<string, string>
      ).description;
      expect(derived).not.toMatch(/abcdefghijklmnop|hunter22|s3cretvalue|sk-abcdefghijklmnopqrstu/);
    }
  });

  /** [command, the secret it carries] */
  const secretCommands: [string, string][] = [
    ['curl -u bob:Tr0ub4dor https://x', 'Tr0ub4dor'],
    ['docker login -p MyDockerPass123 registry', 'MyDockerPass123'],
    ['docker login --password MyDockerPass123 registry.example.com', 'MyDockerPass123'],
    ['curl -d \'{"password":"pa55word"}\' https://x/login', 'pa55word'],
    ['curl -H "Authorization: Bearer sk-live-abcdef1234567890abcdef" https://api.x', 'abcdef1234567890'],
    ['curl -H "X-Api-Key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0" https://x', '9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
    [
      "curl -H 'Authorization: token ghp_1234567890abcdefghijklmnopqrstuvwxyz12' x",
      'ghp_1234567890abcdefghijklmnopqrstuvwxyz12',
    ],
    ['curl --user admin:S3cr3tPw https://x', 'S3cr3tPw'],
    ['curl https://admin:hunter22@example.com/api', 'hunter22'],
    ['mysql -u root -pS3cretPass! db', 'S3cretPass'],
    ['mysql -u root -phunterpass db', 'hunterpass'],
    ['psql --password=hunter22x -h db', 'hunter22x'],
    ['PGPASSWORD=pg_pass_99 psql -h db', 'pg_pass_99'],
    ['sshpass -p rootpw99 ssh host', 'rootpw99'],
    ['sshpass -p rootpassword ssh host', 'rootpassword'],
    ['export OPENAI_API_KEY=sk-proj-abc123def456ghi789', 'sk-proj-abc123def456ghi789'],
    [
      'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY aws s3 ls',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    ],
    ['aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
    ['gh auth login --with-token ghp_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', 'ghp_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'],
    ['git clone https://oauth2:glpat-abcdefghij1234567890@gitlab.com/x.git', 'glpat-abcdefghij1234567890'],
    ['echo sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA | pbcopy', 'sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA'],
    ['echo rootpassword | sudo -S apt update', 'rootpassword'],
    ['printf mysecretvalue | docker login --password-stdin', 'mysecretvalue'],
    ['SLACK=xoxb-1234-5678-abcdefgh curl x', 'xoxb-1234-5678-abcdefgh'],
    [
      'npm config set //registry.npmjs.org/:_authToken npm_abcdefghijklmnopqrstuvwxyz0123456789',
      'npm_abcdefghijklmnopqrstuvwxyz0123456789',
    ],
    ['npm config set authtoken hunterhunter', 'hunterhunter'],
    [
      'echo eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      'sflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    ],
    ['htpasswd -b .htpasswd admin letmeinplease', 'letmeinplease'],
    ['vault login s.abcdefghijklmnop', 's.abcdefghijklmnop'],
    ['redis-cli -a redispassword ping', 'redispassword'],
    ['mongo mongodb://user:mongopass1@db/app', 'mongopass1'],
    ['kubectl create secret generic db --from-literal=password=kubepass99', 'kubepass99'],
    ['openssl enc -aes-256-cbc -k encryptionkey -in a -out b', 'encryptionkey'],
    ['git -c http.extraheader="AUTHORIZATION: basic dXNlcjpwYXNz" clone x', 'dXNlcjpwYXNz'],
    ['TOKEN=abcdef123456 ./deploy.sh', 'abcdef123456'],
    ['cd app && API_KEY=k3y-secret-value npm run deploy', 'k3y-secret-value'],
  ];
  /** Every piece of `secret` at least `length` characters long. */
  const piecesOf = (secret: string, length = 6) =>
    Array.from({ length: Math.max(0, secret.length - length + 1) }, (_, index) => secret.slice(index, index + length));

  it.each(secretCommands)(
    'the description derived for %j copies no 6-character piece of its secret',
    (command, secret) => {
      expect(secret.length).toBeGreaterThanOrEqual(6);
      for (const env of [nativeEnv, codeEnv]) {
        const result = expectValidChange({ name: 'bash', arguments: { command } }, env);
        const description = (result.call.arguments as Record<string, string>).description;
        const filled = result.receipts.filter((receipt) => receipt.ruleId.endsWith('fill-description'));
        const shown = `${description} ${JSON.stringify(filled.map((receipt) => receipt.after))}`;
        for (const piece of piecesOf(secret)) expect(shown, `"${piece}" of the secret`).not.toContain(piece);
      }
    },
  );

  it.each([
    ['git status --short', 'Run: git status --short'],
    ['ls -la', 'Run: ls -la'],
    ['npm test', 'Run: npm test'],
    ['cd src && make test | tee log', 'Run: cd src && make test | tee log'],
    ['gh repo list --limit 5', 'Run: gh repo list'],
    // `-5` could be the value of `--oneline` as far as a word list knows: the flag goes with it.
    ['git log --oneline -5', 'Run: git log'],
    ['"$HOME/bin/tool" --flag', 'Run a shell command'],
  ])('a shell command %j is described by its program, subcommands and bare flags: %j', (command, expected) => {
    expect(expectValidChange({ name: 'bash', arguments: { command } }, nativeEnv).call.arguments).toMatchObject({
      description: expected,
    });
  });

  it("a bridged call reuses the inner call's own description", () => {
    const result = expectValidChange(
      { name: 'bash', arguments: { command: 'ls', description: 'List the workspace' } },
      codeEnv,
    );
    expect(result.call.arguments).toMatchObject({ description: 'List the workspace' });
  });

  it('a run_code program that opens with a comment is described by it', () => {
    const code = '// Read file contents\nconst r = await tools.read({ file_path: "/a" });\nreturn r;';
    expect(expectValidChange({ name: 'run_code', arguments: { code } }, codeEnv).call.arguments).toMatchObject({
      description: 'Read file contents',
    });
    const block = '/**\n * Count the lines\n */\nreturn 1;';
    expect(expectValidChange({ name: 'run_code', arguments: { code: block } }, codeEnv).call.arguments).toMatchObject({
      description: 'Count the lines',
    });
    const long = `// ${'word '.repeat(60)}\nreturn 1;`;
    expect(
      (
        expectValidChange({ name: 'run_code', arguments: { code: long } }, codeEnv).call.arguments as {
          description: string;
        }
      ).description.length,
    ).toBeLessThanOrEqual(80);
    const plain = 'const r = await tools.read({ file_path: "/a" });\nreturn r;';
    expect(expectValidChange({ name: 'run_code', arguments: { code: plain } }, codeEnv).call.arguments).toMatchObject({
      description: 'Run program calling read',
    });
  });
});

describe('hostile input', () => {
  it('getters that throw values whose toString throws never escape normalizeCall', () => {
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    const args = Object.defineProperty({ command: 'ls' }, 'description', {
      enumerable: true,
      get() {
        throw hostile;
      },
    });
    const call = { name: 'bash', arguments: args };
    const result = normalizeCall(call, nativeEnv);
    expect(result.changed).toBe(false);
    expect(result.call).toBe(call);
    const proxy = new Proxy(
      {},
      {
        get() {
          throw hostile;
        },
        ownKeys() {
          throw hostile;
        },
        getPrototypeOf() {
          throw hostile;
        },
      },
    );
    expect(normalizeCall({ name: 'bash', arguments: proxy }, nativeEnv).changed).toBe(false);
    expect(normalizeCall(proxy as never, nativeEnv).changed).toBe(false);
  });

  it('a changed call never carries NaN, BigInt or a cycle', () => {
    const cyclic: Record<string, unknown> = { cmd: 'ls' };
    cyclic.self = cyclic;
    for (const args of [
      { cmd: 'ls', n: Number.NaN },
      { cmd: 'ls', n: 10n },
      cyclic,
      { cmd: 'ls', when: new Date(0) },
      { cmd: 'ls', nothing: undefined },
    ]) {
      const result = normalizeCall({ name: 'bash', arguments: args }, nativeEnv);
      expect(result.changed).toBe(false);
    }
  });
});

describe('properties', () => {
  const word = fc.stringMatching(/^[a-zA-Z0-9_.-]{1,10}$/).filter((part) => part !== '.' && part !== '..');
  const json = fc.jsonValue({ maxDepth: 2 });
  const toolName = fc.constantFrom(...nativeTools.map((tool) => tool.name));
  const anyArgs = fc.dictionary(
    fc.oneof(
      fc.constantFrom(
        'command',
        'cmd',
        'description',
        'file_path',
        'path',
        'filename',
        'content',
        'contents',
        'old_str',
        'new_str',
        'old_string',
        'new_string',
        'offset',
        'limit',
        'view_range',
        'pattern',
        'query',
        'glob',
        'queries',
        '__proto__',
        'script',
        'code',
      ),
      fc.string({ maxLength: 6 }),
    ),
    fc.oneof(json, fc.constantFrom('10', 'true', '1,20', '[1, 2]', 'ls -la', '', '  ', null)),
    { maxKeys: 6 },
  );

  it("every changed call carries plain JSON that passes the tool's schema and the host's checks", () => {
    fc.assert(
      fc.property(
        fc.oneof(toolName, fc.constant('run_code')),
        anyArgs,
        fc.boolean(),
        fc.boolean(),
        (name, args, code, asText) => {
          const env = code ? codeEnv : nativeEnv;
          const result = normalizeCall({ name, arguments: asText ? JSON.stringify(args) : args }, env);
          if (!result.changed) return;
          const out = result.call.arguments as Record<string, unknown>;
          expect(isPlainJson(out)).toBe(true);
          // Compared as JSON text: a -0 the model sent (JSON.parse('-0') is -0) is left as sent and writes as 0.
          expect(JSON.stringify(JSON.parse(JSON.stringify(out)))).toBe(JSON.stringify(out));
          expect(hostViolations(schemaOf(result.call.name) as never, out)).toEqual([]);
        },
      ),
      { numRuns: 600, examples: [['run_code', { command: -0, code: '10' }, true, false]] },
    );
  });

  it('a path that is not plainly relative is never joined to the cwd', () => {
    const cwdParts = fc.array(word, { minLength: 1, maxLength: 3 });
    const notPlain = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('$HOME', '${PWD}', '$TMPDIR', '~', '~user', 'file://', 'file:', 'http://x'),
          fc.array(word, { maxLength: 3 }),
        )
        .map(([head, rest]) => [head, ...rest].join('/')),
      fc
        .tuple(fc.constantFrom(' ', '\t', '\n'), fc.array(word, { minLength: 1, maxLength: 3 }))
        .map(([space, parts]) => `${space}${parts.join('/')}`),
      fc
        .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom(' ', '\t'))
        .map(([parts, space]) => `${parts.join('/')}${space}`),
    );
    fc.assert(
      fc.property(cwdParts, notPlain, fc.constantFrom('view', 'create'), (parts, path, command) => {
        const cwd = `/${parts.join('/')}`;
        const args = command === 'view' ? { command, path } : { command, path, file_text: 'x' };
        const call = { name: 'str_replace_editor', arguments: args };
        expect(normalizeCall(call, { ...nativeEnv, cwd }).call).toBe(call);
      }),
      { numRuns: 500 },
    );
  });

  it('a cwd repetition is never joined onto the cwd again', () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 2 }),
        fc.array(word, { minLength: 1, maxLength: 2 }),
        (parts, from, rest) => {
          const cwd = `/${parts.join('/')}`;
          const path = [...parts.slice(Math.min(from, parts.length - 1)), ...rest].join('/');
          const result = normalizeCall(create(path), { ...nativeEnv, cwd });
          if (!result.changed) return;
          const resolved = (result.call.arguments as Record<string, string>).path;
          // Joined again would be cwd + '/' + path (a path may still legitimately start with the cwd's words twice,
          // e.g. cwd /_ and path _/_/a read as /_/_/a).
          expect(resolved).not.toBe(`${cwd}/${path}`);
          expect(resolved).toBe(`/${path}`);
        },
      ),
      { numRuns: 300, examples: [[['_'], 0, ['_', 'a']]] },
    );
  });
});
