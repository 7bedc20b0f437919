/**
 * Compile-time guard: the published declarations (`src/published.d.ts`, written by `gen-published-types.mjs` from the
 * config schema; tests/published-types.test.ts catches a stale copy) must describe exactly what the bundle exports.
 * If the adapter's config or exports drift, `tsc -b` fails here.
 */
import type * as Published from './published.js';
import type * as Adapter from '@dsh-tool-normalizer/dsh-adapter';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type ConfigMatches = Assert<Same<Published.ToolNormalizerConfig, Adapter.ToolNormalizerConfig>>;
export type ApplyMatches = Assert<Same<Parameters<typeof Published.apply>[1], Parameters<typeof Adapter.apply>[1]>>;
type PublishedValidation = ReturnType<(typeof Published.Config)['~standard']['validate']>;
type AdapterValidation = ReturnType<(typeof Adapter.Config)['~standard']['validate']>;
/** Validation results are assignable both ways (checked at compile time; never called). */
export function validationResultsAgree(
  adapter: AdapterValidation,
  published: PublishedValidation,
): [PublishedValidation, AdapterValidation] {
  return [adapter, published];
}
export type NameMatches = Assert<Same<typeof Published.name, typeof Adapter.name>>;
