/**
 * The DSH web client plugin's logic: a "Tool Normalizer" page in DSH's Settings panel (`settings.section`, id
 * `tool-normalizer`, order 25) rendering `<tn-dashboard>` against the same-origin routes, with every string from
 * the host's locale service (the dashboard's dictionaries registered under the plugin's namespace, so the page
 * follows DSH's language).
 *
 * React is handed in rather than imported, so this module imports in Node and in any bundler without React: the
 * published meta-package's client entry passes the host's React (the loader's `require('react')`) and bundles
 * the result in the host's module-loader format. Importing it has no side effect; `apply` registers `<tn-dashboard>`.
 */
import { TnDashboard } from './dashboard-element.js';
import { TAG_NAME } from './define-name.js';
import { CLEAR_PATH, EVENTS_PATH, STATS_PATH, TOKEN_PATH } from './feed.js';
import { en, zh, type MessageKey, type Messages, type Translate } from './messages.js';

/** Locale namespace of this plugin's copy. */
export const NS = 'tool-normalizer';
export const SECTION_ID = 'tool-normalizer';
export const SECTION_ORDER = 25;

/** The slice of React this module uses. */
export interface ReactLike {
  createElement(type: string, props: Record<string, unknown> | null): unknown;
}

/** The slice of DSH's client root context this plugin uses. */
export interface ClientContext {
  effect(setup: () => (() => void) | void, label?: string): void;
  slots: {
    inject(name: string, setup: () => (() => void) | void): void;
    register(options: SectionOptions, component: unknown): () => void;
  };
  locale: {
    register(namespace: string, dictionaries: { en: Messages; zh: Messages }): () => void;
    bind(namespace: string): (key: string, params?: Record<string, unknown>) => string;
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
  locale?: string;
  src?: string;
  eventsSrc?: string;
  clearSrc?: string;
  tokenSrc?: string;
  close?: () => void;
}

/** Client services the host resolves before `apply` runs. */
export const inject = ['slots', 'locale'];

export interface SettingsPlugin {
  inject: string[];
  apply(ctx: ClientContext): void;
  /** The React component of the page (exported for tests). */
  Section(props: SectionProps): unknown;
}

/**
 * The client plugin for one React. The page is a full-width `<tn-dashboard>` following the host's theme tokens;
 * it sits on the Settings panel's own background (the panel is `--dsw-alias-bg-layer-2`, not the element's
 * `layer-1`, which showed as an inset block in the dark theme) and uses the panel's padding instead of its own.
 */
export function createSettingsPlugin(React: ReactLike): SettingsPlugin {
  function Section(props: SectionProps): unknown {
    return React.createElement('tn-dashboard', {
      src: props.src ?? STATS_PATH,
      'events-src': props.eventsSrc ?? EVENTS_PATH,
      'clear-src': props.clearSrc ?? CLEAR_PATH,
      'token-src': props.tokenSrc ?? TOKEN_PATH,
      theme: 'auto',
      // React 18 sets unknown props on custom elements as attributes; the translate function is a property, so
      // it goes on through a ref callback. Without a `locale` the element follows <html lang>, which DSH's locale
      // plugin points at the active language on every switch, so numbers, dates and the host's `t` stay in step.
      ref: (element: { translator?: Translate } | null) => {
        if (!element) return;
        element.translator = props.t;
      },
      'aria-label': props.t ? props.t('title') : en.title,
      style: { display: 'block', backgroundColor: 'transparent', padding: 0 },
    });
  }

  function apply(ctx: ClientContext): void {
    if (!customElements.get(TAG_NAME)) customElements.define(TAG_NAME, TnDashboard);
    ctx.effect(() => ctx.locale.register(NS, { en, zh }), 'tool-normalizer: copy dictionaries');
    const bound = ctx.locale.bind(NS);
    const t: Translate = (key: MessageKey, params) => bound(key, params);
    ctx.slots.inject('settings.section', () =>
      ctx.slots.register(
        {
          name: 'settings.section',
          id: SECTION_ID,
          order: SECTION_ORDER,
          label: () => t('nav'),
          inject: () => ({ t, src: STATS_PATH, eventsSrc: EVENTS_PATH, clearSrc: CLEAR_PATH, tokenSrc: TOKEN_PATH }),
        },
        Section,
      ),
    );
  }

  return { inject, apply, Section };
}
