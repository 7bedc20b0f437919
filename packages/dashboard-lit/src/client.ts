/**
 * The DSH web client plugin: adds a "Tool Normalizer" page to DSH's Settings panel (`settings.section`, id
 * `tool-normalizer`, order 25) that renders `<tn-dashboard>` against the same-origin stats route.
 * `build.mjs` bundles this file with lit into `dist/client.js` in the host's module-loader format; React and
 * every host module stay external and come from the loader's `require`, so the page shares the host's React.
 */
import * as React from 'react';
import './define.js';
import { DEFAULT_CLEAR_URL, DEFAULT_STATS_URL } from './dashboard-element.js';

/** Locale namespace of this plugin's copy. */
export const NS = 'tool-normalizer';
export const SECTION_ID = 'tool-normalizer';
export const SECTION_ORDER = 25;

export const en = {
  nav: 'Tool Normalizer',
  title: 'Tool Normalizer statistics',
};
export const zh: typeof en = {
  nav: '工具调用修复',
  title: '工具调用修复统计',
};

type Translate = (key: keyof typeof en) => string;

/** The slice of DSH's client root context this plugin uses. */
export interface ClientContext {
  effect(setup: () => (() => void) | void, label?: string): void;
  slots: {
    inject(name: string, setup: () => (() => void) | void): void;
    register(options: SectionOptions, component: unknown): () => void;
  };
  locale: {
    register(namespace: string, dictionaries: { en: typeof en; zh: typeof en }): () => void;
    bind(namespace: string): Translate;
  };
}

export interface SectionOptions {
  name: 'settings.section';
  id: string;
  order: number;
  label: () => string;
  inject: () => SectionProps;
}

/** Props the section receives: what `inject` returns, plus the shell's owner props (`close`). */
export interface SectionProps {
  t?: Translate;
  src?: string;
  clearSrc?: string;
  close?: () => void;
}

/** Client services the host resolves before `apply` runs. */
export const inject = ['slots', 'locale'];

/**
 * The Settings page: a full-width `<tn-dashboard>` following the host's theme tokens. It sits on the Settings
 * panel's own background (the panel is `--dsw-alias-bg-layer-2`, not the element's `layer-1`, which showed as
 * an inset block in the dark theme) and uses the panel's padding instead of its own.
 */
export function ToolNormalizerSection(props: SectionProps): React.ReactElement {
  return React.createElement('tn-dashboard', {
    src: props.src ?? DEFAULT_STATS_URL,
    'clear-src': props.clearSrc ?? DEFAULT_CLEAR_URL,
    theme: 'auto',
    'aria-label': props.t ? props.t('title') : en.title,
    style: { display: 'block', backgroundColor: 'transparent', padding: 0 },
  });
}

export function apply(ctx: ClientContext): void {
  ctx.effect(() => ctx.locale.register(NS, { en, zh }), 'tool-normalizer: copy dictionaries');
  const t = ctx.locale.bind(NS);
  ctx.slots.inject('settings.section', () =>
    ctx.slots.register(
      {
        name: 'settings.section',
        id: SECTION_ID,
        order: SECTION_ORDER,
        label: () => t('nav'),
        inject: () => ({ t, src: DEFAULT_STATS_URL, clearSrc: DEFAULT_CLEAR_URL }),
      },
      ToolNormalizerSection,
    ),
  );
}
