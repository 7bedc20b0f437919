/**
 * Where the options card sits on each host: with 0.2.1's Plugins page (fixture of its slot contract) it is the
 * `plugins.row.config` entry `dsh-tool-normalizer#tool-normalizer` and never `settings.plugin.item` (undeclared
 * there); with rc.8's slots it is the `settings.plugin.item` card keyed by the namespace (the real-Chromium proof of
 * that is apps/dsh-lab/tests/plugin-web-plugin-configuration.test.ts). The slots service below keeps the contract the
 * host's `ctx.slots` documents (inject runs while a slot is declared, register needs a declared slot and a unique
 * key); the card's components are rendered with a minimal React (one render, no DOM).
 */
import fs from 'node:fs';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { LIVE_OPTIONS } from '@dsh-tool-normalizer/dsh-adapter/live-options';
import {
  applyOptionsCard,
  PLUGIN_PACKAGE,
  ROW_CONFIG_KEY,
  type ConfigFormLike,
  type RowConfigProps,
} from '../client/options-card.js';
import { DSH_0_2_1_PLUGINS_PAGE_SLOTS, DSH_RC8_SETTINGS_SLOTS, type SlotSpec } from './fixtures/dsh-slot-contracts.js';

interface Entry {
  slot: string;
  key: string;
  component: (props: Record<string, unknown>) => unknown;
}

/** A slots service with the host's contract, over a set of declared slots. */
function slotsService() {
  const specs = new Map<string, SlotSpec>();
  const waiting = new Map<string, { setup: () => (() => void) | undefined; dispose?: () => void }[]>();
  const entries: Entry[] = [];
  return {
    entries,
    declare(name: string, spec: SlotSpec) {
      specs.set(name, spec);
      for (const w of waiting.get(name) ?? []) w.dispose = w.setup() ?? undefined;
    },
    collapse(name: string) {
      specs.delete(name);
      for (const w of waiting.get(name) ?? []) {
        w.dispose?.();
        w.dispose = undefined;
      }
    },
    inject(name: string, setup: () => (() => void) | undefined) {
      const w: { setup: typeof setup; dispose?: () => void } = { setup };
      waiting.set(name, [...(waiting.get(name) ?? []), w]);
      if (specs.has(name)) w.dispose = setup() ?? undefined;
    },
    register(options: Record<string, unknown>, component: unknown) {
      const slot = String(options.name);
      const spec = specs.get(slot);
      if (!spec) throw new Error(`slot ${slot} is not declared`);
      const key = String(options.key);
      if (spec.kind === 'keyed' && entries.some((e) => e.slot === slot && e.key === key))
        throw new Error(`duplicate key ${key} in ${slot}`);
      const entry = { slot, key, component: component as Entry['component'] };
      entries.push(entry);
      return () => entries.splice(entries.indexOf(entry), 1);
    },
  };
}

/** 0.1.7's ConfigForm over an in-memory user layer; `accept` decides what the host answers. */
function configForm(accept = true): ConfigFormLike & { user: Record<string, unknown>; writes: string[] } {
  const listeners = new Set<() => void>();
  const form = {
    user: {} as Record<string, unknown>,
    writes: [] as string[],
    getSnapshot: () => ({
      status: 'ready',
      writable: true,
      value: Object.fromEntries(LIVE_OPTIONS.map((name) => [name, form.user[name] ?? true])),
      user: { ...form.user },
    }),
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async set(field: string, value: unknown) {
      form.writes.push(`set ${field}=${String(value)}`);
      if (!accept) return false;
      form.user[field] = value;
      for (const l of listeners) l();
      return true;
    },
    async mutate(ops: { op: 'unset'; path: string[] }[]) {
      form.writes.push(...ops.map((op) => `unset ${op.path.join('.')}`));
      if (!accept) return false;
      for (const op of ops) delete form.user[op.path[0]!];
      return true;
    },
  };
  return form;
}

/** One-render React: elements as plain objects, state as its initial value, stores read once. */
const React = {
  createElement: (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => ({
    type,
    props: props ?? {},
    children: children.flat(),
  }),
  useState: <T>(initial: T): [T, (next: T) => void] => [initial, () => {}],
  useSyncExternalStore: <T>(_subscribe: unknown, getSnapshot: () => T): T => getSnapshot(),
};

function host(
  slots: Record<string, SlotSpec>,
  services: {
    configForms?: ConfigFormLike;
    scope?: ConfigFormLike;
    /** The plugin's effective options (its stats route); none by default. */
    readOptions?: () => Promise<Record<string, unknown> | undefined>;
  },
) {
  const service = slotsService();
  for (const [name, spec] of Object.entries(slots)) service.declare(name, spec);
  const ctx = {
    effect: (setup: () => unknown) => void setup(),
    inject(names: string[], apply: (scoped: object) => void) {
      if (names.every((name) => (ctx as Record<string, unknown>)[name] !== undefined)) apply(ctx);
    },
    slots: service,
    locale: { register: () => () => {}, bind: () => (key: string) => key },
    configForms: services.configForms ? { get: () => services.configForms! } : undefined,
    settingsScope: services.scope
      ? {
          bind: () => ({
            ...services.scope!,
            set: async (f: string, v: unknown) => void (await services.scope!.set(f, v)),
            unset: async (f: string) => void (await services.scope!.mutate([{ op: 'unset', path: [f] }])),
          }),
        }
      : undefined,
  };
  applyOptionsCard(React as never, ctx as never, services.readOptions ?? (async () => undefined));
  return service;
}

/** Every element of a rendered tree with the given attribute. */
function find(tree: unknown, attribute: string): { props: Record<string, unknown> }[] {
  if (!tree || typeof tree !== 'object') return [];
  const node = tree as { props?: Record<string, unknown>; children?: unknown[] };
  const own = node.props && attribute in node.props ? [node as { props: Record<string, unknown> }] : [];
  return [...own, ...(node.children ?? []).flatMap((child) => find(child, attribute))];
}

describe('the options card on DSH 0.2.1 (fixture: its Plugins page slot contract)', () => {
  it('is the plugins.row.config entry of this package row, and nothing is put in settings.plugin.item', () => {
    expect(Object.keys(DSH_0_2_1_PLUGINS_PAGE_SLOTS)).not.toContain('settings.plugin.item');
    const service = host(DSH_0_2_1_PLUGINS_PAGE_SLOTS, { configForms: configForm() });
    expect(service.entries.map((e) => [e.slot, e.key])).toEqual([
      ['plugins.row.config', 'dsh-tool-normalizer#tool-normalizer'],
    ]);
  });

  it('renders the summary as the one-liner and the page as the form with one checkbox per live option', () => {
    const service = host(DSH_0_2_1_PLUGINS_PAGE_SLOTS, { configForms: configForm() });
    const Page = service.entries[0]!.component as (props: RowConfigProps) => unknown;
    expect(Page({ view: 'summary' })).toBe('description');
    const page = Page({ view: 'page' });
    expect(find(page, 'data-plugin-page')[0]?.props['data-plugin-page']).toBe(ROW_CONFIG_KEY);
    expect(find(page, 'data-option').map((e) => e.props['data-option'])).toEqual([...LIVE_OPTIONS]);
  });

  it('saves through the ConfigForm, and a write the host answers false is shown as not saved', async () => {
    for (const accept of [true, false]) {
      const form = configForm(accept);
      const service = host(DSH_0_2_1_PLUGINS_PAGE_SLOTS, { configForms: form });
      const Page = service.entries[0]!.component as (props: RowConfigProps) => unknown;
      const box = find(Page({ view: 'page' }), 'data-option').find((e) => e.props['data-option'] === 'errorHints')!;
      (box.props.onChange as (event: unknown) => void)({ target: { checked: false } });
      const save = find(Page({ view: 'page' }), 'onClick').at(-1)!;
      await (save.props.onClick as () => Promise<void>)();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(form.writes).toEqual(['set errorHints=false']);
      expect(form.user.errorHints, `accept=${accept}`).toBe(accept ? false : undefined);
      const failed = find(Page({ view: 'page' }), 'role').some((e) => e.props.role === 'status');
      expect(failed, `accept=${accept}`).toBe(!accept);
    }
  });
});

describe('a host that serves no live options (no settings service, or not this entry)', () => {
  const effective = { ...Object.fromEntries(LIVE_OPTIONS.map((name) => [name, true])), errorHints: false };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const pageOf = (service: ReturnType<typeof host>) =>
    (service.entries[0]!.component as (props: RowConfigProps) => unknown)({ view: 'page' });

  it.each([
    ['no settings service', {}],
    [
      'a ConfigForm the host reports unavailable',
      { configForms: { ...configForm(), getSnapshot: () => ({ status: 'unavailable', writable: false }) } },
    ],
  ] as const)('%s: shows the values in effect, read-only, and says where they are set', async (_name, services) => {
    const service = host(DSH_0_2_1_PLUGINS_PAGE_SLOTS, { ...services, readOptions: async () => effective });
    await settle();
    const page = pageOf(service);
    const boxes = find(page, 'data-option');
    expect(boxes.map((e) => [e.props['data-option'], e.props.checked, e.props.disabled])).toEqual(
      LIVE_OPTIONS.map((name) => [name, name !== 'errorHints', true]),
    );
    const notes = find(page, 'role').map((e) => (e as unknown as { children: unknown[] }).children[0]);
    expect(notes).toEqual(['setInConfig']);
  });

  it('switches to the host form once it is ready, writable again', async () => {
    const form = configForm();
    let ready = false;
    const listeners = new Set<() => void>();
    const late = {
      ...form,
      getSnapshot: () => (ready ? form.getSnapshot() : { status: 'loading', writable: false }),
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const service = host(DSH_0_2_1_PLUGINS_PAGE_SLOTS, { configForms: late, readOptions: async () => effective });
    await settle();
    expect(find(pageOf(service), 'data-option').every((e) => e.props.disabled === true)).toBe(true);
    ready = true;
    for (const listener of listeners) listener();
    const boxes = find(pageOf(service), 'data-option');
    expect(boxes.every((e) => e.props.disabled === false)).toBe(true);
    expect(find(pageOf(service), 'role')).toEqual([]);
  });

  it('a plugin that answers nothing leaves only the one-line description', async () => {
    const service = host(DSH_0_2_1_PLUGINS_PAGE_SLOTS, {});
    await settle();
    expect(find(pageOf(service), 'data-option')).toEqual([]);
  });
});

describe('a value set back to the default', () => {
  /** The page's one field: whether it is checked and whether it carries the Changed badge and Reset. */
  function field(Page: (props: RowConfigProps) => unknown, name: string) {
    const page = Page({ view: 'page' });
    const box = find(page, 'data-option').find((e) => e.props['data-option'] === name)!;
    const badges = JSON.stringify(page).includes('"overridden"');
    return { box, checked: box.props.checked, changed: badges };
  }
  const toggle = (box: { props: Record<string, unknown> }, checked: boolean) =>
    (box.props.onChange as (event: unknown) => void)({ target: { checked } });
  const save = async (Page: (props: RowConfigProps) => unknown) => {
    await (find(Page({ view: 'page' }), 'onClick').at(-1)!.props.onClick as () => Promise<void>)();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };

  it('shows no Changed / Reset once toggled back, before or after saving, and leaves the user layer clean', async () => {
    const form = configForm();
    const service = host(DSH_0_2_1_PLUGINS_PAGE_SLOTS, { configForms: form });
    const Page = service.entries[0]!.component as (props: RowConfigProps) => unknown;
    // staged off, then back on before saving: nothing staged, nothing changed
    toggle(field(Page, 'breakLoops').box, false);
    expect(field(Page, 'breakLoops')).toMatchObject({ checked: false, changed: true });
    toggle(field(Page, 'breakLoops').box, true);
    expect(field(Page, 'breakLoops')).toMatchObject({ checked: true, changed: false });
    // saved off, then set back on and saved: the host's user layer no longer holds the field
    toggle(field(Page, 'breakLoops').box, false);
    await save(Page);
    expect(form.user).toEqual({ breakLoops: false });
    expect(field(Page, 'breakLoops')).toMatchObject({ checked: false, changed: true });
    toggle(field(Page, 'breakLoops').box, true);
    await save(Page);
    expect(form.writes).toEqual(['set breakLoops=false', 'unset breakLoops']);
    expect(form.user).toEqual({});
    expect(field(Page, 'breakLoops')).toMatchObject({ checked: true, changed: false });
  });

  it('a user value equal to the default (written by an older card) is not marked Changed', () => {
    const form = configForm();
    form.user.trimStackTraces = true;
    const service = host(DSH_0_2_1_PLUGINS_PAGE_SLOTS, { configForms: form });
    const Page = service.entries[0]!.component as (props: RowConfigProps) => unknown;
    expect(field(Page, 'trimStackTraces')).toMatchObject({ checked: true, changed: false });
  });
});

describe('the options card on DSH rc.8 (its settings slots)', () => {
  it('is the settings.plugin.item card keyed by the settings namespace', () => {
    const service = host(DSH_RC8_SETTINGS_SLOTS, { scope: configForm() });
    expect(service.entries.map((e) => [e.slot, e.key])).toEqual([['settings.plugin.item', 'tool-normalizer']]);
  });
});

describe('one seat at a time', () => {
  it('prefers plugins.row.config when both exist, and moves when a seat appears or collapses', () => {
    const service = host({ ...DSH_RC8_SETTINGS_SLOTS, ...DSH_0_2_1_PLUGINS_PAGE_SLOTS }, { scope: configForm() });
    const seats = () => service.entries.map((e) => e.slot);
    expect(seats()).toEqual(['plugins.row.config']);
    service.collapse('plugins.row.config');
    expect(seats()).toEqual(['settings.plugin.item']);
    service.declare('plugins.row.config', DSH_0_2_1_PLUGINS_PAGE_SLOTS['plugins.row.config']!);
    expect(seats()).toEqual(['plugins.row.config']);
    service.collapse('plugins.row.config');
    service.collapse('settings.plugin.item');
    expect(seats()).toEqual([]);
  });

  it('with neither settings service the card is still there and throws nothing', () => {
    expect(host(DSH_0_2_1_PLUGINS_PAGE_SLOTS, {}).entries.map((e) => e.slot)).toEqual(['plugins.row.config']);
  });

  it('the row key is this package and the row id its bundle patch inserts', () => {
    const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const patch = yaml.load(fs.readFileSync(new URL('../cordis.patch.yml', import.meta.url), 'utf8')) as {
      insert: { id: string }[];
    }[];
    expect(PLUGIN_PACKAGE).toBe(manifest.name);
    expect(ROW_CONFIG_KEY).toBe(`${manifest.name}#${patch[0]!.insert[0]!.id}`);
  });
});
