/**
 * The README's one line for string model names: `setDefaultModelProvider(healModelProvider(provider))` before
 * `run()`. Its own file, because the default provider is global to the SDK's module.
 */
import { Agent, run, setDefaultModelProvider } from '@openai/agents';
import { expect, it } from 'vitest';
import { healModelProvider } from '../src/index.js';
import { type Executions, jsonSchemaTools, scriptedModel } from './agent-loop.js';

it('run() with a model name uses the healed default provider', async () => {
  const executions: Executions = [];
  const model = scriptedModel([{ name: 'functions.read', input: '{"file_path":"c.txt"}' }]);
  const names: (string | undefined)[] = [];
  setDefaultModelProvider(
    healModelProvider({
      getModel: (name) => {
        names.push(name);
        return model;
      },
    }),
  );
  const tools = jsonSchemaTools(
    [
      {
        name: 'read',
        description: 'Read a file',
        parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
      },
    ],
    executions,
  );
  const result = await run(new Agent({ name: 'coder', model: 'gpt-5.4', tools }), 'go');
  expect(names[0]).toBe('gpt-5.4');
  expect(executions).toEqual([{ tool: 'read', input: { file_path: 'c.txt' } }]);
  expect(result.finalOutput).toBe('done');
});
