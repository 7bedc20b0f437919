/**
 * What the analyzer adds to the DSH host profile (@dsh-tool-normalizer/dsh-profile, which holds the log formats, the
 * sub-call event names and the host-decision classes): which tool schemas stand in for a log's release when the log
 * records none, and the model names and usage shapes of DSH's test mocks. Sources: docs/host-facts.md#session-log-formats.
 */
import type { ToolSchema } from '@dsh-tool-normalizer/core-rules';
import { logFormat } from '@dsh-tool-normalizer/dsh-profile';
import { RC8_TOOL_SCHEMAS } from './release-tools.js';

export interface LogRelease {
  /** The session header's `version` (undefined when the header has none). */
  format: number | undefined;
  /** Which DSH release(s) write this format, in words. */
  label: string;
  /** Tool schemas known for that release (stand-in when the log records no tool list), or undefined. */
  schemas: readonly ToolSchema[] | undefined;
  /** Where `schemas` come from, said per failure row. */
  schemasLabel: string | undefined;
}

/**
 * The release a log's format version points to (the profile's `logFormat`). Formats 0 and 1 and headers without a
 * version have rc.8's event shapes: rc.8's schemas stand in (the closest captured ones for the dev builds), said so
 * per row. Formats 3 and 4 record their tool list; no schemas stand in for them.
 */
export function releaseOfFormat(format: number | undefined): LogRelease {
  const facts = logFormat(format);
  if (!facts) return { format, label: `unknown DSH log format ${format}`, schemas: undefined, schemasLabel: undefined };
  const label = `${facts.releases} (log format ${format ?? 'none'})`;
  if (format === 0)
    return { format, label, schemas: RC8_TOOL_SCHEMAS, schemasLabel: 'tool schemas of DSH 0.1.0-rc.8 (log format 0)' };
  if (format === undefined || format === 1)
    return {
      format,
      label,
      schemas: RC8_TOOL_SCHEMAS,
      schemasLabel: `tool schemas of DSH 0.1.0-rc.8, the closest captured release (dev build, log format ${format ?? 'none'})`,
    };
  return { format, label, schemas: undefined, schemasLabel: undefined };
}

/** Model names of DSH's own test mocks (the shared real-log set names `smoke-model`, `cli-mock` and `fixture`). */
const MOCK_MODELS = /^(smoke-model|cli-mock|fixture)$|mock/i;

/**
 * True when a request's recorded usage is a test mock's, not a provider's: a mock model name, or a usage with no
 * cache field and at most 16 input tokens (DSH's scripted test models report 1-10 input tokens and no cache; the
 * DeepSeek API always reports `cacheReadTokens`, 0 included, and no real request with a system prompt is that small).
 */
export function isMockUsage(model: string | undefined, usage: Record<string, unknown>): boolean {
  if (model && MOCK_MODELS.test(model)) return true;
  const input = typeof usage.inputTokens === 'number' ? usage.inputTokens : 0;
  return usage.cacheReadTokens === undefined && usage.cacheWriteTokens === undefined && input <= 16;
}
