/**
 * Entry of the DSH web client bundle (`dist/client.js`, the package's `./client` export declared in `dsh.client`):
 * the Settings page of `@dsh-tool-normalizer/dashboard-lit`, given the host's React. `build.mjs` bundles it with
 * lit and the dashboard into the host's module-loader format under this package's name as module id; `react` is
 * left to the loader's `require`, so the page shares the host's React. It lives outside `src/` because `src/` is
 * the published server API (its `.d.ts`); this browser code has its own type check (`client/tsconfig.json`, DOM).
 * It also registers the options card where the host's Plugins page shows a plugin's configuration (`options-card.ts`).
 */
import * as React from 'react';
import { createSettingsPlugin } from '@dsh-tool-normalizer/dashboard-lit/dsh-settings';
import { applyOptionsCard, optionsCardInject } from './options-card.js';

const plugin = createSettingsPlugin(React);

export const inject = [...new Set([...plugin.inject, ...optionsCardInject])];
export function apply(ctx: Parameters<typeof plugin.apply>[0] & Parameters<typeof applyOptionsCard>[1]): void {
  plugin.apply(ctx);
  applyOptionsCard(React as unknown as Parameters<typeof applyOptionsCard>[0], ctx);
}
