/**
 * The plugin's options where the host's Plugins page shows a plugin's configuration. rc.8's Plugins > Plugin
 * configuration lists cards in `settings.plugin.item` (keyed by the settings namespace the server half registers);
 * 0.2.1's Plugins page declares `plugins.row.config` instead (keyed `<package>#<row id>`, rendered as a one-line
 * `summary` and as the row's configuration `page`) and no `settings.plugin.item`. The card goes to
 * `plugins.row.config` whenever that slot is declared, else to `settings.plugin.item` (`seatOptionsCard`).
 * The values come from the client settings scope (`settingsScope.bind`, rc.8 to 0.1.7-rc.1: the server half's
 * settings namespace) or its successor (`configForms.get(<row id>)`, 0.1.7-rc.2 on: the row Config's volatile fields;
 * the same snapshot, writes answered with true/false); both are optional services, so a host without either still
 * loads the rest of the client (the Settings page). Where neither serves the options (no service, or the host does
 * not serve this plugin's entry), the card does not stay empty: it shows the values in effect, read from the
 * plugin's own stats route, read-only, and says where they are set (`statsScope`, `ScopeChain`). Facts and sources:
 * docs/host-facts.md ("Where live options live").
 *
 * rc.8 ships no generic form and its card kit may not be imported by a plugin bundle, so this card follows the
 * host's own cards' contract itself: it stages what the user toggles, writes only on Save, one field at a time
 * through the scope (which fences each write with the namespace revision it read), then reads the user layer back
 * and keeps any change the host did not store. A field whose value differs from the plugin row's is marked changed;
 * Reset stages the removal of the user's value (back to the row's). Toggling a field back to the row's value stages
 * that same removal (or drops the staged edit), so the card never shows "Changed" for a value that is the default.
 */
import { LIVE_OPTIONS, SETTINGS_NAMESPACE, type LiveOptionName } from '@dsh-tool-normalizer/dsh-adapter/live-options';
import { STATS_PATH } from '@dsh-tool-normalizer/dashboard-lit/feed';
import type { OptionsSeat } from '@dsh-tool-normalizer/dsh-profile';
import { OPTIONS_NS, en, zh, type OptionsMessageKey } from './options-messages.js';

type Translate = (key: OptionsMessageKey) => string;

/** The client settings scope's snapshot (`ctx.settingsScope.bind({namespace})` in dsh-client-ui-settings). */
interface ScopeSnapshot {
  status: string;
  writable: boolean;
  value?: Record<string, unknown>;
  base?: Record<string, unknown>;
  user?: Record<string, unknown>;
  /** Set when the values are the plugin's effective ones, read from its stats route (no settings service serves them). */
  fromPlugin?: boolean;
}

interface ScopeLike {
  getSnapshot(): ScopeSnapshot;
  subscribe(listener: () => void): () => void;
  set(field: string, value: unknown): Promise<void>;
  unset(field: string): Promise<void>;
}

/** A staged edit: a value to store, or the removal of the user's override. */
type Staged = { kind: 'set'; value: boolean } | { kind: 'reset' };

export interface CardState {
  available: boolean;
  writable: boolean;
  /** The values are the ones in effect, read from the plugin: they are set in settings.yaml or the row config. */
  fromPlugin: boolean;
  saving: boolean;
  failed: boolean;
  dirty: boolean;
  fields: { name: LiveOptionName; checked: boolean; overridden: boolean }[];
}

/** The card's staged form over the namespace; publishes a fresh immutable state on every change. */
export class OptionsForm {
  readonly #scope: ScopeLike;
  readonly #staged = new Map<LiveOptionName, Staged>();
  readonly #listeners = new Set<() => void>();
  #saving = false;
  #failed = false;
  #state: CardState;

  constructor(scope: ScopeLike) {
    this.#scope = scope;
    this.#state = this.#project();
    scope.subscribe(() => this.#publish());
  }

  getSnapshot = (): CardState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  toggle(name: LiveOptionName, checked: boolean): void {
    const snapshot = this.#scope.getSnapshot();
    if (checked !== baseValue(snapshot, name)) this.#staged.set(name, { kind: 'set', value: checked });
    else if (isStored(snapshot, name)) this.#staged.set(name, { kind: 'reset' });
    else this.#staged.delete(name);
    this.#failed = false;
    this.#publish();
  }

  reset(name: LiveOptionName): void {
    this.#staged.set(name, { kind: 'reset' });
    this.#failed = false;
    this.#publish();
  }

  discard(): void {
    this.#staged.clear();
    this.#failed = false;
    this.#publish();
  }

  async save(): Promise<void> {
    const plan = this.#plan();
    if (plan.length === 0 || this.#saving) return;
    this.#saving = true;
    this.#failed = false;
    this.#publish();
    const notLanded = new Map<LiveOptionName, Staged>();
    for (const [name, edit] of plan) {
      try {
        if (edit.kind === 'reset') await this.#scope.unset(name);
        else await this.#scope.set(name, edit.value);
      } catch {
        // The scope recovers by re-reading the document; the read-back below decides.
      }
      const user = this.#scope.getSnapshot().user;
      const stored = user !== undefined && Object.hasOwn(user, name);
      const landed = edit.kind === 'reset' ? !stored : stored && user?.[name] === edit.value;
      if (!landed) notLanded.set(name, edit);
    }
    this.#staged.clear();
    for (const [name, edit] of notLanded) this.#staged.set(name, edit);
    this.#saving = false;
    this.#failed = notLanded.size > 0;
    this.#publish();
  }

  /** The staged edits that would change the document. */
  #plan(): [LiveOptionName, Staged][] {
    const { value, user } = this.#scope.getSnapshot();
    return [...this.#staged].filter(([name, edit]) => {
      const stored = user !== undefined && Object.hasOwn(user, name);
      if (edit.kind === 'reset') return stored;
      return !(stored && user?.[name] === edit.value) && !(value?.[name] === edit.value && !stored);
    });
  }

  #project(): CardState {
    const snapshot = this.#scope.getSnapshot();
    const fields = LIVE_OPTIONS.map((name) => {
      const edit = this.#staged.get(name);
      const base = baseValue(snapshot, name);
      if (edit?.kind === 'set') return { name, checked: edit.value, overridden: edit.value !== base };
      if (edit?.kind === 'reset') return { name, checked: base, overridden: false };
      const checked = snapshot.value?.[name] === true;
      return { name, checked, overridden: isStored(snapshot, name) && checked !== base };
    });
    return {
      available: snapshot.status === 'ready',
      writable: snapshot.writable && snapshot.fromPlugin !== true,
      fromPlugin: snapshot.fromPlugin === true,
      saving: this.#saving,
      failed: this.#failed,
      dirty: this.#plan().length > 0,
      fields,
    };
  }

  #publish(): void {
    this.#state = this.#project();
    for (const listener of this.#listeners) listener();
  }
}

function isStored(snapshot: ScopeSnapshot, name: LiveOptionName): boolean {
  return snapshot.user !== undefined && Object.hasOwn(snapshot.user, name);
}

/**
 * The plugin row's value of a field (what Reset goes back to): the snapshot's base layer when it has one (rc.8's
 * scope), else the effective value while the user layer does not hold the field, else the option's default (on).
 */
function baseValue(snapshot: ScopeSnapshot, name: LiveOptionName): boolean {
  if (snapshot.base !== undefined && Object.hasOwn(snapshot.base, name)) return snapshot.base[name] !== false;
  if (!isStored(snapshot, name)) return snapshot.value?.[name] !== false;
  return true;
}

/** The slice of React used here (the host's, from the loader's `require`). */
interface ReactLike {
  createElement(type: unknown, props: Record<string, unknown> | null, ...children: unknown[]): unknown;
  useState<T>(initial: T): [T, (next: T) => void];
  useSyncExternalStore<T>(subscribe: (listener: () => void) => () => void, getSnapshot: () => T): T;
}

/** What a setup may return: its disposer, or nothing. */
type Disposer = (() => void) | undefined;

/** The slots service as the card uses it (dsh-client-runtime's `ctx.slots`). */
export interface SlotsLike {
  /** Runs `setup` for each lifetime of the slot's declaration (now, if it is declared); its disposer at collapse. */
  inject(name: string, setup: () => Disposer): void;
  register(options: Record<string, unknown>, component: unknown): () => void;
}

/** 0.1.7's `ConfigForm` (`configForms.get(entryId)`): the scope's snapshot; writes resolve to whether they landed. */
export interface ConfigFormLike {
  getSnapshot(): ScopeSnapshot;
  subscribe(listener: () => void): () => void;
  set(field: string, value: unknown): Promise<boolean>;
  mutate(ops: { op: 'unset'; path: string[] }[]): Promise<boolean>;
}

interface ClientContext {
  effect(setup: () => Disposer, label?: string): void;
  inject(services: string[], apply: (scoped: ClientContext) => void): unknown;
  slots: SlotsLike;
  locale: {
    register(namespace: string, dictionaries: { en: typeof en; zh: typeof zh }): () => void;
    bind(namespace: string): (key: string) => string;
  };
  settingsScope?: { bind(spec: { namespace: string }): ScopeLike };
  configForms?: { get(entryId: string): ConfigFormLike };
}

/** Required client services (the meta-package's client `inject` joins these); the settings services are optional. */
export const optionsCardInject = ['slots', 'locale'];

/** The package that declares the row (`dsh.bundle.patch` inserts `tool-normalizer`); the row id is the namespace. */
export const PLUGIN_PACKAGE = 'dsh-tool-normalizer';
/** The two seats, as the DSH host profile names them (`OptionsSeat`; which release declares which: `releaseFacts`). */
export const ROW_CONFIG_SLOT = 'plugins.row.config' satisfies OptionsSeat;
export const PLUGIN_ITEM_SLOT = 'settings.plugin.item' satisfies OptionsSeat;
/** `plugins.row.config` is keyed `<package name>#<row id>`. */
export const ROW_CONFIG_KEY = `${PLUGIN_PACKAGE}#${SETTINGS_NAMESPACE}`;

export type { OptionsSeat };

/**
 * Keeps the options in exactly one seat: `plugins.row.config` while it is declared, else `settings.plugin.item`
 * while that is declared, else none. `register(seat)` mounts the card there and returns its disposer; a seat that
 * appears or collapses later moves it.
 */
export function seatOptionsCard(slots: SlotsLike, register: (seat: OptionsSeat) => () => void): void {
  const declared = new Set<OptionsSeat>();
  let active: { seat: OptionsSeat; dispose: () => void } | undefined;
  const reconcile = () => {
    const wanted = declared.has(ROW_CONFIG_SLOT)
      ? ROW_CONFIG_SLOT
      : declared.has(PLUGIN_ITEM_SLOT)
        ? PLUGIN_ITEM_SLOT
        : undefined;
    if (active?.seat === wanted) return;
    active?.dispose();
    active = wanted ? { seat: wanted, dispose: register(wanted) } : undefined;
  };
  for (const seat of [ROW_CONFIG_SLOT, PLUGIN_ITEM_SLOT] as const) {
    slots.inject(seat, () => {
      declared.add(seat);
      reconcile();
      return () => {
        declared.delete(seat);
        reconcile();
      };
    });
  }
}

/** A `ConfigForm` as the scope the form stages against: a write the host answers `false` is a failed write. */
export function scopeOfConfigForm(form: ConfigFormLike): ScopeLike {
  return {
    getSnapshot: () => form.getSnapshot(),
    subscribe: (listener) => form.subscribe(listener),
    async set(field, value) {
      if (!(await form.set(field, value))) throw new Error(`the host did not store ${field}`);
    },
    async unset(field) {
      if (!(await form.mutate([{ op: 'unset', path: [field] }]))) throw new Error(`the host did not remove ${field}`);
    },
  };
}

/** Reads the plugin's effective options: the `options` of its stats route (`[{ name, value }]`). */
export type EffectiveOptionsReader = () => Promise<Record<string, unknown> | undefined>;

/** The stats route of this page's origin (a loopback page needs no token for it). */
export const readEffectiveOptions: EffectiveOptionsReader = async () => {
  const response = await fetch(STATS_PATH, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) return undefined;
  const options = ((await response.json().catch(() => undefined)) as { options?: unknown } | undefined)?.options;
  if (!Array.isArray(options)) return undefined;
  const values: Record<string, unknown> = {};
  for (const option of options as { name?: unknown; value?: unknown }[])
    if (typeof option?.name === 'string' && (LIVE_OPTIONS as readonly string[]).includes(option.name))
      values[option.name] = option.value;
  return values;
};

/** A read-only scope over the plugin's effective options; `refresh()` reads them again. */
export function statsScope(read: EffectiveOptionsReader): ScopeLike & { refresh(): Promise<void> } {
  const listeners = new Set<() => void>();
  let snapshot: ScopeSnapshot = { status: 'loading', writable: false, fromPlugin: true };
  const refresh = async () => {
    let value: Record<string, unknown> | undefined;
    try {
      value = await read();
    } catch {
      value = undefined;
    }
    snapshot =
      value === undefined
        ? { status: 'unavailable', writable: false, fromPlugin: true }
        : { status: 'ready', writable: false, fromPlugin: true, value };
    for (const listener of listeners) listener();
  };
  const refuse = async () => {
    throw new Error('options read from the plugin are read-only');
  };
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set: refuse,
    unset: refuse,
    refresh,
  };
}

/**
 * The host's scope once it serves the options (status `ready`), else the fallback: one scope the form stages against,
 * switching when the host's scope appears, becomes ready or goes away.
 */
export class ScopeChain implements ScopeLike {
  readonly #fallback: ScopeLike;
  readonly #listeners = new Set<() => void>();
  #primary: { scope: ScopeLike; off: () => void } | undefined;

  constructor(fallback: ScopeLike) {
    this.#fallback = fallback;
    fallback.subscribe(() => this.#notify());
  }

  /** Puts the host's scope in front; the returned disposer takes it away again. */
  use(scope: ScopeLike): () => void {
    this.#primary?.off();
    const entry = { scope, off: scope.subscribe(() => this.#notify()) };
    this.#primary = entry;
    this.#notify();
    return () => {
      if (this.#primary !== entry) return;
      entry.off();
      this.#primary = undefined;
      this.#notify();
    };
  }

  #current(): ScopeLike {
    const primary = this.#primary?.scope;
    return primary !== undefined && primary.getSnapshot().status === 'ready' ? primary : this.#fallback;
  }

  getSnapshot = (): ScopeSnapshot => this.#current().getSnapshot();
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
  set = (field: string, value: unknown) => this.#current().set(field, value);
  unset = (field: string) => this.#current().unset(field);

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

const STYLE = {
  card: {
    border: '1px solid var(--dsw-alias-border-l2)',
    background: 'var(--dsw-alias-bg-layer-3)',
    borderRadius: 12,
    listStyle: 'none',
  },
  header: {
    all: 'unset',
    boxSizing: 'border-box',
    width: '100%',
    cursor: 'pointer',
    display: 'flex',
    gap: 12,
    alignItems: 'center',
    padding: '14px 16px',
  },
  name: { color: 'var(--dsw-alias-label-primary)', fontSize: 15, fontWeight: 600 },
  muted: { color: 'var(--dsw-alias-label-tertiary)', fontSize: 13, lineHeight: 1.5 },
  badge: {
    whiteSpace: 'nowrap',
    background: 'var(--dsw-alias-bg-module-platform)',
    color: 'var(--dsw-alias-label-secondary)',
    borderRadius: 999,
    padding: '1px 8px',
    fontSize: 11,
  },
  body: { borderTop: '1px solid var(--dsw-alias-border-l2)', margin: '0 16px', paddingBottom: 8 },
  field: {
    display: 'flex',
    flexDirection: 'column',
    gap: 4,
    padding: '12px 0',
    borderBottom: '1px solid var(--dsw-alias-border-l2)',
  },
  label: {
    display: 'flex',
    gap: 8,
    alignItems: 'center',
    color: 'var(--dsw-alias-label-primary)',
    fontSize: 13,
    fontWeight: 500,
  },
  link: {
    font: 'inherit',
    fontSize: 12,
    background: 'none',
    border: 0,
    padding: 0,
    cursor: 'pointer',
    color: 'var(--dsw-alias-label-secondary)',
  },
  footer: { display: 'flex', gap: 8, justifyContent: 'flex-end', alignItems: 'center', padding: '12px 0 4px' },
  button: {
    font: 'inherit',
    fontSize: 13,
    borderRadius: 8,
    padding: '5px 14px',
    cursor: 'pointer',
    border: '1px solid var(--dsw-alias-border-l2)',
    background: 'none',
    color: 'var(--dsw-alias-label-secondary)',
  },
  error: { flex: 1, margin: 0, color: 'var(--dsw-alias-label-error)', fontSize: 12 },
} as const;

/**
 * Registers the dictionaries, then the card over whichever settings service the host has (the first to appear); until
 * one serves the options, and on a host where none does, the card shows the plugin's effective values read-only.
 */
export function applyOptionsCard(
  React: ReactLike,
  ctx: ClientContext,
  readOptions: EffectiveOptionsReader = readEffectiveOptions,
): void {
  ctx.effect(() => ctx.locale.register(OPTIONS_NS, { en, zh }), 'tool-normalizer: options card dictionaries');
  const fallback = statsScope(readOptions);
  const chain = new ScopeChain(fallback);
  void fallback.refresh();
  let served = false;
  const serve = (scoped: ClientContext, scope: ScopeLike) => {
    if (served) return;
    served = true;
    const off = chain.use(scope);
    scoped.effect(
      () => () => {
        served = false;
        off();
        void fallback.refresh();
      },
      'tool-normalizer: options card settings service',
    );
  };
  ctx.inject(['settingsScope'], (scoped) =>
    serve(scoped, scoped.settingsScope!.bind({ namespace: SETTINGS_NAMESPACE })),
  );
  ctx.inject(['configForms'], (scoped) =>
    serve(scoped, scopeOfConfigForm(scoped.configForms!.get(SETTINGS_NAMESPACE))),
  );
  mountOptionsCard(React, ctx, new OptionsForm(chain));
}

/** Props of a `plugins.row.config` entry (0.2.1's `PluginConfigViewProps`; the host's own `form` is not used). */
export interface RowConfigProps {
  view?: 'summary' | 'page';
  t?: Translate;
}

/** The card (`settings.plugin.item`) and the row page (`plugins.row.config`) over one staged form. */
export function mountOptionsCard(
  React: ReactLike,
  ctx: Pick<ClientContext, 'slots' | 'locale'>,
  form: OptionsForm,
): void {
  const bound = ctx.locale.bind(OPTIONS_NS);
  const h = React.createElement;

  /** The fields, the notes and Save/Discard: the card's body and the whole row page. */
  function body(state: CardState, t: Translate): unknown {
    const disabled = !state.writable || state.saving;
    return h(
      'div',
      { style: STYLE.body },
      state.fromPlugin
        ? h('p', { role: 'status', style: STYLE.muted }, t('setInConfig'))
        : state.writable
          ? null
          : h('p', { role: 'status', style: STYLE.muted }, t('readOnly')),
      ...state.fields.map((field) => {
        const id = `tool-normalizer-option-${field.name}`;
        return h(
          'div',
          { key: field.name, style: STYLE.field },
          h(
            'div',
            { style: { display: 'flex', gap: 8, alignItems: 'center' } },
            h(
              'label',
              { htmlFor: id, style: { ...STYLE.label, flex: 1 } },
              h('input', {
                id,
                type: 'checkbox',
                'data-option': field.name,
                checked: field.checked,
                disabled,
                onChange: (event: { target: { checked: boolean } }) => form.toggle(field.name, event.target.checked),
              }),
              t(field.name),
            ),
            field.overridden ? h('span', { style: STYLE.badge }, t('overridden')) : null,
            field.overridden
              ? h(
                  'button',
                  { type: 'button', style: STYLE.link, disabled, onClick: () => form.reset(field.name) },
                  t('reset'),
                )
              : null,
          ),
          h('p', { style: { ...STYLE.muted, margin: 0, fontSize: 12 } }, t(`${field.name}Hint` as OptionsMessageKey)),
        );
      }),
      h('p', { style: { ...STYLE.muted, fontSize: 12 } }, t('restartNote')),
      h(
        'div',
        { style: STYLE.footer },
        state.failed ? h('p', { role: 'status', style: STYLE.error }, t('saveFailed')) : null,
        h(
          'button',
          {
            type: 'button',
            style: STYLE.button,
            disabled: !state.dirty || state.saving,
            onClick: () => form.discard(),
          },
          t('discard'),
        ),
        h(
          'button',
          {
            type: 'button',
            style: {
              ...STYLE.button,
              background: 'var(--dsw-alias-label-primary)',
              color: 'var(--dsw-alias-bg-layer-3)',
              opacity: !state.dirty || disabled ? 0.4 : 1,
            },
            disabled: !state.dirty || disabled,
            onClick: () => void form.save(),
          },
          t(state.saving ? 'saving' : 'save'),
        ),
      ),
    );
  }

  function OptionsCard(props: { t?: Translate }): unknown {
    const t: Translate = props.t ?? ((key) => bound(key));
    const state = React.useSyncExternalStore(form.subscribe, form.getSnapshot);
    const [open, setOpen] = React.useState(false);
    if (!state.available) return null;
    const title = t('title');
    return h(
      'li',
      { style: STYLE.card, 'data-plugin-card': SETTINGS_NAMESPACE },
      h(
        'button',
        {
          type: 'button',
          style: STYLE.header,
          'aria-expanded': open,
          'aria-label': `${t(open ? 'collapse' : 'expand')}: ${title}`,
          onClick: () => setOpen(!open),
        },
        h(
          'span',
          { style: { display: 'flex', flexDirection: 'column', gap: 4, flex: 1, minWidth: 0 } },
          h('span', { style: STYLE.name }, title),
          h('span', { style: STYLE.muted }, t('description')),
        ),
        state.dirty ? h('span', { style: STYLE.badge }, t('unsaved')) : null,
      ),
      open ? body(state, t) : null,
    );
  }

  /** `plugins.row.config`: the one-liner for `view: 'summary'`, the form with its own Save for `view: 'page'`. */
  function OptionsRowPage(props: RowConfigProps): unknown {
    const t: Translate = props.t ?? ((key) => bound(key));
    const state = React.useSyncExternalStore(form.subscribe, form.getSnapshot);
    if (props.view === 'summary') return t('description');
    if (!state.available) return h('p', { role: 'status', style: STYLE.muted }, t('description'));
    return h('div', { 'data-plugin-page': ROW_CONFIG_KEY }, body(state, t));
  }

  seatOptionsCard(ctx.slots, (seat) =>
    seat === ROW_CONFIG_SLOT
      ? ctx.slots.register({ name: ROW_CONFIG_SLOT, key: ROW_CONFIG_KEY, locale: OPTIONS_NS }, OptionsRowPage)
      : ctx.slots.register({ name: PLUGIN_ITEM_SLOT, key: SETTINGS_NAMESPACE, locale: OPTIONS_NS }, OptionsCard),
  );
}
