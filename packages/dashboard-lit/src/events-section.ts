/**
 * The events section: server-side filters (tool, category, rule, outcome, text, time range), one page of events as
 * a table (restacked as cards in narrow panels by the stylesheet), paging, and each event's before/after in readable
 * form (decoded arguments, a program's line diff with changed spans marked, a per-key diff) with the raw JSON one
 * toggle away. One column table (`COLUMNS`) gives the header, the cells, the colspan and the card labels. What the
 * plugin did is told in the page's language. Everything is rendered through lit text bindings: event data is never
 * parsed as HTML.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { breakable } from './breakable.js';
import { readableChange, type DiffLine, type KeyChange, type Readable } from './before-after.js';
import { categoryLabel, ruleTextsZh } from './catalogue-messages.js';
import type { EventsView } from './feed-controller.js';
import { OUTCOMES } from './feed.js';
import { distinct, isFiltered, type EventFilter } from './format.js';
import { en, type MessageKey } from './messages.js';
import type { DashboardEvent, DashboardPayload } from './types.js';
import type { View } from './view.js';

export interface EventsControls {
  filter: EventFilter;
  setFilter(patch: Partial<EventFilter>): void;
  resetFilter(): void;
  step(direction: 1 | -1): void;
  isRaw(id: string): boolean;
  toggleRaw(id: string): void;
  error: string | undefined;
  /** The page's own DSH profile: an event recorded in another profile is labelled with its profile. */
  ownProfile?: string | undefined;
  /** English rule titles by id (the payload's catalogue), for the lines that say what the plugin did. */
  ruleTitles: ReadonlyMap<string, string>;
}

/** A rule's title in the page's language; an id nobody knows shows as itself. */
function ruleTitle(view: View, titles: ReadonlyMap<string, string>, id: string): string {
  return (view.locale === 'zh' ? ruleTextsZh[id]?.title : undefined) ?? titles.get(id) ?? id;
}

/**
 * One line of an event's `changes` in the page's language. The adapter's own lines (a recovery, a Code-Mode
 * sub-call's recovery, a caught repeat) have fixed forms and are retold, without the sub-call's internal call id;
 * a rule's receipt (English engine text) shows, in Chinese, the rule's title, with the original text on hover.
 */
export function changeLine(
  view: View,
  titles: ReadonlyMap<string, string>,
  line: string,
  ruleId: string | undefined,
): { text: string; original?: string } {
  const { t, fmt } = view;
  const recovery = /^recovery (\S+): (\d+) nested call\(s\)$/.exec(line);
  if (recovery)
    return {
      text: t('changeRecovery', {
        rule: ruleTitle(view, titles, recovery[1] ?? ''),
        steps: fmt.integer(Number(recovery[2])),
      }),
    };
  const inner = /^inner (\S+) \([^)]*\): (\S+)( \(did not recover\))?$/.exec(line);
  if (inner)
    return {
      text: t(inner[3] ? 'changeInnerFailed' : 'changeInner', {
        tool: inner[1] ?? '',
        rule: ruleTitle(view, titles, inner[2] ?? ''),
      }),
    };
  const repeat = /^repeat: identical failure #(\d+) in this session$/.exec(line);
  if (repeat) return { text: t('changeRepeat', { count: fmt.integer(Number(repeat[1])) }) };
  if (view.locale === 'zh' && ruleId !== undefined && ruleTextsZh[ruleId])
    return { text: ruleTitle(view, titles, ruleId), original: line };
  return { text: line };
}

function renderChangeLines(
  view: View,
  event: DashboardEvent,
  controls: EventsControls,
): TemplateResult | typeof nothing {
  if (event.changes.length === 0) return nothing;
  // The adapter writes one rule id per change line, in the same order; otherwise no line is tied to a rule.
  const paired = event.ruleIds.length === event.changes.length;
  return html`<ul class="hint change-lines" data-change-lines>${event.changes.map((line, index) => {
    const told = changeLine(view, controls.ruleTitles, line, paired ? event.ruleIds[index] : undefined);
    return html`<li title=${told.original ?? nothing}>${told.text}</li>`;
  })}</ul>`;
}

const SIGNS = { same: ' ', removed: '-', added: '+' } as const;

function renderLines(lines: readonly DiffLine[]): TemplateResult {
  return html`<div class="diff" data-diff>${lines.map(
    (line) =>
      html`<div class="line ${line.kind}" data-sign=${SIGNS[line.kind]}><span>${line.spans.map((span) => (span.changed && line.kind !== 'same' ? html`<mark>${span.text}</mark>` : span.text))}</span></div>`,
  )}</div>`;
}

function renderKeys(view: View, keys: readonly KeyChange[], showUnchanged: boolean): TemplateResult | typeof nothing {
  const changed = keys.filter((key) => key.kind !== 'same');
  const { t } = view;
  if (changed.length === 0) {
    if (!showUnchanged) return nothing;
    // Nothing changed (the call was kept): the decoded arguments, so the reader still sees what was sent.
    if (keys.length === 0) return nothing;
    return html`<div class="keys" data-keys><span class="hint">${t('unchanged')}</span>
      ${keys.map((key) => html`<div class="key" data-key=${key.key}><code>${key.key}</code>${renderLines([{ kind: 'same', spans: [{ text: key.before ?? '', changed: false }] }])}</div>`)}
    </div>`;
  }
  const shown = changed;
  return html`<div class="keys" data-keys>
    ${shown.map((key) => {
      const label = t(key.kind as MessageKey);
      if (key.kind === 'changed' && key.lines)
        return html`<div class="key" data-key=${key.key}><code>${key.key}</code> <span class="hint">${label}</span>${renderLines(key.lines)}</div>`;
      const value = key.kind === 'added' ? key.after : key.before;
      const kind = key.kind === 'added' ? 'added' : 'removed';
      return html`<div class="key" data-key=${key.key}><code>${key.key}</code> <span class="hint">${label}</span>${renderLines([{ kind, spans: [{ text: value ?? '', changed: true }] }])}</div>`;
    })}
  </div>`;
}

/** The readable form of each event, computed once per event object (events are never mutated). */
const readableOf = new WeakMap<DashboardEvent, Readable | undefined>();

function readable(event: DashboardEvent): Readable | undefined {
  if (!readableOf.has(event)) readableOf.set(event, readableChange(event.before, event.after));
  return readableOf.get(event);
}

function renderChange(view: View, event: DashboardEvent, controls: EventsControls): TemplateResult | typeof nothing {
  const { t } = view;
  if (event.before === undefined && event.after === undefined) return renderChangeLines(view, event, controls);
  const change = readable(event);
  const raw = !change || controls.isRaw(event.id);
  const toggle = change
    ? html`<button type="button" class="toggle" aria-pressed=${raw ? 'true' : 'false'} @click=${() => controls.toggleRaw(event.id)}>${raw ? t('showReadable') : t('showRaw')}</button>`
    : nothing;
  const body = raw
    ? html`${event.before !== undefined ? html`<div class="preview-label">${t('before')}</div><pre data-before>${event.before}</pre>` : nothing}
      ${event.after !== undefined ? html`<div class="preview-label">${t('after')}</div><pre data-after>${event.after}</pre>` : nothing}`
    : change.kind === 'program'
      ? html`<div class="preview-label">${t('program')}</div>${renderLines(change.lines)}${renderKeys(view, change.keys, false)}`
      : change.kind === 'keys'
        ? renderKeys(view, change.keys, true)
        : renderLines(change.lines);
  return html`<div class="change" data-change=${raw ? 'raw' : change.kind} part="change">
    <div class="change-head"><span></span>${toggle}</div>
    ${body}
    ${renderChangeLines(view, event, controls)}
  </div>`;
}

/**
 * The badge of an event another harness recorded (the MCP proxy's receipts share the store): the catalogue's name
 * for a harness it knows (`harness.<name>`), else the raw name as text. DSH's own events (no harness) get none.
 */
function harnessBadge(view: View, harness: string | undefined): TemplateResult | typeof nothing {
  if (harness === undefined) return nothing;
  const key = `harness.${harness}`;
  const label = Object.hasOwn(en, key) ? view.t(key as MessageKey) : harness;
  return html` <span class="badge harness" data-harness=${harness} title=${view.t('harnessTitle', { harness })}>${label}</span>`;
}

interface Column {
  /** The cell's class is `cell-<id>`; the stylesheet orders and sizes the narrow cards by it. */
  id: string;
  header: MessageKey;
  /** The header cell's class (its width in the wide table). */
  headerClass?: string;
  /** The label a narrow card puts before the cell (`data-label`). */
  cardLabel?: MessageKey;
  /** An empty cell is hidden in a narrow card. */
  empty?(event: DashboardEvent): boolean;
  cell(view: View, event: DashboardEvent, controls: EventsControls): TemplateResult | string | typeof nothing;
}

const COLUMNS: readonly Column[] = [
  { id: 'time', header: 'colTime', cell: (view, event) => html`<span class="hint">${view.fmt.time(event.at)}</span>` },
  {
    id: 'tool',
    header: 'colTool',
    cell: (view, event, controls) =>
      html`${breakable(event.tool)}${harnessBadge(view, event.harness)}${
        event.profile !== undefined && controls.ownProfile !== undefined && event.profile !== controls.ownProfile
          ? html`<div class="hint" data-profile>${view.t('labelProfile')} ${event.profile}</div>`
          : nothing
      }`,
  },
  {
    id: 'category',
    header: 'colCategory',
    cardLabel: 'labelCategory',
    cell: (view, event) => html`<span title=${event.category}>${categoryLabel(view.locale, event.category)}</span>`,
  },
  {
    id: 'outcome',
    header: 'colOutcome',
    cell: (view, event) =>
      html`<span class="badge ${event.outcome}">${(OUTCOMES as readonly string[]).includes(event.outcome) ? view.t(`outcome.${event.outcome}` as MessageKey) : event.outcome}</span>`,
  },
  {
    id: 'rules',
    header: 'colRules',
    cardLabel: 'labelRules',
    empty: (event) => event.ruleIds.length === 0,
    cell: (_view, event) =>
      event.ruleIds.length > 0
        ? html`${event.ruleIds.map((id) => html`<div><code>${breakable(id)}</code></div>`)}`
        : html`<span class="muted">—</span>`,
  },
  { id: 'previews', header: 'colChange', headerClass: 'preview', cell: renderChange },
  {
    id: 'error',
    header: 'colError',
    headerClass: 'error',
    cardLabel: 'labelError',
    empty: (event) => event.error === undefined,
    cell: (_view, event) =>
      event.error !== undefined ? html`<pre data-error>${event.error}</pre>` : html`<span class="muted">—</span>`,
  },
];

function renderEventRow(view: View, event: DashboardEvent, controls: EventsControls): TemplateResult {
  return html`<tr data-event=${event.id}>${COLUMNS.map(
    (column) =>
      html`<td class="cell-${column.id}" data-label=${column.cardLabel ? view.t(column.cardLabel) : nothing} ?data-empty=${column.empty?.(event) ?? false}>${column.cell(view, event, controls)}</td>`,
  )}</tr>`;
}

function caption(view: View, page: EventsView, payload: DashboardPayload): TemplateResult {
  const { t, fmt } = view;
  if (page.total === 0 || page.events.length === 0) return html`${t('captionNone')} ${t('captionRedacted')}`;
  const total = page.totalCapped ? t('totalAtLeast', { count: fmt.integer(page.total) }) : fmt.integer(page.total);
  const numbers = { first: fmt.integer(page.offset + 1), last: fmt.integer(page.offset + page.events.length), total };
  if (page.source === 'store') return html`${t('captionAll', numbers)} ${t('captionRedacted')}`;
  const stored =
    page.source === 'payload' && payload.recentMatched > payload.recent.length
      ? ` ${t('captionStored', { stored: fmt.integer(payload.recentMatched) })}`
      : '';
  return html`${t('captionRecent', numbers)}${stored} ${t('captionRedacted')}`;
}

export function renderEvents(
  view: View,
  payload: DashboardPayload,
  page: EventsView | undefined,
  controls: EventsControls,
): TemplateResult {
  const { t, fmt } = view;
  const filter = controls.filter;
  const shown = page?.events ?? [];
  const tools = distinct(
    [...payload.tools.map((row) => row.name), ...shown.map((event) => event.tool), filter.tool].filter(Boolean),
  );
  const categories = distinct(
    [...payload.categories.map((row) => row.name), ...shown.map((event) => event.category), filter.category].filter(
      Boolean,
    ),
  );
  const select = (key: 'tool' | 'category' | 'outcome') => (e: Event) =>
    controls.setFilter({ [key]: (e.target as HTMLSelectElement).value });
  const input = (key: 'text' | 'from' | 'to') => (e: Event) =>
    controls.setFilter({ [key]: (e.target as HTMLInputElement).value });
  // A capped total (the server stopped counting) gives no page count: "Page N" and Older until a short page.
  const capped = page?.totalCapped === true;
  const pages = page ? Math.max(1, Math.ceil(page.total / page.limit)) : 1;
  const current = page ? Math.floor(page.offset / page.limit) + 1 : 1;
  const hasOlder = capped ? (page?.events.length ?? 0) >= (page?.limit ?? 1) : current < pages;
  return html`
    <section id="events" aria-labelledby="events-title" part="section events">
      <h3 id="events-title">${t('events')}</h3>
      <div class="filters" role="search" aria-label=${t('filterEvents')}>
        <div class="field">
          <label for="filter-tool">${t('tool')}</label>
          <select id="filter-tool" name="tool" .value=${filter.tool} @change=${select('tool')}>
            <option value="">${t('allTools')}</option>
            ${tools.map((name) => html`<option value=${name} ?selected=${name === filter.tool}>${name}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="filter-category">${t('category')}</label>
          <select id="filter-category" name="category" .value=${filter.category} @change=${select('category')}>
            <option value="">${t('allCategories')}</option>
            ${categories.map((name) => html`<option value=${name} ?selected=${name === filter.category}>${categoryLabel(view.locale, name)}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="filter-outcome">${t('outcome')}</label>
          <select id="filter-outcome" name="outcome" .value=${filter.outcome} @change=${select('outcome')}>
            <option value="">${t('allOutcomes')}</option>
            ${OUTCOMES.map((outcome) => html`<option value=${outcome} ?selected=${outcome === filter.outcome}>${t(`outcome.${outcome}` as MessageKey)}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="filter-text">${t('search')}</label>
          <input id="filter-text" type="search" name="text" placeholder=${t('searchPlaceholder')} .value=${filter.text} @input=${input('text')} />
        </div>
        <div class="field">
          <label for="filter-from">${t('from')}</label>
          <input id="filter-from" type="datetime-local" name="from" .value=${filter.from} @change=${input('from')} />
        </div>
        <div class="field">
          <label for="filter-to">${t('to')}</label>
          <input id="filter-to" type="datetime-local" name="to" .value=${filter.to} @change=${input('to')} />
        </div>
        <button type="button" ?disabled=${!isFiltered(filter)} @click=${() => controls.resetFilter()}>${t('resetFilters')}</button>
      </div>
      ${
        filter.rule
          ? html`<div class="rule-filter" data-rule-filter=${filter.rule}>
            <span>${t('ruleFilter', { rule: ruleTitle(view, controls.ruleTitles, filter.rule) })} <code>${breakable(filter.rule)}</code></span>
            <button type="button" class="toggle" @click=${() => controls.setFilter({ rule: '' })}>${t('clearRuleFilter')}</button>
          </div>`
          : nothing
      }
      ${controls.error ? html`<div class="notice error" role="alert">${t('eventsFailed', { error: controls.error })}</div>` : nothing}
      <div class="table-wrap">
        <table>
          <caption data-count>${page ? caption(view, page, payload) : t('loading')}</caption>
          <thead>
            <tr>${COLUMNS.map((column) => html`<th scope="col" class=${column.headerClass ?? nothing}>${t(column.header)}</th>`)}</tr>
          </thead>
          <tbody>
            ${page && shown.length === 0 ? html`<tr><td colspan=${COLUMNS.length} class="muted no-match">${t('noMatch')}</td></tr>` : shown.map((event) => renderEventRow(view, event, controls))}
          </tbody>
        </table>
      </div>
      ${
        page && (capped || pages > 1)
          ? html`<nav class="pager" aria-label=${t('events')} part="pager">
            <button type="button" data-page="newer" ?disabled=${page.offset === 0} @click=${() => controls.step(-1)}>${t('previousPage')}</button>
            <span data-page-of>${capped ? t('pageAt', { page: fmt.integer(current) }) : t('pageOf', { page: fmt.integer(current), pages: fmt.integer(pages) })}</span>
            <button type="button" data-page="older" ?disabled=${!hasOlder} @click=${() => controls.step(1)}>${t('nextPage')}</button>
          </nav>`
          : nothing
      }
    </section>
  `;
}
