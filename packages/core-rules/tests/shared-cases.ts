/**
 * The one case table every harness implementation runs (the jsonrepair pattern: one suite, every
 * implementation): core-rules' repair kit, the AI SDK adapter (both seams, three validator styles) and the MCP
 * proxy. Calls are written like the ones models send: aliases, missing descriptions, stringly numbers,
 * near-JSON, double encoding, fences, provider prefixes, invented names, relative editor paths, bad
 * view_range, fenced programs; and the calls that must not change: valid calls and calls whose repair would
 * not be acceptable. Import it by relative path (`../../core-rules/tests/shared-cases.js`).
 *
 * Validator styles: `schema` (the JSON Schema only, as `jsonSchema()` without `validate` or an MCP
 * inputSchema), `strict` (a validator that rejects what the schema rejects: Ajv), `stripping` (a validator
 * that drops undeclared keys: zod's default `.strip()`). A case's `expect` holds for every style unless
 * `byStyle` says otherwise.
 */
import { healProgram } from '@dsh-tool-normalizer/syntax-healer';
import { dshHostChecks } from '../src/index.js';

export type ValidatorStyle = 'schema' | 'strict' | 'stripping';
export const VALIDATOR_STYLES: readonly ValidatorStyle[] = ['schema', 'strict', 'stripping'];

export interface SharedTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export type Expected =
  /** Repaired: the call runs as `name` with exactly `args` (keys in `derived` only need a non-blank string). */
  | { kind: 'repair'; name: string; args: Record<string, unknown>; derived?: string[] }
  /** Valid as sent: untouched. */
  | { kind: 'valid' }
  /** Not acceptable and not repairable (or its repair would not be acceptable): left as sent. */
  | { kind: 'refuse' };

export interface SharedCase {
  id: string;
  /** The tool name the model sent. */
  name: string;
  /** The argument text the model sent. */
  input: string;
  expect: Expected;
  byStyle?: Partial<Record<ValidatorStyle, Expected>>;
}

/** Options every implementation runs the table with (DeepSeek Harness's profile: the editor and description checks). */
export const SHARED_OPTIONS = {
  cwd: '/ws',
  programs: { fields: { run_js: 'code' }, healProgram },
  hostChecks: dshHostChecks,
} as const;

const str = { type: 'string' };
const int = (extra: Record<string, unknown> = {}) => ({ type: 'integer', ...extra });

export const sharedTools: SharedTool[] = [
  {
    name: 'bash',
    description: 'Run a shell command',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1 },
        description: str,
        timeout_ms: int({ minimum: 1, maximum: 600000 }),
        run_in_background: { type: 'boolean' },
      },
      required: ['command', 'description'],
      additionalProperties: false,
    },
  },
  {
    name: 'read',
    description: 'Read a file',
    parameters: {
      type: 'object',
      properties: { file_path: str, offset: int({ minimum: 1 }), limit: int({ minimum: 1 }) },
      required: ['file_path'],
    },
  },
  {
    name: 'write',
    description: 'Write a file',
    parameters: { type: 'object', properties: { file_path: str, content: str }, required: ['file_path', 'content'] },
  },
  {
    name: 'edit',
    description: 'Replace text in a file',
    parameters: {
      type: 'object',
      properties: { file_path: str, old_string: str, new_string: str, replace_all: { type: 'boolean' } },
      required: ['file_path', 'old_string', 'new_string'],
    },
  },
  {
    name: 'grep',
    description: 'Search file contents',
    parameters: { type: 'object', properties: { pattern: str, path: str, include: str }, required: ['pattern'] },
  },
  {
    name: 'glob',
    description: 'Find files by pattern',
    parameters: { type: 'object', properties: { pattern: str, path: str }, required: ['pattern'] },
  },
  {
    name: 'web_search',
    description: 'Search the web',
    parameters: {
      type: 'object',
      properties: { queries: { type: 'array', items: str, minItems: 1, maxItems: 4 } },
      required: ['queries'],
    },
  },
  {
    name: 'str_replace_editor',
    description: 'View and edit files',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert'] },
        path: str,
        file_text: str,
        insert_line: { type: 'integer' },
        new_str: str,
        old_str: str,
        view_range: { type: 'array', items: { type: 'integer' } },
      },
      required: ['command', 'path'],
    },
  },
  {
    name: 'run_js',
    description: 'Run a JavaScript program (the body of an async function)',
    parameters: {
      type: 'object',
      properties: { code: str, timeout_ms: int({ minimum: 1 }) },
      required: ['code'],
    },
  },
  {
    name: 'fetch_url',
    description: 'Fetch a URL',
    parameters: { type: 'object', properties: { url: str, max_bytes: int({ minimum: 0 }) }, required: ['url'] },
  },
  {
    name: 'sleep',
    description: 'Wait',
    parameters: { type: 'object', properties: { seconds: { type: 'number' } }, required: ['seconds'] },
  },
  {
    name: 'thermostat',
    description: 'Set the temperature',
    parameters: {
      type: 'object',
      properties: { celsius: { type: 'number', minimum: -10, maximum: 35 } },
      required: ['celsius'],
    },
  },
  {
    name: 'list_dir',
    description: 'List a directory',
    parameters: { type: 'object', properties: { path: str } },
  },
  // @modelcontextprotocol/server-filesystem's write_file as it advertises it (served here as fs_write_file) (no additionalProperties: false in the
  // 2026 builds: an unknown key is ignored by the server, so a wrong rename would write the wrong text).
  {
    name: 'fs_write_file',
    description: 'Create a new file or completely overwrite an existing file with new content',
    parameters: { type: 'object', properties: { path: str, content: str }, required: ['path', 'content'] },
  },
  // Schemas written like those of real MCP servers (server-filesystem, server-memory, desktop-commander,
  // git-mcp-server): camelCase and snake_case keys, arrays of objects, anyOf branches, $defs.
  {
    name: 'fs_list_directory',
    description: 'List a directory',
    parameters: { type: 'object', properties: { path: str }, required: ['path'], additionalProperties: false },
  },
  {
    name: 'fs_move_file',
    description: 'Move or rename a file',
    parameters: {
      type: 'object',
      properties: { source: str, destination: str },
      required: ['source', 'destination'],
      additionalProperties: false,
    },
  },
  {
    name: 'fs_read_multiple_files',
    description: 'Read several files',
    parameters: {
      type: 'object',
      properties: { paths: { type: 'array', items: str, minItems: 1 } },
      required: ['paths'],
      additionalProperties: false,
    },
  },
  {
    name: 'fs_edit_file',
    description: 'Make line-based edits to a text file',
    parameters: {
      type: 'object',
      properties: {
        path: str,
        edits: {
          type: 'array',
          items: {
            type: 'object',
            properties: { oldText: str, newText: str },
            required: ['oldText', 'newText'],
            additionalProperties: false,
          },
        },
        dryRun: { type: 'boolean' },
      },
      required: ['path', 'edits'],
      additionalProperties: false,
    },
  },
  {
    name: 'memory_create_entities',
    description: 'Create entities in the knowledge graph',
    parameters: {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: str, entityType: str, observations: { type: 'array', items: str } },
            required: ['name', 'entityType', 'observations'],
            additionalProperties: false,
          },
        },
      },
      required: ['entities'],
      additionalProperties: false,
    },
  },
  {
    name: 'memory_delete_entities',
    description: 'Delete entities and their relations',
    parameters: {
      type: 'object',
      properties: { entityNames: { type: 'array', items: str } },
      required: ['entityNames'],
      additionalProperties: false,
    },
  },
  {
    name: 'memory_add_observations',
    description: 'Add observations to entities',
    parameters: {
      type: 'object',
      properties: {
        observations: {
          type: 'array',
          items: {
            type: 'object',
            properties: { entityName: str, contents: { type: 'array', items: str } },
            required: ['entityName', 'contents'],
            additionalProperties: false,
          },
        },
      },
      required: ['observations'],
      additionalProperties: false,
    },
  },
  {
    name: 'memory_create_relations',
    description: 'Create relations between entities',
    parameters: {
      type: 'object',
      properties: { relations: { type: 'array', items: { $ref: '#/$defs/relation' } } },
      required: ['relations'],
      additionalProperties: false,
      $defs: {
        relation: {
          type: 'object',
          properties: { from: str, to: str, relationType: str },
          required: ['from', 'to', 'relationType'],
          additionalProperties: false,
        },
      },
    },
  },
  {
    name: 'dc_start_process',
    description: 'Start a terminal process',
    parameters: {
      type: 'object',
      properties: { command: str, timeout_ms: { type: 'number' }, shell: str },
      required: ['command', 'timeout_ms'],
      additionalProperties: false,
    },
  },
  {
    name: 'git_checkout',
    description: 'Switch branches',
    parameters: {
      type: 'object',
      properties: { path: str, branchName: str, createBranch: { type: 'boolean' } },
      required: ['branchName'],
      additionalProperties: false,
    },
  },
  {
    name: 'git_commit',
    description: 'Record changes to the repository',
    parameters: {
      type: 'object',
      properties: {
        message: str,
        author: {
          type: 'object',
          properties: { name: str, email: str },
          required: ['name', 'email'],
          additionalProperties: false,
        },
        filesToStage: { type: 'array', items: str },
      },
      required: ['message'],
      additionalProperties: false,
    },
  },
  {
    name: 'lookup',
    description: 'Look a target up: a file or a URL',
    parameters: {
      type: 'object',
      properties: {
        target: {
          anyOf: [
            { type: 'object', properties: { file_path: str }, required: ['file_path'], additionalProperties: false },
            { type: 'object', properties: { url: str }, required: ['url'], additionalProperties: false },
          ],
        },
      },
      required: ['target'],
      additionalProperties: false,
    },
  },
  {
    // A described model field as schema generators write it (pydantic v1, and v2 before 2.9: pydantic#10031): a
    // one-member `allOf` around a ref, because a `$ref` could not carry siblings before draft 2019-09. `$defs`, not
    // v1's `definitions`, so zod's fromJSONSchema can build the zod style (schema-reading.test.ts reads both).
    name: 'create_issue',
    description: 'Open an issue',
    parameters: {
      title: 'CreateIssue',
      type: 'object',
      properties: {
        title: { title: 'Title', type: 'string' },
        author: { title: 'Author', description: 'Who opens it', allOf: [{ $ref: '#/$defs/Person' }] },
      },
      required: ['title', 'author'],
      additionalProperties: false,
      $defs: {
        Person: {
          title: 'Person',
          type: 'object',
          properties: { full_name: str, email: str },
          required: ['full_name'],
          additionalProperties: false,
        },
      },
    },
  },
];

const j = (value: unknown) => JSON.stringify(value);
const repair = (name: string, args: Record<string, unknown>, derived?: string[]): Expected =>
  derived ? { kind: 'repair', name, args, derived } : { kind: 'repair', name, args };
const VALID: Expected = { kind: 'valid' };
const REFUSE: Expected = { kind: 'refuse' };
const c = (id: string, name: string, input: string, expect: Expected, byStyle?: SharedCase['byStyle']): SharedCase =>
  byStyle ? { id, name, input, expect, byStyle } : { id, name, input, expect };

const BIG = 'x'.repeat(1024 * 1024);
const DSML = '｜DSML｜';

export const sharedCases: SharedCase[] = [
  // Alias keys.
  c(
    'alias cmd',
    'bash',
    j({ cmd: 'ls -la', description: 'List files' }),
    repair('bash', { command: 'ls -la', description: 'List files' }),
  ),
  c(
    'alias cmd + missing description',
    'bash',
    j({ cmd: 'npm test' }),
    repair('bash', { command: 'npm test' }, ['description']),
  ),
  c(
    'alias script',
    'bash',
    j({ script: 'echo hi', description: 'Say hi' }),
    repair('bash', { command: 'echo hi', description: 'Say hi' }),
  ),
  c('alias path on read', 'read', j({ path: '/ws/README.md' }), repair('read', { file_path: '/ws/README.md' })),
  c(
    'alias filePath on read',
    'read',
    j({ filePath: '/ws/a.ts', offset: 10 }),
    repair('read', { file_path: '/ws/a.ts', offset: 10 }),
  ),
  c('alias file on read', 'read', j({ file: '/ws/a.ts' }), repair('read', { file_path: '/ws/a.ts' })),
  c(
    'alias path + contents on write',
    'write',
    j({ path: '/ws/a.txt', contents: 'hello' }),
    repair('write', { file_path: '/ws/a.txt', content: 'hello' }),
  ),
  c(
    'alias text on write',
    'write',
    j({ file_path: '/ws/a.txt', text: 'hello' }),
    repair('write', { file_path: '/ws/a.txt', content: 'hello' }),
  ),
  c(
    'alias old_str/new_str on edit',
    'edit',
    j({ file_path: '/ws/a.ts', old_str: 'foo', new_str: 'bar' }),
    repair('edit', { file_path: '/ws/a.ts', old_string: 'foo', new_string: 'bar' }),
  ),
  c(
    'alias camelCase on edit',
    'edit',
    j({ path: '/ws/a.ts', oldString: 'a', newString: 'b' }),
    repair('edit', { file_path: '/ws/a.ts', old_string: 'a', new_string: 'b' }),
  ),
  c('alias query on grep', 'grep', j({ query: 'TODO' }), repair('grep', { pattern: 'TODO' })),
  c(
    'alias regex on grep',
    'grep',
    j({ regex: 'fn\\s+main', path: 'src' }),
    repair('grep', { pattern: 'fn\\s+main', path: 'src' }),
  ),
  c('alias glob on glob', 'glob', j({ glob: '**/*.ts' }), repair('glob', { pattern: '**/*.ts' })),
  c(
    'alias query on web_search',
    'web_search',
    j({ query: 'rust async runtime' }),
    repair('web_search', { queries: ['rust async runtime'] }),
  ),
  c('alias + undeclared key', 'bash', j({ cmd: 'ls', timeout: 5 }), REFUSE, {
    stripping: repair('bash', { command: 'ls', timeout: 5 }, ['description']),
  }),
  // Missing or blank descriptions.
  c(
    'missing description',
    'bash',
    j({ command: 'git status' }),
    repair('bash', { command: 'git status' }, ['description']),
  ),
  c(
    'blank description',
    'bash',
    j({ command: 'pytest -q', description: '' }),
    repair('bash', { command: 'pytest -q' }, ['description']),
  ),
  c(
    'null description',
    'bash',
    j({ command: 'make', description: null }),
    repair('bash', { command: 'make' }, ['description']),
  ),
  c(
    'whitespace description',
    'bash',
    j({ command: 'cargo build', description: '   ' }),
    repair('bash', { command: 'cargo build' }, ['description']),
  ),
  // Stringly scalars.
  c(
    'stringly offset/limit',
    'read',
    j({ file_path: '/ws/a.ts', offset: '10', limit: '50' }),
    repair('read', { file_path: '/ws/a.ts', offset: 10, limit: 50 }),
  ),
  c(
    'stringly timeout',
    'bash',
    j({ command: 'sleep 1', description: 'Wait', timeout_ms: '5000' }),
    repair('bash', { command: 'sleep 1', description: 'Wait', timeout_ms: 5000 }),
  ),
  c(
    'stringly boolean',
    'bash',
    j({ command: 'npm run dev', description: 'Start', run_in_background: 'true' }),
    repair('bash', { command: 'npm run dev', description: 'Start', run_in_background: true }),
  ),
  c(
    'stringly false',
    'edit',
    j({ file_path: '/ws/a', old_string: 'a', new_string: 'b', replace_all: 'false' }),
    repair('edit', { file_path: '/ws/a', old_string: 'a', new_string: 'b', replace_all: false }),
  ),
  c(
    'stringly insert_line',
    'str_replace_editor',
    j({ command: 'insert', path: '/ws/a.ts', insert_line: '5', new_str: 'x' }),
    repair('str_replace_editor', { command: 'insert', path: '/ws/a.ts', insert_line: 5, new_str: 'x' }),
  ),
  c('stringly list', 'web_search', j({ queries: '["a", "b"]' }), repair('web_search', { queries: ['a', 'b'] })),
  c(
    'stringly max_bytes',
    'fetch_url',
    j({ url: 'https://example.com', max_bytes: '4096' }),
    repair('fetch_url', { url: 'https://example.com', max_bytes: 4096 }),
  ),
  c('stringly seconds', 'sleep', j({ seconds: '3' }), repair('sleep', { seconds: 3 })),
  // Null for optional keys.
  c('null optional offset', 'read', j({ file_path: '/ws/a', offset: null }), repair('read', { file_path: '/ws/a' })),
  c('null optional path', 'grep', j({ pattern: 'x', path: null }), repair('grep', { pattern: 'x' })),
  // Near-JSON.
  c(
    'single quotes',
    'bash',
    "{'command': 'ls', 'description': 'List'}",
    repair('bash', { command: 'ls', description: 'List' }),
  ),
  c(
    'bare keys + trailing comma',
    'bash',
    '{command: "ls", description: "List",}',
    repair('bash', { command: 'ls', description: 'List' }),
  ),
  c(
    'trailing comma',
    'write',
    '{"file_path": "/ws/a.py", "content": "print(1)",}',
    repair('write', { file_path: '/ws/a.py', content: 'print(1)' }),
  ),
  c('bare key single quoted value', 'read', "{file_path: '/ws/x.md'}", repair('read', { file_path: '/ws/x.md' })),
  c(
    'python True',
    'edit',
    '{"file_path": "/ws/a", "old_string": "a", "new_string": "b", "replace_all": True}',
    repair('edit', { file_path: '/ws/a', old_string: 'a', new_string: 'b', replace_all: true }),
  ),
  c(
    'raw newline in string',
    'write',
    '{"file_path": "/ws/a.txt", "content": "line1\nline2"}',
    repair('write', { file_path: '/ws/a.txt', content: 'line1\nline2' }),
  ),
  c('near-JSON + alias', 'bash', "{'cmd': 'ls -la',}", repair('bash', { command: 'ls -la' }, ['description'])),
  c(
    'near-JSON + stringly number',
    'read',
    "{'file_path': '/ws/a', 'offset': '3'}",
    repair('read', { file_path: '/ws/a', offset: 3 }),
  ),
  // Double encoding and fences.
  c('double-encoded', 'read', j(j({ file_path: '/ws/a.ts' })), repair('read', { file_path: '/ws/a.ts' })),
  c(
    'double-encoded + alias',
    'bash',
    j(j({ cmd: 'pwd', description: 'Where' })),
    repair('bash', { command: 'pwd', description: 'Where' }),
  ),
  c('triple-encoded', 'read', j(j(j({ file_path: '/ws/b.ts' }))), repair('read', { file_path: '/ws/b.ts' })),
  c('fenced JSON', 'read', '```json\n{"file_path": "/ws/a"}\n```', repair('read', { file_path: '/ws/a' })),
  c('fenced JSON, no tag', 'glob', '```\n{"pattern": "*.md"}\n```', repair('glob', { pattern: '*.md' })),
  // Provider prefixes and invented names.
  c('functions.read', 'functions.read', j({ file_path: '/ws/a' }), repair('read', { file_path: '/ws/a' })),
  c(
    'default_api.bash',
    'default_api.bash',
    j({ command: 'ls', description: 'List' }),
    repair('bash', { command: 'ls', description: 'List' }),
  ),
  c('functions.read + alias', 'functions.read', j({ path: '/ws/a' }), repair('read', { file_path: '/ws/a' })),
  c('tools.grep', 'tools.grep', j({ pattern: 'x' }), repair('grep', { pattern: 'x' })),
  c(
    'functions.read double-encoded',
    'functions.read',
    j(j({ file_path: '/ws/c' })),
    repair('read', { file_path: '/ws/c' }),
  ),
  c('read_file', 'read_file', j({ file_path: '/ws/a' }), repair('read', { file_path: '/ws/a' })),
  c('read_file double-encoded', 'read_file', j(j({ file_path: '/ws/a' })), repair('read', { file_path: '/ws/a' })),
  c('functions.read_file', 'functions.read_file', j({ file_path: '/ws/a' }), repair('read', { file_path: '/ws/a' })),
  c(
    'run_command',
    'run_command',
    j({ command: 'ls', description: 'List' }),
    repair('bash', { command: 'ls', description: 'List' }),
  ),
  c('Read (case)', 'Read', j({ file_path: '/ws/a' }), repair('read', { file_path: '/ws/a' })),
  c(
    'write_file + aliases',
    'write_file',
    j({ path: '/ws/a', content: 'x' }),
    repair('write', { file_path: '/ws/a', content: 'x' }),
  ),
  c('grep_search + alias', 'grep_search', j({ query: 'foo' }), repair('grep', { pattern: 'foo' })),
  c('shell + alias + description', 'shell', j({ cmd: 'ls' }), repair('bash', { command: 'ls' }, ['description'])),
  // Editor paths and view ranges (cwd /ws).
  c(
    'relative editor path',
    'str_replace_editor',
    j({ command: 'view', path: 'src/a.ts' }),
    repair('str_replace_editor', { command: 'view', path: '/ws/src/a.ts' }),
  ),
  c(
    'relative create path',
    'str_replace_editor',
    j({ command: 'create', path: 'notes.md', file_text: 'hi' }),
    repair('str_replace_editor', { command: 'create', path: '/ws/notes.md', file_text: 'hi' }),
  ),
  c(
    'view_range text',
    'str_replace_editor',
    j({ command: 'view', path: '/ws/a.ts', view_range: '1,20' }),
    repair('str_replace_editor', { command: 'view', path: '/ws/a.ts', view_range: [1, 20] }),
  ),
  c(
    'view_range start 0',
    'str_replace_editor',
    j({ command: 'view', path: '/ws/a.ts', view_range: [0, 10] }),
    repair('str_replace_editor', { command: 'view', path: '/ws/a.ts', view_range: [1, 10] }),
  ),
  c(
    'view_range strings',
    'str_replace_editor',
    j({ command: 'view', path: '/ws/a.ts', view_range: ['1', '20'] }),
    repair('str_replace_editor', { command: 'view', path: '/ws/a.ts', view_range: [1, 20] }),
  ),
  c(
    'view_range single',
    'str_replace_editor',
    j({ command: 'view', path: '/ws/a.ts', view_range: [5] }),
    repair('str_replace_editor', { command: 'view', path: '/ws/a.ts', view_range: [5, 5] }),
  ),
  c(
    'view_range object',
    'str_replace_editor',
    j({ command: 'view', path: '/ws/a.ts', view_range: { start: 1, end: 20 } }),
    repair('str_replace_editor', { command: 'view', path: '/ws/a.ts', view_range: [1, 20] }),
  ),
  c(
    'relative path + view_range',
    'str_replace_editor',
    j({ command: 'view', path: 'a.ts', view_range: '10-30' }),
    repair('str_replace_editor', { command: 'view', path: '/ws/a.ts', view_range: [10, 30] }),
  ),
  // Programs (run_js takes one).
  c(
    'fenced program',
    'run_js',
    j({ code: '```js\nconst x = 1;\nreturn x;\n```' }),
    repair('run_js', { code: 'const x = 1;\nreturn x;' }),
  ),
  c(
    'fenced javascript program',
    'run_js',
    j({ code: '```javascript\nawait tools.bash({ command: "ls" });\n```' }),
    repair('run_js', { code: 'await tools.bash({ command: "ls" });' }),
  ),
  c(
    'fenced program + stringly timeout',
    'run_js',
    j({ code: '```js\nreturn 1;\n```', timeout_ms: '500' }),
    repair('run_js', { code: 'return 1;', timeout_ms: 500 }),
  ),
  c(
    'fenced program, alias-free near-JSON',
    'run_js',
    "{'code': '```js\\nreturn 2;\\n```'}",
    repair('run_js', { code: 'return 2;' }),
  ),

  // Combinations models send.
  c(
    'near-JSON with JSON inside a value',
    'write',
    `{'file_path': '/ws/t.json', 'content': '{"a": 1}'}`,
    repair('write', { file_path: '/ws/t.json', content: '{"a": 1}' }),
  ),
  c(
    'functions.bash + alias + description',
    'functions.bash',
    j({ cmd: 'make test' }),
    repair('bash', { command: 'make test' }, ['description']),
  ),
  c(
    'Bash (case), valid arguments',
    'Bash',
    j({ command: 'ls', description: 'List' }),
    repair('bash', { command: 'ls', description: 'List' }),
  ),
  c('fenced JSON + alias', 'bash', '```json\n{"cmd": "ls"}\n```', repair('bash', { command: 'ls' }, ['description'])),
  c(
    'view_range JSON text',
    'str_replace_editor',
    j({ command: 'view', path: '/ws/a.ts', view_range: '[1, 20]' }),
    repair('str_replace_editor', { command: 'view', path: '/ws/a.ts', view_range: [1, 20] }),
  ),
  // The schema reading on any tool (issue 29), class by class.
  // Synonyms of a required key.
  c(
    'synonym directory',
    'fs_list_directory',
    j({ directory: '/ws/src' }),
    repair('fs_list_directory', { path: '/ws/src' }),
  ),
  c('synonym dir', 'fs_list_directory', j({ dir: '/ws' }), repair('fs_list_directory', { path: '/ws' })),
  c(
    'synonym folder',
    'fs_list_directory',
    j({ folder: '/ws/docs' }),
    repair('fs_list_directory', { path: '/ws/docs' }),
  ),
  c(
    'synonyms from/to',
    'fs_move_file',
    j({ from: '/ws/a.txt', to: '/ws/b.txt' }),
    repair('fs_move_file', { source: '/ws/a.txt', destination: '/ws/b.txt' }),
  ),
  c(
    'synonym file_path for path',
    'fs_write_file',
    j({ file_path: '/ws/a.txt', content: 'x' }),
    repair('fs_write_file', { path: '/ws/a.txt', content: 'x' }),
  ),
  c(
    'synonyms filePath + contents',
    'fs_write_file',
    j({ filePath: '/ws/a.txt', contents: 'x' }),
    repair('fs_write_file', { path: '/ws/a.txt', content: 'x' }),
  ),
  c(
    'synonym cmd on start_process',
    'dc_start_process',
    j({ cmd: 'npm test', timeout_ms: 5000 }),
    repair('dc_start_process', { command: 'npm test', timeout_ms: 5000 }),
  ),
  // The schema's own key in another case style, flat and nested.
  c('snake for camel', 'git_checkout', j({ branch_name: 'feat' }), repair('git_checkout', { branchName: 'feat' })),
  c('kebab for camel', 'git_checkout', j({ 'branch-name': 'feat' }), repair('git_checkout', { branchName: 'feat' })),
  c('Pascal for camel', 'git_checkout', j({ BranchName: 'feat' }), repair('git_checkout', { branchName: 'feat' })),
  c(
    'snake for camel, a list',
    'memory_delete_entities',
    j({ entity_names: ['Ada'] }),
    repair('memory_delete_entities', { entityNames: ['Ada'] }),
  ),
  c(
    'camel for snake',
    'dc_start_process',
    j({ command: 'ls', timeoutMs: 5000 }),
    repair('dc_start_process', { command: 'ls', timeout_ms: 5000 }),
  ),
  c(
    'snake optional key',
    'fs_edit_file',
    j({ path: '/ws/a', edits: [{ oldText: 'a', newText: 'b' }], dry_run: true }),
    repair('fs_edit_file', { path: '/ws/a', edits: [{ oldText: 'a', newText: 'b' }], dryRun: true }),
    // With a validator of its own the kit leaves undeclared keys to it (kit.ts): Ajv rejects the call as sent, zod
    // strips `dry_run` and runs it. Only the schema itself shows that an optional key is misspelt.
    { strict: REFUSE, stripping: VALID },
  ),
  c(
    'snake inside each item',
    'fs_edit_file',
    j({
      path: '/ws/a',
      edits: [
        { old_text: 'a', new_text: 'b' },
        { oldText: 'c', new_text: 'd' },
      ],
    }),
    repair('fs_edit_file', {
      path: '/ws/a',
      edits: [
        { oldText: 'a', newText: 'b' },
        { oldText: 'c', newText: 'd' },
      ],
    }),
  ),
  c(
    'snake inside an item',
    'memory_add_observations',
    j({ observations: [{ entity_name: 'Ada', contents: ['wrote a program'] }] }),
    repair('memory_add_observations', { observations: [{ entityName: 'Ada', contents: ['wrote a program'] }] }),
  ),
  c(
    'Pascal inside an object',
    'git_commit',
    j({ message: 'fix', author: { Name: 'Ada', Email: 'ada@example.org' } }),
    repair('git_commit', { message: 'fix', author: { name: 'Ada', email: 'ada@example.org' } }),
  ),
  c(
    'snake inside a $ref item',
    'memory_create_relations',
    j({ relations: [{ from: 'Ada', to: 'Babbage', relation_type: 'knows' }] }),
    repair('memory_create_relations', { relations: [{ from: 'Ada', to: 'Babbage', relationType: 'knows' }] }),
  ),
  c(
    'camel inside a described $ref (a one-member allOf)',
    'create_issue',
    j({ title: 'Crash', author: { fullName: 'Ada' } }),
    repair('create_issue', { title: 'Crash', author: { full_name: 'Ada' } }),
  ),
  c(
    'camel inside the one anyOf branch',
    'lookup',
    j({ target: { filePath: '/ws/a.md' } }),
    repair('lookup', { target: { file_path: '/ws/a.md' } }),
  ),
  // One value for a list, one object for a list of objects, top level and nested.
  c(
    'one path for paths',
    'fs_read_multiple_files',
    j({ paths: '/ws/a.txt' }),
    repair('fs_read_multiple_files', { paths: ['/ws/a.txt'] }),
  ),
  c(
    'one object for entities',
    'memory_create_entities',
    j({ entities: { name: 'Ada', entityType: 'person', observations: ['wrote a program'] } }),
    repair('memory_create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote a program'] }],
    }),
  ),
  c(
    'one observation inside an item',
    'memory_create_entities',
    j({ entities: [{ name: 'Ada', entityType: 'person', observations: 'wrote a program' }] }),
    repair('memory_create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote a program'] }],
    }),
  ),
  c(
    'one edit for edits',
    'fs_edit_file',
    j({ path: '/ws/a', edits: { oldText: 'a', newText: 'b' } }),
    repair('fs_edit_file', { path: '/ws/a', edits: [{ oldText: 'a', newText: 'b' }] }),
  ),
  c(
    'one object, a snake key, one value, together',
    'memory_create_entities',
    j({ entities: { name: 'Ada', entity_type: 'person', observations: 'wrote a program' } }),
    repair('memory_create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote a program'] }],
    }),
  ),
  c(
    'one relation for a $ref list',
    'memory_create_relations',
    j({ relations: { from: 'Ada', to: 'Babbage', relationType: 'knows' } }),
    repair('memory_create_relations', { relations: [{ from: 'Ada', to: 'Babbage', relationType: 'knows' }] }),
  ),
  // JSON text or a fenced JSON value for a structured field.
  c(
    'object field as JSON text',
    'git_commit',
    j({ message: 'fix', author: j({ name: 'Ada', email: 'ada@example.org' }) }),
    repair('git_commit', { message: 'fix', author: { name: 'Ada', email: 'ada@example.org' } }),
  ),
  c(
    'described $ref field as JSON text',
    'create_issue',
    j({ title: 'Crash', author: j({ full_name: 'Ada' }) }),
    repair('create_issue', { title: 'Crash', author: { full_name: 'Ada' } }),
  ),
  c(
    'object field as fenced JSON',
    'git_commit',
    j({ message: 'fix', author: `\`\`\`json\n${j({ name: 'Ada', email: 'ada@example.org' })}\n\`\`\`` }),
    repair('git_commit', { message: 'fix', author: { name: 'Ada', email: 'ada@example.org' } }),
  ),
  c(
    'list of objects as JSON text',
    'fs_edit_file',
    j({ path: '/ws/a', edits: j([{ oldText: 'a', newText: 'b' }]) }),
    repair('fs_edit_file', { path: '/ws/a', edits: [{ oldText: 'a', newText: 'b' }] }),
  ),
  c(
    'one object as JSON text for a list of objects',
    'fs_edit_file',
    j({ path: '/ws/a', edits: j({ oldText: 'a', newText: 'b' }) }),
    repair('fs_edit_file', { path: '/ws/a', edits: [{ oldText: 'a', newText: 'b' }] }),
  ),
  c(
    'a list as fenced JSON',
    'fs_read_multiple_files',
    j({ paths: '```json\n["/ws/a", "/ws/b"]\n```' }),
    repair('fs_read_multiple_files', { paths: ['/ws/a', '/ws/b'] }),
  ),
  c(
    'nested list as JSON text',
    'memory_add_observations',
    j({ observations: [{ entityName: 'Ada', contents: j(['a', 'b']) }] }),
    repair('memory_add_observations', { observations: [{ entityName: 'Ada', contents: ['a', 'b'] }] }),
  ),
  // What JSON text holds, read after it is parsed (a second pass of the rules).
  c(
    'Pascal keys inside JSON text',
    'git_commit',
    j({ message: 'fix', author: j({ Name: 'Ada', Email: 'ada@example.org' }) }),
    repair('git_commit', { message: 'fix', author: { name: 'Ada', email: 'ada@example.org' } }),
  ),
  c(
    'snake keys inside a list as JSON text',
    'fs_edit_file',
    j({ path: '/ws/a', edits: j([{ old_text: 'a', new_text: 'b' }]) }),
    repair('fs_edit_file', { path: '/ws/a', edits: [{ oldText: 'a', newText: 'b' }] }),
  ),
  c(
    'one value for a list inside one object as JSON text',
    'memory_create_entities',
    j({ entities: j({ name: 'Ada', entityType: 'person', observations: 'wrote a program' }) }),
    repair('memory_create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote a program'] }],
    }),
  ),
  // A provider prefix together with another fault.
  c(
    'prefix + synonyms',
    'functions.fs_move_file',
    j({ from: '/ws/a', to: '/ws/b' }),
    repair('fs_move_file', { source: '/ws/a', destination: '/ws/b' }),
  ),
  c(
    'prefix + one value for a list',
    'functions.fs_read_multiple_files',
    j({ paths: '/ws/a' }),
    repair('fs_read_multiple_files', { paths: ['/ws/a'] }),
  ),
  c(
    'prefix + case style',
    'functions.git_checkout',
    j({ branch_name: 'main' }),
    repair('git_checkout', { branchName: 'main' }),
  ),
  c(
    'prefix + JSON text',
    'functions.git_commit',
    j({ message: 'fix', author: j({ name: 'Ada', email: 'ada@example.org' }) }),
    repair('git_commit', { message: 'fix', author: { name: 'Ada', email: 'ada@example.org' } }),
  ),
  // Traps of the reading: each must stay as sent.
  c('two synonyms for path', 'fs_list_directory', j({ directory: '/ws/a', dir: '/ws/b' }), REFUSE),
  c('a synonym and another candidate', 'fs_list_directory', j({ directory: '/ws/a', location: '/ws/b' }), REFUSE),
  c('a case variant and another candidate', 'git_checkout', j({ branch_name: 'a', branch: 'b' }), REFUSE),
  c('two case variants', 'git_checkout', j({ branch_name: 'a', BranchName: 'b' }), REFUSE),
  c(
    'two candidates inside an item',
    'fs_edit_file',
    j({ path: '/ws/a', edits: [{ oldText: 'a', new_text: 'b', replacement: 'c' }] }),
    REFUSE,
  ),
  c(
    'two candidates, from and source_file',
    'fs_move_file',
    j({ from: '/ws/a', source_file: '/ws/c', to: '/ws/b' }),
    REFUSE,
  ),
  c(
    'two candidates inside JSON text',
    'fs_edit_file',
    j({ path: '/ws/a', edits: j([{ oldText: 'a', new_text: 'b', replacement: 'c' }]) }),
    REFUSE,
  ),
  c('padded number', 'dc_start_process', j({ command: 'ls', timeout_ms: ' 5000' }), REFUSE),
  c('words for a number', 'dc_start_process', j({ command: 'ls', timeout_ms: 'five seconds' }), REFUSE),
  c('prose for an object', 'git_commit', j({ message: 'fix', author: 'Ada Lovelace <ada@example.org>' }), REFUSE),
  c('near-JSON text for an object', 'git_commit', j({ message: 'fix', author: "{name: 'Ada'}" }), REFUSE),
  c('prose for a list of objects', 'fs_edit_file', j({ path: '/ws/a', edits: 'replace a with b' }), REFUSE),
  c('unknown tool near a destructive one', 'memory_delete_entity', j({ entityNames: ['Ada'] }), REFUSE),
  c('prefix of a tool near a destructive one', 'functions.delete_entities', j({ entityNames: ['Ada'] }), REFUSE),
  c('empty list under minItems', 'fs_read_multiple_files', j({ paths: [] }), REFUSE),
  c('a number for a list of strings', 'fs_read_multiple_files', j({ paths: 5 }), REFUSE),
  c('a list for a string', 'fs_list_directory', j({ path: ['/ws/a'] }), REFUSE),
  c('an object matching no anyOf branch', 'lookup', j({ target: { name: 'a' } }), REFUSE),
  c(
    'valid extra unknown key (ignored by the server)',
    'fs_write_file',
    j({ path: '/ws/a', content: 'x', encoding: 'utf8' }),
    VALID,
  ),
  c(
    'valid call, extra unknown key on a closed schema',
    'memory_delete_entities',
    j({ entityNames: ['Ada'], cascade: true }),
    REFUSE,
    { stripping: VALID },
  ),
  c(
    'valid nested call',
    'memory_create_entities',
    j({ entities: [{ name: 'Ada', entityType: 'person', observations: [] }] }),
    VALID,
  ),
  c('valid anyOf branch', 'lookup', j({ target: { url: 'https://example.com' } }), VALID),
  c(
    'valid described $ref',
    'create_issue',
    j({ title: 'Crash', author: { full_name: 'Ada', email: 'ada@example.org' } }),
    VALID,
  ),
  c(
    'valid $ref list',
    'memory_create_relations',
    j({ relations: [{ from: 'Ada', to: 'Babbage', relationType: 'knows' }] }),
    VALID,
  ),
  c('valid JSON-looking content', 'fs_write_file', j({ path: '/ws/x.json', content: '{"a": [1]}' }), VALID),
  // Must not change: valid calls.
  c('valid bash', 'bash', j({ command: 'ls', description: 'List files' }), VALID),
  c('valid read', 'read', j({ file_path: '/ws/a.ts' }), VALID),
  c('valid read with range', 'read', j({ file_path: '/ws/a.ts', offset: 10, limit: 5 }), VALID),
  c('valid write', 'write', j({ file_path: '/ws/a.txt', content: '{"cmd": "not a key"}' }), VALID),
  c('valid edit', 'edit', j({ file_path: '/ws/a', old_string: 'a', new_string: 'b', replace_all: true }), VALID),
  c('valid grep', 'grep', j({ pattern: 'TODO', path: 'src' }), VALID),
  c('valid web_search', 'web_search', j({ queries: ['a'] }), VALID),
  c('valid editor view', 'str_replace_editor', j({ command: 'view', path: '/ws/a.ts', view_range: [1, -1] }), VALID),
  c('valid program', 'run_js', j({ code: 'return 1;' }), VALID),
  c('valid program with template', 'run_js', j({ code: 'const n = 2;\nreturn `n=${n}`;' }), VALID),
  c('valid empty input', 'list_dir', '', VALID),
  c('valid empty object', 'list_dir', '{}', VALID),
  c('valid stringly-looking content', 'write', j({ file_path: '/ws/n.txt', content: '10' }), VALID),
  c('valid 1 MB content', 'write', j({ file_path: '/ws/big.txt', content: BIG }), VALID),
  c('valid seconds fraction', 'sleep', j({ seconds: 0.5 }), VALID),
  c('valid unicode', 'write', j({ file_path: '/ws/ü.txt', content: 'héllo ✓' }), VALID),
  c('undeclared key', 'bash', j({ command: 'ls', description: 'List', extra: 1 }), REFUSE, { stripping: VALID }),

  c('valid unicode path', 'read', j({ file_path: '/ws/données/é.md' }), VALID),
  c('valid JSON-looking content', 'write', j({ file_path: '/ws/x.json', content: '{"x": 1}' }), VALID),
  c('valid boolean false', 'bash', j({ command: 'ls', description: 'List', run_in_background: false }), VALID),
  // Must not change: not acceptable, no acceptable repair.
  c('"-5" for offset >= 1', 'read', j({ file_path: '/ws/a', offset: '-5' }), REFUSE),
  c('"20.5" for integer limit', 'read', j({ file_path: '/ws/a', limit: '20.5' }), REFUSE),
  c('"-5" for max_bytes >= 0', 'fetch_url', j({ url: 'https://example.com', max_bytes: '-5' }), REFUSE),
  c('"-5" for an unbounded number', 'sleep', j({ seconds: '-5' }), REFUSE),
  c('"20.5" for an unbounded number', 'sleep', j({ seconds: '20.5' }), REFUSE),
  c(
    '"-3" for an integer with no stated range',
    'str_replace_editor',
    j({ command: 'insert', path: '/ws/a.ts', insert_line: '-3', new_str: 'x' }),
    REFUSE,
  ),
  c('"-2" for a number bounded below -10', 'thermostat', j({ celsius: '-2' }), repair('thermostat', { celsius: -2 })),
  c('"21.5" for a bounded number', 'thermostat', j({ celsius: '21.5' }), repair('thermostat', { celsius: 21.5 })),
  c('"-40" below the bound', 'thermostat', j({ celsius: '-40' }), REFUSE),
  c('padded number', 'read', j({ file_path: '/ws/a', offset: ' 5' }), REFUSE),
  c('leading zero', 'read', j({ file_path: '/ws/a', offset: '05' }), REFUSE),
  c('exponent', 'read', j({ file_path: '/ws/a', offset: '1e3' }), REFUSE),
  c('"0" for timeout >= 1', 'bash', j({ command: 'ls', description: 'List', timeout_ms: '0' }), REFUSE),
  c(
    '"yes" for boolean',
    'edit',
    j({ file_path: '/ws/a', old_string: 'a', new_string: 'b', replace_all: 'yes' }),
    REFUSE,
  ),
  c('empty command, blank description', 'bash', j({ command: '', description: '' }), REFUSE),
  c('two different aliases', 'bash', j({ cmd: 'ls', script: 'pwd', description: 'x' }), REFUSE),
  c('two different path aliases', 'read', j({ path: '/ws/a', file: '/ws/b' }), REFUSE),
  // Two candidates for one key is no reading (issue 29): `body` could be `content` as much as `text` could.
  c('two candidates: text and body', 'fs_write_file', j({ path: '/ws/a', text: 'a', body: 'b' }), REFUSE),
  c('two candidates: body and text', 'fs_write_file', j({ path: '/ws/a', body: 'b', text: 'a' }), REFUSE),
  c('two candidates: contents and body', 'fs_write_file', j({ body: 'b', path: '/ws/a', contents: 'a' }), REFUSE),
  c('body alone is no alias', 'fs_write_file', j({ path: '/ws/a', body: 'b' }), REFUSE),
  c('two candidates on DSH write', 'write', j({ file_path: '/ws/a', text: 'a', data: 'b' }), REFUSE),
  c(
    'one candidate, an unknown key of another type',
    'fs_write_file',
    j({ path: '/ws/a', text: 'a', overwrite: true }),
    repair('fs_write_file', { path: '/ws/a', content: 'a', overwrite: true }),
  ),
  c('missing required content', 'write', j({ file_path: '/ws/a' }), REFUSE),
  c('cut-off JSON', 'bash', '{"command": "rm -rf /srv/app/rel', REFUSE),
  c('cut-off near-JSON', 'write', "{'file_path': '/ws/a', 'content': 'abc", REFUSE),
  c('apostrophe in single quotes', 'write', "{'file_path': '/ws/a', 'content': 'it's done'}", REFUSE),
  c('unescaped quotes', 'bash', '{"command": "echo "hi"", "description": "x"}', REFUSE),
  c('repeated key', 'read', "{'file_path': '/ws/a', 'limit': 1, 'limit': 200}", REFUSE),
  c('comment', 'read', '{"file_path": "/ws/a" // the file\n}', REFUSE),
  c('text after object', 'read', '{"file_path": "/ws/a"} and more', REFUSE),
  c('not an object', 'read', '["/ws/a"]', REFUSE),
  c('backslash not an escape', 'grep', "{'pattern': '\\d+'}", REFUSE),
  c('unknown name, nothing fits', 'frobnicate', j({ x: 1 }), REFUSE),
  c('alias name, arguments do not fit', 'read_file', j({ content: 'x' }), REFUSE),
  c('prefix of an unknown name', 'functions.frobnicate', j({ x: 1 }), REFUSE),
  c('__proto__ in a repair', 'read', '{"file_path": "/ws/a", "offset": "5", "__proto__": {"x": 1}}', REFUSE),
  c(
    'constructor.prototype in a repair',
    'read',
    '{"file_path": "/ws/a", "offset": "5", "constructor": {"prototype": {"x": 1}}}',
    REFUSE,
  ),
  c('home-relative editor path', 'str_replace_editor', j({ command: 'view', path: '~/a.ts' }), REFUSE),
  c('editor path escaping cwd', 'str_replace_editor', j({ command: 'view', path: '../etc/passwd' }), REFUSE),
  c(
    'negative view_range start',
    'str_replace_editor',
    j({ command: 'view', path: '/ws/a.ts', view_range: [-5, -1] }),
    REFUSE,
  ),
  c('shell code as a program', 'run_js', j({ code: 'ls -la' }), REFUSE),
  c('cut-off program', 'run_js', j({ code: 'const a = [1, 2,' }), REFUSE),
  c('python program', 'run_js', j({ code: 'def f():\n    return 1\nprint(f())' }), REFUSE),
  c('too many queries', 'web_search', j({ queries: ['a', 'b', 'c', 'd', 'e'] }), REFUSE),
  c('1 MB near-JSON', 'write', `{'file_path': '/ws/big.txt', 'content': '${BIG}'}`, REFUSE),
  c('null arguments', 'read', 'null', REFUSE),
  c('a bare string', 'read', '"just a path"', REFUSE),
  c('fenced JSON with prose after', 'read', '```json\n{"file_path": "/ws/a"}\n```\nThis reads the file.', REFUSE),
  c('enum miss', 'str_replace_editor', j({ command: 'open', path: '/ws/a.ts' }), REFUSE),
  // DeepSeek's DSML markup inside `arguments` (vLLM/SGLang parser misses): sgl-project/sglang #35736's parameter
  // shape, and a closing tag after the JSON (core-rules tests/leaked-markup.test.ts names the reports).
  c(
    'DSML parameters as arguments',
    'bash',
    `<${DSML}parameter name="command" string="true">pwd</${DSML}parameter>\n<${DSML}parameter name="description" string="true">Print the working directory</${DSML}parameter>`,
    repair('bash', { command: 'pwd', description: 'Print the working directory' }),
  ),
  c(
    'DSML closing tag after the JSON',
    'read',
    `${j({ file_path: '/ws/a.txt' })}</${DSML}parameter>`,
    repair('read', { file_path: '/ws/a.txt' }),
  ),
  c(
    'a valid value that mentions DSML',
    'bash',
    j({ command: `echo '</${DSML}parameter>'`, description: 'Echo' }),
    VALID,
  ),
  c(
    'DSML parameters with a repeated name',
    'bash',
    `<${DSML}parameter name="command" string="true">a</${DSML}parameter><${DSML}parameter name="command" string="true">b</${DSML}parameter>`,
    REFUSE,
  ),
];

/** The arguments a stripping validator hands to the tool: keys the schema declares only. */
export function declaredOnly(tool: SharedTool, args: Record<string, unknown>): Record<string, unknown> {
  const properties = (tool.parameters.properties ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(args).filter(([key]) => Object.hasOwn(properties, key)));
}

/** The expectation of `testCase` for one validator style. */
export function expectedFor(testCase: SharedCase, style: ValidatorStyle): Expected {
  return testCase.byStyle?.[style] ?? testCase.expect;
}
