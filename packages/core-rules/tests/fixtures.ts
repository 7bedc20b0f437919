/**
 * Test fixtures from the real host (captured on DSH rc.8 and kept in `tests/fixtures/`, so the package is self-contained):
 * the tool schemas DSH rc.8 publishes, and per scenario the call the model sent and the result DSH gave.
 */
import { readFileSync } from 'node:fs';
import type { Environment, ToolCall, ToolResultLike, ToolSchema } from '../src/types.js';

function load<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T;
}

export interface Capture {
  mode: 'native' | 'code';
  what: string;
  modelCall: ToolCall & { arguments: Record<string, unknown> };
  finalResult: ToolResultLike;
  modelSaw: string;
  innerCalls?: { name: string; arguments: Record<string, unknown>; result: ToolResultLike }[];
}

export const captures = load<Record<string, Capture>>('captures.json');
export const nativeTools = load<ToolSchema[]>('native-tool-schemas.json');
export const runCodeTool = load<ToolSchema[]>('code-tool-schemas.json')[0] as ToolSchema;

/** Native mode as the captures ran it (workspace cwd `/workspace`). */
export const nativeEnv: Environment = { tools: nativeTools, mode: 'native', cwd: '/workspace' };
/** Code Mode: run_code plus every tool callable inside it. */
export const codeEnv: Environment = { tools: [runCodeTool, ...nativeTools], mode: 'code', cwd: '/workspace' };
/** An inner Code-Mode sub-call (the execution carries a parent). */
export const nestedEnv: Environment = { ...codeEnv, nested: true };

export function capture(id: string): Capture {
  const found = captures[id];
  if (!found) throw new Error(`no capture ${id}`);
  return found;
}

export function envFor(id: string): Environment {
  return capture(id).mode === 'code' ? codeEnv : nativeEnv;
}

export function schemaOf(name: string): ToolSchema {
  const tool = [runCodeTool, ...nativeTools].find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}
