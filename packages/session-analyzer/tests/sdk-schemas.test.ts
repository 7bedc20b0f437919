/**
 * The Code-Mode SDK in DSH's real system prompt, turned back into schemas, must say what the host's own JSON
 * Schemas say: for every tool, the same property names and the same required ones (native schemas as DSH
 * presented them in the same build, captured from the real host).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateArguments } from '@dsh-tool-normalizer/core-rules';
import { schemasFromSdk } from '../src/sdk-schemas.js';

// Captured from DSH 0.1.0-rc.8 (`tests/fixtures/`); DSH_CAPTURES_DIR points the test at another host's captures.
const CAPTURES = path.resolve(process.env.DSH_CAPTURES_DIR ?? fileURLToPath(new URL('./fixtures/', import.meta.url)));

describe('schemas from the Code-Mode SDK', () => {
  const sdk = schemasFromSdk(fs.readFileSync(path.join(CAPTURES, 'code-system-prompt.txt'), 'utf8'));
  const native = (
    JSON.parse(fs.readFileSync(path.join(CAPTURES, 'native-tool-schemas.json'), 'utf8')) as {
      function?: { name: string; parameters: { properties?: object; required?: string[] } };
      name?: string;
      parameters?: { properties?: object; required?: string[] };
    }[]
  ).map(
    (tool) => tool.function ?? (tool as { name: string; parameters: { properties?: object; required?: string[] } }),
  );

  it('declares the same tools, properties and required properties as the native schemas', () => {
    expect(sdk.map((tool) => tool.name).sort()).toEqual(native.map((tool) => tool.name).sort());
    for (const tool of native) {
      const derived = sdk.find((item) => item.name === tool.name)?.parameters as {
        properties: object;
        required?: string[];
      };
      expect(Object.keys(derived.properties).sort(), tool.name).toEqual(
        Object.keys(tool.parameters.properties ?? {}).sort(),
      );
      expect([...(derived.required ?? [])].sort(), tool.name).toEqual([...(tool.parameters.required ?? [])].sort());
    }
  });

  it('validates like the host on the captured mistakes', () => {
    const bash = sdk.find((tool) => tool.name === 'bash')?.parameters;
    expect(validateArguments(bash, { command: 'ls' })).toEqual(['missing required property "description"']);
    expect(validateArguments(bash, { command: 'ls', description: 'List' })).toEqual([]);
    const editor = sdk.find((tool) => tool.name === 'str_replace_editor')?.parameters;
    expect(validateArguments(editor, { command: 'delete', path: '/a' }).length).toBeGreaterThan(0);
  });

  it('returns nothing for a prompt without an SDK', () => {
    expect(schemasFromSdk('You are a coding agent.')).toEqual([]);
    expect(schemasFromSdk('interface ToolArgsMap {')).toEqual([]);
  });
});
