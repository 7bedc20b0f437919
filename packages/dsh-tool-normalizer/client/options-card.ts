/**
 * The plugin's card in DSH's Plugins > Plugin configuration (`settings.plugin.item`, keyed by the settings
 * namespace the server half registers). rc.8 ships no generic form and its card kit may not be imported by a
 * plugin bundle, so this card follows the host's own cards' contract itself: it stages what the user toggles,
 * writes only on Save, one field at a time through the client settings scope (which fences each write with the
 * namespace revision it read), then reads the user layer back and keeps any change the host did not store. A field
 * present in the user layer is marked changed; Reset stages its removal (back to the plugin row's value).
 */
import { LIVE_OPTIONS, SETTINGS_NAMESPACE, type LiveOptionName } from '@dsh-tool-normalizer/dsh-adapter/live-options';
import { OPTIONS_NS, en, zh, type OptionsMessageKey } from './options-messages';

type Translate = (key: OptionsMessageKey) => string;

/** The client settings scope's snapshot (`ctx.settingsScope.bind({namespace})` in dsh-client-ui-settings). */
interface ScopeSnapshot {
  status: string;
  writable: boolean;
  value?: Record<string, unknown>;
  base?: Record<string, unknown>;
  user?: Record<string, unknown>;
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
    this.#staged.set(name, { kind: 'set', value: checked });
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
      const stored = snapshot.user !== undefined && Object.hasOwn(snapshot.user, name);
      if (edit?.kind === 'set') return { name, checked: edit.value, overridden: true };
      if (edit?.kind === 'reset') return { name, checked: snapshot.base?.[name] !== false, overridden: false };
      return { name, checked: snapshot.value?.[name] === true, overridden: stored };
    });
    return {
      available: snapshot.status === 'ready',
      writable: snapshot.writable,
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

/** The slice of React used here (the host's, from the loader's `require`). */
interface ReactLike {
  createElement(type: unknown, props: Record<string, unknown> | null, ...children: unknown[]): unknown;
  useState<T>(initial: T): [T, (next: T) => void];
  useSyncExternalStore<T>(subscribe: (listener: () => void) => () => void, getSnapshot: () => T): T;
}

/** What a setup may return: its disposer, or nothing. */
type Disposer = (() => void) | undefined;

interface ClientContext {
  effect(setup: () => Disposer, label?: string): void;
  slots: {
    inject(name: string, setup: () => Disposer): void;
    register(options: Record<string, unknown>, component: unknown): () => void;
  };
  locale: {
    register(namespace: string, dictionaries: { en: typeof en; zh: typeof zh }): () => void;
    bind(namespace: string): (key: string) => string;
  };
  settingsScope: { bind(spec: { namespace: string }): ScopeLike };
}

/** Client services the card needs (the meta-package's client `inject` joins these). */
export const optionsCardInject = ['slots', 'locale', 'settingsScope'];

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

/** Registers the dictionaries and the card; the card renders nothing until the host serves the namespace. */
export function applyOptionsCard(React: ReactLike, ctx: ClientContext): void {
  ctx.effect(() => ctx.locale.register(OPTIONS_NS, { en, zh }), 'tool-normalizer: options card dictionaries');
  const bound = ctx.locale.bind(OPTIONS_NS);
  const form = new OptionsForm(ctx.settingsScope.bind({ namespace: SETTINGS_NAMESPACE }));
  const h = React.createElement;

  function OptionsCard(props: { t?: Translate }): unknown {
    const t: Translate = props.t ?? ((key) => bound(key));
    const state = React.useSyncExternalStore(form.subscribe, form.getSnapshot);
    const [open, setOpen] = React.useState(false);
    if (!state.available) return null;
    const disabled = !state.writable || state.saving;
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
      open
        ? h(
            'div',
            { style: STYLE.body },
            state.writable ? null : h('p', { role: 'status', style: STYLE.muted }, t('readOnly')),
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
                      onChange: (event: { target: { checked: boolean } }) =>
                        form.toggle(field.name, event.target.checked),
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
                h(
                  'p',
                  { style: { ...STYLE.muted, margin: 0, fontSize: 12 } },
                  t(`${field.name}Hint` as OptionsMessageKey),
                ),
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
          )
        : null,
    );
  }

  ctx.slots.inject('settings.plugin.item', () =>
    ctx.slots.register({ name: 'settings.plugin.item', key: SETTINGS_NAMESPACE, locale: OPTIONS_NS }, OptionsCard),
  );
}
