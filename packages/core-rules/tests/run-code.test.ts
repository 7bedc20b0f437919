/** run_code rules beyond the captures: command wrapping, descriptions, inner calls, the healer's verdict. */
import { compilesLikeHost } from '@dsh-tool-normalizer/syntax-healer';
import { describe, expect, it } from 'vitest';
import { normalizeCall } from '../src/index.js';
import { codeEnv, nativeTools, runCodeTool } from './fixtures.js';
import type { ToolCall } from '../src/types.js';

function runCode(args: Record<string, unknown>): ToolCall {
  return { name: 'run_code', arguments: args };
}

function argsOf(call: ToolCall): Record<string, unknown> {
  return call.arguments as Record<string, unknown>;
}

describe('command -> code', () => {
  it.each(['command', 'cmd', 'script'])('a shell command under "%s" becomes a compiling tools.bash dispatch', (key) => {
    const result = normalizeCall(runCode({ [key]: 'git status --short', description: 'Show status' }), codeEnv);
    expect(result.changed).toBe(true);
    expect(argsOf(result.call)).toEqual({
      description: 'Show status',
      code: 'return await tools["bash"]({"command":"git status --short","description":"Run: git status --short"});',
    });
    expect(compilesLikeHost(argsOf(result.call).code as string)).toEqual({ ok: true });
  });

  it('hostile command text stays data: quotes, backticks, ${}, newlines and U+2028 compile as one string', () => {
    const command = "echo \"a'b\" `date` ${HOME} \u2028 </script>\nprintf '%s\\n' x";
    const result = normalizeCall(runCode({ command }), codeEnv);
    const code = argsOf(result.call).code as string;
    expect(compilesLikeHost(code)).toEqual({ ok: true });
    const literal = code.slice(code.indexOf('(') + 1, code.lastIndexOf(')'));
    expect(JSON.parse(literal).command).toBe(command);
  });

  it('moves bash options sent beside the command into the bash call', () => {
    const result = normalizeCall(runCode({ command: 'npm test', workdir: '/workspace/app', timeoutMs: 5000 }), codeEnv);
    expect(argsOf(result.call)).toEqual({
      code: 'return await tools["bash"]({"command":"npm test","description":"Run: npm test","workdir":"/workspace/app","timeoutMs":5000});',
      description: 'Run: npm test',
    });
  });

  it('a program sent as "script" is used as the program', () => {
    const script = 'const r = await tools.read({ file_path: "/workspace/a.txt" });\nreturn r.totalLines;';
    const result = normalizeCall(runCode({ script, description: 'Count lines' }), codeEnv);
    expect(argsOf(result.call)).toEqual({ description: 'Count lines', code: script });
  });

  it('empty, blank or non-string commands are left for the host to reject', () => {
    for (const command of ['', '   ', 42, null, ['ls'], { run: 'ls' }]) {
      const call = runCode({ command });
      const result = normalizeCall(call, codeEnv);
      expect(result.call).toBe(call);
      expect(result.changed).toBe(false);
    }
  });

  it('two different commands are ambiguous: unchanged', () => {
    const call = runCode({ command: 'ls', cmd: 'pwd' });
    const result = normalizeCall(call, codeEnv);
    expect(result.call).toBe(call);
    expect(result.reason).toMatch(/ambiguous/);
  });

  it('without a bash tool there is nothing to dispatch to', () => {
    const env = { ...codeEnv, tools: [runCodeTool, ...nativeTools.filter((tool) => tool.name !== 'bash')] };
    const call = runCode({ command: 'ls' });
    expect(normalizeCall(call, env).call).toBe(call);
  });
});

describe('description', () => {
  it('missing, null or blank: derived from the tools the program calls', () => {
    const code =
      'const a = await tools.read({ file_path: "/x" });\nconst b = await tools["grep"]({ pattern: "TODO" });\nreturn [a, b];';
    for (const description of [undefined, null, '', ' \n\t']) {
      const result = normalizeCall(runCode(description === undefined ? { code } : { code, description }), codeEnv);
      expect(argsOf(result.call)).toEqual({ code, description: 'Run program calling read, grep' });
      expect(result.receipts.map((receipt) => receipt.ruleId)).toEqual(['run_code.fill-description']);
    }
  });

  it('a description of the wrong type is not overwritten', () => {
    const call = runCode({ code: 'return 1', description: 7 });
    expect(normalizeCall(call, codeEnv).call).toBe(call);
  });
});

describe('inner calls', () => {
  it('inserts into every bash literal lacking description, keeps every other byte (comments, spacing, trailing commas)', () => {
    const code = [
      '// list then count',
      'const a = await tools.bash({',
      '  command: `ls -la`, // trailing comment',
      '});',
      "const b = await tools['bash']({ command: 'wc -l *.ts', description: 'Count lines' });",
      'const c = await tools.bash({ "command": cmd });',
      'return [a, b, c];',
    ].join('\n');
    const result = normalizeCall(runCode({ code, description: 'List and count' }), codeEnv);
    expect(argsOf(result.call).code).toBe(
      [
        '// list then count',
        'const a = await tools.bash({',
        '  command: `ls -la`, description: "Run: ls -la", // trailing comment',
        '});',
        "const b = await tools['bash']({ command: 'wc -l *.ts', description: 'Count lines' });",
        'const c = await tools.bash({ "command": cmd, description: "Run a shell command" });',
        'return [a, b, c];',
      ].join('\n'),
    );
    expect(result.receipts[0]?.why).toMatch(/tools\.bash \(line 2\).*tools\.bash \(line 6\)/);
  });

  it('leaves open schemas (read, glob, grep), spreads, non-literals and calls that also lack a non-fillable field alone', () => {
    for (const code of [
      'return await tools.read({ file_path: "/x" });',
      'return await tools.glob({ pattern: "**/*.ts" });',
      'return await tools.grep({ pattern: "x" });',
      'const extra = { description: "d" }; return await tools.bash({ command: "ls", ...extra });',
      'const args = { command: "ls" }; return await tools.bash(args);',
      'return await tools.bash({ [key]: "ls" });',
      'return await tools.bash({ cmd: "" });',
    ]) {
      const call = runCode({ code, description: 'Probe' });
      const result = normalizeCall(call, codeEnv);
      expect({ code, same: result.call === call }).toEqual({ code, same: true });
    }
  });

  it.each([
    [
      'return await tools.read({ path: "/ws/docs/guide.md" });',
      'return await tools.read({ file_path: "/ws/docs/guide.md" });',
    ],
    [
      'const path = "/a";\nreturn await tools.read({ path, limit: 5 });',
      'const path = "/a";\nreturn await tools.read({ file_path: path, limit: 5 });',
    ],
    ['return await tools.read({ "filePath": "/a" });', 'return await tools.read({ file_path: "/a" });'],
    [
      'return await tools.bash({ cmd: "ls -la" });',
      'return await tools.bash({ command: "ls -la", description: "Run: ls -la" });',
    ],
    [
      'return await tools.edit({ file_path: "/a", old_str: "x", new_str: "y" });',
      'return await tools.edit({ file_path: "/a", old_string: "x", new_string: "y" });',
    ],
  ])('an inner alias key is renamed in the program before it runs: %j', (code, expected) => {
    const result = normalizeCall(runCode({ code, description: 'Probe' }), codeEnv);
    expect(argsOf(result.call).code).toBe(expected);
    expect(result.receipts.map((receipt) => receipt.ruleId)).toContain('run_code.inner-rename-alias');
  });

  it.each([
    // two aliases for one key, the key itself present, a list target, a dynamic object, a computed key
    'return await tools.read({ path: "/a", file: "/b" });',
    'return await tools.read({ path: "/a", file_path: "/b" });',
    'return await tools.web_search({ query: "rust" });',
    'const a = { path: "/a" };\nreturn await tools.read(a);',
    'return await tools.read({ ["path"]: "/a" });',
    'return await tools.read({ path: "/a", ...rest });',
  ])('an inner alias that is not one-to-one is left alone: %j', (code) => {
    const call = runCode({ code, description: 'Probe' });
    expect(normalizeCall(call, codeEnv).call).toBe(call);
  });

  it('an empty object literal gets the field only when it is the sole missing one (never for bash, which also needs command)', () => {
    const call = runCode({ code: 'return await tools.bash({});', description: 'Probe' });
    expect(normalizeCall(call, codeEnv).call).toBe(call);
  });

  it('subagent: description derived from the prompt literal', () => {
    const code = 'return await tools.subagent({ prompt: "Audit the lockfile for duplicate packages please" });';
    const result = normalizeCall(runCode({ code, description: 'Delegate audit' }), codeEnv);
    expect(argsOf(result.call).code).toBe(
      'return await tools.subagent({ prompt: "Audit the lockfile for duplicate packages please", description: "Audit the lockfile for duplicate" });',
    );
  });
});

describe('syntax through the healer', () => {
  it('an unrepairable program: call unchanged, diagnostic carried', () => {
    const call = runCode({ code: 'def main():\n    print("hi")\nmain()', description: 'Python' });
    const result = normalizeCall(call, codeEnv);
    expect(result.call).toBe(call);
    expect(result.changed).toBe(false);
    expect(result.diagnostic?.message.length).toBeGreaterThan(0);
  });

  it('a program cut inside a string is never completed and run', () => {
    const call = runCode({ code: 'await tools.bash({ command: "rm -rf /srv/app/releases/20', description: 'Clean' });
    const result = normalizeCall(call, codeEnv);
    expect(result.call).toBe(call);
    expect(result.diagnostic?.kind).toBe('truncated');
  });

  it('fence + missing description + inner missing description: all repaired in one pass, program compiles', () => {
    const call = runCode({ code: '```ts\nconst out = await tools.bash({ command: "ls" });\nreturn out;\n```' });
    const result = normalizeCall(call, codeEnv);
    expect(result.receipts.map((receipt) => receipt.ruleId)).toEqual([
      'run_code.heal-syntax',
      'run_code.inner-fill-description',
      'run_code.fill-description',
    ]);
    expect(argsOf(result.call)).toEqual({
      code: 'const out = await tools.bash({ command: "ls", description: "Run: ls" });\nreturn out;',
      description: 'Run program calling bash',
    });
  });

  it('healing twice equals healing once', () => {
    const first = normalizeCall(runCode({ command: 'ls' }), codeEnv);
    const second = normalizeCall(first.call, codeEnv);
    expect(second.changed).toBe(false);
    expect(second.call).toBe(first.call);
  });

  it('the switch turns every run_code rule off', () => {
    const call = runCode({ command: 'ls' });
    expect(normalizeCall(call, codeEnv, { autoWrapRunCode: false }).call).toBe(call);
  });
});

describe('a run_code whose schema does not require "description" (builds that declare `{code}` only)', () => {
  const parameters = runCodeTool.parameters as { properties: Record<string, unknown> };
  const codeOnly = {
    ...runCodeTool,
    parameters: { type: 'object', properties: { code: parameters.properties.code }, required: ['code'] },
  };
  const env = { ...codeEnv, tools: [codeOnly, ...nativeTools] };

  it('a valid call without a description is left exactly as sent (the host runs it)', () => {
    const call = runCode({ code: 'return 1;' });
    const result = normalizeCall(call, env);
    expect(result.changed).toBe(false);
    expect(result.call).toBe(call);
  });

  it('a fenced program is still repaired, and no description is added', () => {
    const result = normalizeCall(runCode({ code: '```js\nreturn 1;\n```' }), env);
    expect(result.changed).toBe(true);
    expect(argsOf(result.call)).toEqual({ code: 'return 1;' });
  });

  it('where the schema requires it, a missing description is still derived (the rc.8 schema)', () => {
    const result = normalizeCall(runCode({ code: 'return 1;' }), codeEnv);
    expect(result.changed).toBe(true);
    expect(typeof argsOf(result.call).description).toBe('string');
  });
});
