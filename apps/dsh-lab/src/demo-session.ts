/**
 * The demo's scripted coding session, in Code Mode: a model adds a `--verbose` flag to a small CLI and makes
 * the realistic mistakes the captures show (direct calls, `command` instead of `code`, a view past the end,
 * an edit before a read, Python quoting, a fenced program, a missing description, a wrong edit anchor).
 * Each task is the model's first attempt plus the corrected call it sends when it sees an error, so the
 * number of round-trips depends on what the model saw: the honest measure of what healing saves.
 */
import type { ScriptStep, ScriptedToolCall } from './scripted-model.js';

export interface DemoTask {
  /** core-rules error class of the first attempt's mistake (`ok` when it has none). */
  category: string;
  /** A short label for the demo table (at most 32 characters). */
  label: string;
  what: string;
  first: ScriptedToolCall;
  /** What the model sends after seeing an error for `first`. */
  retry?: ScriptedToolCall;
}

const run = (id: string, code: string, description: string): ScriptedToolCall => ({
  id,
  name: 'run_code',
  arguments: JSON.stringify({ code, description }),
});

export const demoFixtures: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify({ name: 'greet-cli', version: '1.0.0', type: 'module', bin: { greet: 'src/cli.js' } }, null, 2)}\n`,
  'src/cli.js': `#!/usr/bin/env node
import { greet } from './format.js';

const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith('--')) ?? 'world';
console.log(greet(name));
`,
  'src/format.js': `/** Formats the greeting. */
export function greet(name) {
  return \`Hello, \${name}!\`;
}
`,
  'test/format.test.js': `import assert from 'node:assert/strict';
import { greet } from '../src/format.js';

assert.equal(greet('Ada'), 'Hello, Ada!');
console.log('format tests passed');
`,
  'README.md': `# greet-cli

Prints a greeting.

## Usage

    greet Ada
`,
};

export const demoTask = 'Add a --verbose flag to greet-cli that also prints the time, document it and run the tests.';

export const demoTasks: readonly DemoTask[] = [
  {
    category: 'code-mode-direct-call',
    label: 'read: direct call',
    what: 'reads the CLI with a direct `read` call (only run_code is callable)',
    first: { id: 'd01_read_cli', name: 'read', arguments: JSON.stringify({ file_path: '{{ws}}/src/cli.js' }) },
    retry: run(
      'd01_read_cli_retry',
      'return await tools.read({ file_path: "{{ws}}/src/cli.js" });',
      'Read the CLI entry',
    ),
  },
  {
    category: 'invalid-args',
    label: 'ls: run_code {command}',
    what: 'lists the project with run_code {"command": ...}',
    first: { id: 'd02_list', name: 'run_code', arguments: JSON.stringify({ command: 'ls -R src test' }) },
    retry: run(
      'd02_list_retry',
      'const r = await tools.bash({ command: "ls -R src test", description: "List the project" });\nreturn r.stdout.text;',
      'List the project',
    ),
  },
  {
    category: 'editor-range',
    label: 'view: view_range past EOF',
    what: 'views format.js with a view_range past the end of the file',
    first: run(
      'd03_view_format',
      'return await tools.str_replace_editor({ command: "view", path: "{{ws}}/src/format.js", view_range: [1, 40] });',
      'View the formatter',
    ),
    retry: run(
      'd03_view_format_retry',
      'return await tools.str_replace_editor({ command: "view", path: "{{ws}}/src/format.js", view_range: [1, -1] });',
      'View the formatter',
    ),
  },
  {
    category: 'ok',
    label: 'edit cli.js (already read)',
    what: 'adds the flag to the CLI (already read)',
    first: run(
      'd04_edit_cli',
      'return await tools.edit({ file_path: "{{ws}}/src/cli.js", old_string: "console.log(greet(name));", new_string: "console.log(greet(name));\\nif (args.includes(\'--verbose\')) console.log(new Date().toISOString());" });',
      'Add the --verbose flag',
    ),
  },
  {
    category: 'fs-not-observed',
    label: 'edit README before reading it',
    what: 'edits the README without reading it first',
    first: run(
      'd05_edit_readme',
      'return await tools.edit({ file_path: "{{ws}}/README.md", old_string: "    greet Ada\\n", new_string: "    greet Ada\\n    greet Ada --verbose   # also prints the time\\n" });',
      'Document --verbose',
    ),
    retry: run(
      'd05_edit_readme_retry',
      'await tools.read({ file_path: "{{ws}}/README.md" });\nreturn await tools.edit({ file_path: "{{ws}}/README.md", old_string: "    greet Ada\\n", new_string: "    greet Ada\\n    greet Ada --verbose   # also prints the time\\n" });',
      'Document --verbose',
    ),
  },
  {
    category: 'code-syntax',
    label: 'write: Python """ string',
    what: 'writes a changelog with a Python triple-quoted string',
    first: run(
      'd06_changelog',
      'const text = """## 1.1.0\n- --verbose prints the time\n""";\nreturn await tools.write({ file_path: "{{ws}}/CHANGELOG.md", content: text });',
      'Write the changelog',
    ),
    retry: run(
      'd06_changelog_retry',
      'const text = `## 1.1.0\n- --verbose prints the time\n`;\nreturn await tools.write({ file_path: "{{ws}}/CHANGELOG.md", content: text });',
      'Write the changelog',
    ),
  },
  {
    category: 'inner-invalid-args',
    label: 'test: inner bash, no description',
    what: 'runs the tests with tools.bash({command}) and no description',
    first: run(
      'd07_test',
      'const r = await tools.bash({ command: "node test/format.test.js" });\nreturn r.stdout.text;',
      'Run the tests',
    ),
    retry: run(
      'd07_test_retry',
      'const r = await tools.bash({ command: "node test/format.test.js", description: "Run the tests" });\nreturn r.stdout.text;',
      'Run the tests',
    ),
  },
  {
    category: 'code-syntax',
    label: 'try: program in a ``` fence',
    what: 'tries the flag with a program wrapped in a Markdown fence',
    first: run(
      'd08_try_flag',
      '```js\nconst r = await tools.bash({ command: "node src/cli.js Ada --verbose", description: "Try the flag" });\nreturn r.stdout.text;\n```',
      'Try the flag',
    ),
    retry: run(
      'd08_try_flag_retry',
      'const r = await tools.bash({ command: "node src/cli.js Ada --verbose", description: "Try the flag" });\nreturn r.stdout.text;',
      'Try the flag',
    ),
  },
  {
    category: 'fs-edit-anchor',
    label: 'bump: wrong edit anchor',
    what: 'bumps the version with a wrong edit anchor (never healed: the model must look again)',
    first: run(
      'd09_bump',
      'await tools.read({ file_path: "{{ws}}/package.json" });\nreturn await tools.edit({ file_path: "{{ws}}/package.json", old_string: "\\"version\\": \\"1.0\\"", new_string: "\\"version\\": \\"1.1.0\\"" });',
      'Bump the version',
    ),
    retry: run(
      'd09_bump_retry',
      'return await tools.edit({ file_path: "{{ws}}/package.json", old_string: "\\"version\\": \\"1.0.0\\"", new_string: "\\"version\\": \\"1.1.0\\"" });',
      'Bump the version',
    ),
  },
  {
    category: 'invalid-args',
    label: 'check: run_code, no description',
    what: 'checks the final diff with run_code but no description',
    first: {
      id: 'd10_check',
      name: 'run_code',
      arguments: JSON.stringify({
        code: 'const r = await tools.bash({ command: "cat README.md CHANGELOG.md", description: "Show the docs" });\nreturn r.stdout.text;',
      }),
    },
    retry: run(
      'd10_check_retry',
      'const r = await tools.bash({ command: "cat README.md CHANGELOG.md", description: "Show the docs" });\nreturn r.stdout.text;',
      'Show the docs',
    ),
  },
];

/** The model script: each task's first attempt, its retry played only if the model saw an error, then a summary. */
export function demoScript(tasks: readonly DemoTask[] = demoTasks): ScriptStep[] {
  const steps: ScriptStep[] = tasks.map((task) => ({
    toolCalls: [task.first],
    ...(task.retry ? { retryOnError: { toolCalls: [task.retry] } } : {}),
  }));
  steps.push({
    text: 'Added --verbose (prints the time), documented it in README.md and CHANGELOG.md, bumped to 1.1.0; tests pass.',
  });
  return steps;
}
