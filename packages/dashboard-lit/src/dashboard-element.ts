/**
 * `TnDashboard`: the tool-normalizer statistics dashboard as a lit element. Data comes from `FeedController`
 * (stats feed, events pages, polling, clear); the sections are render functions in their own files; every
 * string goes through a translate function (the built-in en/zh dictionaries, or the host's); numbers and dates
 * follow the locale. Defining the class touches no browser global; registering it is `./define`'s job.
 *
 * @cssproperty --tn-bg - Page background (default: DSH's `--dsw-alias-bg-layer-1` in auto theme, else white / #0d1117).
 * @cssproperty --tn-surface - Card, input and table-header background.
 * @cssproperty --tn-fg - Text colour.
 * @cssproperty --tn-muted - Secondary text (hints, labels, captions).
 * @cssproperty --tn-border - Borders and rules.
 * @cssproperty --tn-accent - Links, focus rings, changed option values.
 * @cssproperty --tn-good - Healed counts, "on" badges, added diff lines.
 * @cssproperty --tn-bad - Failure bars, error notices, removed diff lines.
 * @cssproperty --tn-warn - Storage notices and "off" badges.
 * @cssproperty --tn-added-bg - Background of an added diff line (default: --tn-good at 16 %).
 * @cssproperty --tn-removed-bg - Background of a removed diff line (default: --tn-bad at 16 %).
 * @csspart section - Every section (also `kpis`, `rankings`, `rules`, `options`, `events`).
 * @csspart kpi - One KPI card.
 * @csspart rule - One rule card.
 * @csspart change - The before/after block of an event.
 * @csspart pager - The events pager.
 * @fires tn-cleared - After a successful clear (bubbles, composed).
 */
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { renderOptions, renderRules } from './catalogue-sections.js';
import { renderEvents } from './events-section.js';
import { ALL_PROFILES, CLEAR_PATH, EVENTS_PATH, STATS_PATH, TOKEN_PATH } from './feed.js';
import { FeedController, MIN_REFRESH_SECONDS } from './feed-controller.js';
import { formatterFor } from './format.js';
import { createTranslate, supportedLocale, type SupportedLocale, type Translate } from './messages.js';
import { dashboardStyles } from './styles.js';
import { renderKpis, renderRankings } from './summary-sections.js';
import type { DashboardPayload, RuleCard, Theme } from './types.js';
import type { View } from './view.js';

export const DEFAULT_STATS_URL = STATS_PATH;
export const DEFAULT_EVENTS_URL = EVENTS_PATH;
export const DEFAULT_CLEAR_URL = CLEAR_PATH;
export const DEFAULT_TOKEN_URL = TOKEN_PATH;
export { CLEAR_BODY, CLEAR_HEADER } from './feed.js';
export { MIN_REFRESH_SECONDS };
export const DEFAULT_REFRESH_SECONDS = 15;

const INTL_LOCALES: Record<SupportedLocale, string> = { en: 'en-US', zh: 'zh-CN' };

export class TnDashboard extends LitElement {
  static override styles = dashboardStyles;

  static override properties = {
    src: { type: String },
    eventsSrc: { type: String, attribute: 'events-src' },
    clearSrc: { type: String, attribute: 'clear-src' },
    tokenSrc: { type: String, attribute: 'token-src' },
    data: { attribute: false },
    rules: { attribute: false },
    theme: { type: String, reflect: true },
    refresh: { type: Number },
    locale: { type: String },
    translator: { attribute: false },
    _documentLang: { state: true },
  };

  /** Stats URL polled when `data` is not set. */
  declare src: string;
  /** Events route; `""` (or a server without it) pages the payload's recent events in the browser instead. */
  declare eventsSrc: string;
  /** Clear action URL; an empty string hides the clear button. Only offered when reading from `src`. */
  declare clearSrc: string;
  /** The route token's URL (sent back on every request); an empty string sends no token. */
  declare tokenSrc: string;
  /** A payload set directly (no fetching, no polling); `undefined` switches back to `src`. */
  declare data: unknown;
  /** Rule catalogue for the rule cards; overrides `payload.rules`. */
  declare rules: readonly RuleCard[] | undefined;
  declare theme: Theme;
  /** Polling interval in seconds while connected (at least MIN_REFRESH_SECONDS); 0, less or NaN turns polling off. */
  declare refresh: number;
  /** `en` or `zh` (any `zh-*` tag); empty means the document's language (`<html lang>`), then the browser's. */
  declare locale: string;
  /** A host's translate function over the same keys (DSH's `ctx.locale.bind(NS)`); overrides the dictionaries. */
  declare translator: Translate | undefined;
  declare private _documentLang: string;

  private readonly feed = new FeedController(this);
  private readonly rawEvents = new Set<string>();
  private langObserver: MutationObserver | undefined;

  constructor() {
    super();
    this.src = DEFAULT_STATS_URL;
    this.eventsSrc = DEFAULT_EVENTS_URL;
    this.clearSrc = DEFAULT_CLEAR_URL;
    this.tokenSrc = DEFAULT_TOKEN_URL;
    this.data = undefined;
    this.rules = undefined;
    this.theme = 'auto';
    this.refresh = DEFAULT_REFRESH_SECONDS;
    this.locale = '';
    this.translator = undefined;
    this._documentLang = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Without a `locale`, the page follows the document's language, also when the host switches it later.
    const root = this.ownerDocument.documentElement;
    this._documentLang = root.lang;
    this.langObserver = new MutationObserver(() => (this._documentLang = root.lang));
    this.langObserver.observe(root, { attributes: true, attributeFilter: ['lang'] });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.langObserver?.disconnect();
    this.langObserver = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('refresh') && this.hasUpdated) this.feed.refreshChanged();
  }

  /** The locale the page renders in: `locale`, else the document's language, else the browser's. */
  get resolvedLocale(): SupportedLocale {
    const nav = typeof navigator === 'undefined' ? undefined : navigator.language;
    return supportedLocale(this.locale || this._documentLang || nav);
  }

  /** Fetches the stats now (no-op with `data` set); resolves when the new state is rendered. */
  async reload(): Promise<void> {
    if (!this.isConnected) return;
    this.feed.reload();
    await this.feed.settled();
  }

  private view(): View {
    const locale = this.resolvedLocale;
    return { locale, t: this.translator ?? createTranslate(locale), fmt: formatterFor(INTL_LOCALES[locale]) };
  }

  private async clearStats(): Promise<void> {
    if (await this.feed.clear()) {
      this.rawEvents.clear();
      this.dispatchEvent(new CustomEvent('tn-cleared', { bubbles: true, composed: true }));
    }
  }

  /** Opens or closes the clear confirmation, moving keyboard focus to the safe choice (Cancel) and back. */
  private setConfirming(confirming: boolean): void {
    this.feed.setConfirming(confirming);
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLButtonElement>(confirming ? '[data-cancel-clear]' : '[data-clear]')?.focus(),
    );
  }

  /** Click-through from a ranking row or a rule card to its events. */
  private showEventsOf(kind: 'tool' | 'category' | 'rule', name: string): void {
    this.feed.setFilter({ [kind]: name }, true);
    void this.updateComplete.then(() => this.renderRoot.querySelector('#events')?.scrollIntoView({ block: 'start' }));
  }

  protected override render(): TemplateResult {
    const view = this.view();
    const { t } = view;
    const feed = this.feed;
    const payload = feed.payload;
    const error = feed.statsError;
    const loading = !payload && !error;
    return html`
      <header part="header">
        <div>
          <h2>${t('heading')}</h2>
          <div class="muted">${this.renderStatusLine(view, payload, error !== undefined)}</div>
        </div>
        <div class="actions">
          ${
            this.data === undefined
              ? html`<button type="button" @click=${() => void this.reload()} ?disabled=${loading}>${t('refresh')}</button>`
              : nothing
          }
          ${this.renderProfileControl(view, payload)} ${this.renderClearControls(view)}
        </div>
      </header>
      ${feed.confirmingClear ? html`<div class="notice" id="clear-scope" data-clear-scope>${t('clearScope')}</div>` : nothing}
      ${feed.clearError ? html`<div class="notice error" role="alert">${feed.clearError}</div>` : nothing}
      ${error ? html`<div class="notice error" role="alert"><strong>${t('loadFailed')}</strong> ${error}</div>` : nothing}
      ${loading ? html`<div class="notice" role="status">${t('loadingStats')}</div>` : nothing}
      ${payload ? this.renderPayload(view, payload) : nothing}
    `;
  }

  private renderStatusLine(view: View, payload: DashboardPayload | undefined, failed: boolean): string {
    const { t, fmt } = view;
    if (!payload) return failed ? '' : t('loading');
    const parts = [
      t('since', { time: fmt.time(payload.since) }),
      t('updated', { time: fmt.time(payload.generatedAt) }),
    ];
    if (payload.profile !== undefined)
      parts.unshift(payload.profile === ALL_PROFILES ? t('profileAll') : t('profileOwn', { profile: payload.profile }));
    if (failed) parts.push(t('staleData'));
    return parts.join(' · ');
  }

  /** "All profiles": offered when the server says which profile it runs in (a per-profile store). */
  private renderProfileControl(view: View, payload: DashboardPayload | undefined): TemplateResult | typeof nothing {
    const own = payload?.ownProfile;
    if (this.data !== undefined || own === undefined) return nothing;
    const { t } = view;
    return html`<label class="toggle" title=${t('allProfilesHint', { profile: own })}>
      <input
        type="checkbox"
        data-all-profiles
        .checked=${this.feed.allProfiles}
        @change=${(event: Event) => this.feed.setAllProfiles((event.target as HTMLInputElement).checked)}
      />
      ${t('allProfiles')}
    </label>`;
  }

  private renderClearControls(view: View): TemplateResult | typeof nothing {
    const { t } = view;
    const feed = this.feed;
    if (this.data !== undefined || !this.clearSrc) return nothing;
    if (!feed.confirmingClear) {
      return html`<button type="button" class="danger" data-clear @click=${() => this.setConfirming(true)}>${t('clear')}</button>`;
    }
    return html`
      <span role="group" aria-label=${t('confirmClearGroup')}>
        <span>${t('confirmClear')}</span>
        <button type="button" class="danger" aria-describedby="clear-scope" ?disabled=${feed.clearing} @click=${() => void this.clearStats()}>
          ${feed.clearing ? t('clearing') : t('clearYes')}
        </button>
        <button type="button" data-cancel-clear ?disabled=${feed.clearing} @click=${() => this.setConfirming(false)}>${t('cancel')}</button>
      </span>
    `;
  }

  private renderPayload(view: View, payload: DashboardPayload): TemplateResult {
    const empty = payload.totals.calls === 0 && payload.recent.length === 0;
    const feed = this.feed;
    return html`
      ${this.renderProfileNotice(view, payload)} ${this.renderStorageNotice(view, payload)} ${renderKpis(view, payload)}
      ${empty ? html`<div class="notice">${view.t('empty')}</div>` : renderRankings(view, payload, (kind, name) => this.showEventsOf(kind, name))}
      ${renderRules(view, payload, this.rules ?? payload.rules, (id) => this.showEventsOf('rule', id), feed.filter.rule)}
      ${
        empty
          ? nothing
          : renderEvents(view, payload, feed.events, {
              filter: feed.filter,
              setFilter: (patch) => feed.setFilter(patch),
              resetFilter: () => feed.resetFilter(),
              step: (direction) => feed.step(direction),
              isRaw: (id) => this.rawEvents.has(id),
              toggleRaw: (id) => {
                if (!this.rawEvents.delete(id)) this.rawEvents.add(id);
                this.requestUpdate();
              },
              error: feed.eventsError,
              ownProfile: payload.ownProfile,
              ruleTitles: new Map((this.rules ?? payload.rules ?? []).map((rule) => [rule.id, rule.title])),
            })
      }
      ${renderOptions(view, payload.options)}
    `;
  }

  /**
   * Why the page shows every profile although its own is the default (its own has no calls, others do), with one
   * click back; or, when the user chose the own profile and it is empty, which profiles hold receipts, with one
   * click to them.
   */
  private renderProfileNotice(view: View, payload: DashboardPayload): TemplateResult | typeof nothing {
    const own = payload.ownProfile;
    const feed = this.feed;
    if (this.data !== undefined || own === undefined || feed.otherProfiles.length === 0) return nothing;
    const { t, fmt } = view;
    const others = feed.otherProfiles.join(', ');
    if (feed.autoAllProfiles && feed.allProfiles && payload.profile === ALL_PROFILES)
      return html`<div class="notice" role="status" data-profile-scope="auto">
        ${t('autoAllProfiles', { profile: own, count: fmt.integer(payload.totals.calls), others })}
        <button type="button" @click=${() => feed.setAllProfiles(false)}>${t('showOwnProfile', { profile: own })}</button>
      </div>`;
    if (!feed.allProfiles && payload.profile === own && payload.totals.calls === 0)
      return html`<div class="notice" role="status" data-profile-scope="own-empty">
        ${t('ownProfileEmpty', { profile: own, others })}
        <button type="button" @click=${() => feed.setAllProfiles(true)}>${t('showAllProfiles')}</button>
      </div>`;
    return nothing;
  }

  private renderStorageNotice(view: View, payload: DashboardPayload): TemplateResult | typeof nothing {
    const { t, fmt } = view;
    const storage = payload.storage ?? {};
    const problems: string[] = [];
    if (storage.logging === false) problems.push(t('noteNotLogging'));
    if (storage.rejectedInputs) problems.push(t('noteRejected', { count: fmt.integer(storage.rejectedInputs) }));
    if (storage.skippedLines) problems.push(t('noteSkipped', { count: fmt.integer(storage.skippedLines) }));
    if (storage.foldedToolCalls) problems.push(t('noteFolded', { count: fmt.integer(storage.foldedToolCalls) }));
    if (storage.dropped) problems.push(t('noteDropped', { count: fmt.integer(storage.dropped) }));
    if (payload.pluginErrors) problems.push(t('notePluginErrors', { count: fmt.integer(payload.pluginErrors) }));
    const cleared = storage.lastClear
      ? html`<p class="hint" data-last-clear>${t('lastClear', { time: fmt.time(storage.lastClear.at), count: fmt.integer(storage.lastClear.erasedCalls) })}</p>`
      : nothing;
    if (problems.length === 0) return cleared;
    return html`${cleared}<div class="notice warn" data-storage-notice>${t('notePrefix', { problems: problems.join('; ') })}</div>`;
  }
}
