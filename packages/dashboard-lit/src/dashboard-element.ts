/**
 * `TnDashboard`: the tool-normalizer statistics dashboard as a lit element. It reads the stats feed (a URL it
 * polls, or a payload handed to it) and shows KPI cards, failure-rate rankings with their denominators, rule
 * cards, a filterable trace of recent events and a guarded clear action. Event data is only ever rendered
 * through lit text bindings, so a preview containing markup is shown as text, never parsed as HTML.
 * Defining the class touches no browser global; registering it is `./define`'s job.
 */
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import {
  EMPTY_FILTER,
  OUTCOME_LABELS,
  distinct,
  filterEvents,
  formatInteger,
  formatRate,
  formatTime,
  formatTokens,
  orderRows,
  type EventFilter,
} from './format.js';
import { checkPayload } from './payload.js';
import { dashboardStyles } from './styles.js';
import { OUTCOMES, type DashboardEvent, type DashboardPayload, type Rate, type RateRow, type RuleCard, type Theme } from './types.js';

export const DEFAULT_STATS_URL = '/plugin-api/tool-normalizer/stats';
export const DEFAULT_CLEAR_URL = '/plugin-api/tool-normalizer/clear';
/**
 * The clear action's request, as `@dsh-tool-normalizer/dsh-adapter` checks it: a custom header and a JSON body,
 * which a cross-site form or no-cors fetch cannot send without a CORS preflight the server never approves.
 */
export const CLEAR_HEADER = 'x-tool-normalizer-action';
export const CLEAR_BODY = '{"confirm":"clear"}';
export const DEFAULT_REFRESH_SECONDS = 15;
/** Shortest polling interval honoured; a smaller positive `refresh` polls at this rate instead of hammering the server. */
export const MIN_REFRESH_SECONDS = 1;

type LoadState = 'idle' | 'loading' | 'ready' | 'error';

const MAX_SERVER_MESSAGE_CHARS = 300;

/** `HTTP <status> <text>`, plus the server's own `{ "error": "..." }` message when it sent one (shown as text). */
async function describeFailure(response: Response): Promise<string> {
  const status = `HTTP ${response.status} ${response.statusText}`.trim();
  try {
    const body = (await response.json()) as { error?: unknown } | null;
    if (typeof body?.error === 'string' && body.error) return `${status}: ${body.error.slice(0, MAX_SERVER_MESSAGE_CHARS)}`;
  } catch {
    // Not JSON: the status line says enough.
  }
  return status;
}

export class TnDashboard extends LitElement {
  static override styles = dashboardStyles;

  static override properties = {
    src: { type: String },
    clearSrc: { type: String, attribute: 'clear-src' },
    data: { attribute: false },
    rules: { attribute: false },
    theme: { type: String, reflect: true },
    refresh: { type: Number },
    _state: { state: true },
    _payload: { state: true },
    _error: { state: true },
    _filter: { state: true },
    _confirmingClear: { state: true },
    _clearing: { state: true },
    _clearError: { state: true },
  };

  /** Stats URL polled when `data` is not set. */
  declare src: string;
  /** Clear action URL; an empty string hides the clear button. Only offered when reading from `src`. */
  declare clearSrc: string;
  /** A payload set directly (no fetching, no polling); `undefined` switches back to `src`. */
  declare data: unknown;
  /** Rule catalogue for the rule cards; overrides `payload.rules`. */
  declare rules: readonly RuleCard[] | undefined;
  declare theme: Theme;
  /** Polling interval in seconds while connected (at least MIN_REFRESH_SECONDS); 0, less or NaN turns polling off. */
  declare refresh: number;

  declare private _state: LoadState;
  declare private _payload: DashboardPayload | undefined;
  declare private _error: string | undefined;
  declare private _filter: EventFilter;
  declare private _confirmingClear: boolean;
  declare private _clearing: boolean;
  declare private _clearError: string | undefined;

  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: AbortController | undefined;
  private loadSequence = 0;

  constructor() {
    super();
    this.src = DEFAULT_STATS_URL;
    this.clearSrc = DEFAULT_CLEAR_URL;
    this.data = undefined;
    this.rules = undefined;
    this.theme = 'auto';
    this.refresh = DEFAULT_REFRESH_SECONDS;
    this._state = 'idle';
    this._payload = undefined;
    this._error = undefined;
    this._filter = EMPTY_FILTER;
    this._confirmingClear = false;
    this._clearing = false;
    this._clearError = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A re-attached element resumes; the first connection loads from willUpdate.
    if (this.hasUpdated) void this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopPolling();
    this.inFlight?.abort();
    this.inFlight = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('data') && this.data !== undefined) {
      this.stopPolling();
      this.inFlight?.abort();
      this.applyPayload(this.data);
    } else if (!this.hasUpdated || changed.has('src') || changed.has('data')) {
      void this.reload();
    } else if (changed.has('refresh')) {
      this.schedulePoll();
    }
  }

  /** Fetches the stats now (no-op with `data` set); resolves when the new state is rendered. */
  async reload(): Promise<void> {
    if (this.data !== undefined) {
      this.applyPayload(this.data);
      return;
    }
    if (!this.isConnected) return;
    this.stopPolling();
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    const sequence = ++this.loadSequence;
    if (this._payload === undefined) this._state = 'loading';
    try {
      const response = await fetch(this.src, {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
        cache: 'no-store',
        signal: controller.signal,
      });
      if (!response.ok) throw new Error(`the stats request failed: ${await describeFailure(response)}`);
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new Error('the stats response is not valid JSON');
      }
      if (sequence !== this.loadSequence) return;
      this.applyPayload(body);
    } catch (error) {
      if (controller.signal.aborted || sequence !== this.loadSequence) return;
      this._state = 'error';
      this._error = error instanceof Error ? error.message : String(error);
    } finally {
      if (sequence === this.loadSequence) {
        this.inFlight = undefined;
        this.schedulePoll();
      }
    }
    await this.updateComplete;
  }

  private applyPayload(value: unknown): void {
    const checked = checkPayload(value);
    if (checked.ok) {
      this._payload = checked.payload;
      this._state = 'ready';
      this._error = undefined;
    } else {
      this._payload = undefined;
      this._state = 'error';
      this._error = checked.message;
    }
  }

  private schedulePoll(): void {
    this.stopPolling();
    if (this.data !== undefined || !this.isConnected || !(this.refresh > 0)) return;
    this.pollTimer = setTimeout(() => void this.reload(), Math.max(MIN_REFRESH_SECONDS, this.refresh) * 1000);
  }

  private stopPolling(): void {
    if (this.pollTimer !== undefined) clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
  }

  private async clearStats(): Promise<void> {
    this._clearing = true;
    this._clearError = undefined;
    try {
      const response = await fetch(this.clearSrc, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CLEAR_HEADER]: 'clear' },
        body: CLEAR_BODY,
        credentials: 'same-origin',
        cache: 'no-store',
      });
      if (!response.ok) throw new Error(`clearing failed: ${await describeFailure(response)}`);
      this._confirmingClear = false;
      this._filter = EMPTY_FILTER;
      await this.reload();
      this.dispatchEvent(new CustomEvent('tn-cleared', { bubbles: true, composed: true }));
    } catch (error) {
      this._clearError = error instanceof Error ? error.message : String(error);
    } finally {
      this._clearing = false;
    }
  }

  /** Opens or closes the clear confirmation, moving keyboard focus to the safe choice (Cancel) and back. */
  private setConfirming(confirming: boolean): void {
    this._confirmingClear = confirming;
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLButtonElement>(confirming ? '[data-cancel-clear]' : '[data-clear]')?.focus(),
    );
  }

  private setFilter(patch: Partial<EventFilter>): void {
    this._filter = { ...this._filter, ...patch };
  }

  /** Click-through from a ranking row to its events in the trace table. */
  private showEventsOf(patch: Partial<EventFilter>): void {
    this._filter = { ...EMPTY_FILTER, ...patch };
    void this.updateComplete.then(() => this.renderRoot.querySelector('#events')?.scrollIntoView({ block: 'start' }));
  }

  protected override render(): TemplateResult {
    const payload = this._payload;
    return html`
      <header>
        <div>
          <h2>Tool Normalizer</h2>
          <div class="muted">${this.renderStatusLine(payload)}</div>
        </div>
        <div class="actions">
          ${this.data === undefined
            ? html`<button type="button" @click=${() => void this.reload()} ?disabled=${this._state === 'loading'}>Refresh</button>`
            : nothing}
          ${this.renderClearControls()}
        </div>
      </header>
      ${this._clearError ? html`<div class="notice error" role="alert">${this._clearError}</div>` : nothing}
      ${this._state === 'error'
        ? html`<div class="notice error" role="alert"><strong>Could not load statistics.</strong> ${this._error}</div>`
        : nothing}
      ${this._state === 'loading' && !payload ? html`<div class="notice" role="status">Loading statistics…</div>` : nothing}
      ${payload ? this.renderPayload(payload) : nothing}
    `;
  }

  private renderStatusLine(payload: DashboardPayload | undefined): string {
    if (!payload) return this._state === 'loading' ? 'Loading…' : '';
    const parts = [`Since ${formatTime(payload.since)}`, `updated ${formatTime(payload.generatedAt)}`];
    if (this._state === 'error') parts.push('showing the last good data');
    return parts.join(' · ');
  }

  private renderClearControls(): TemplateResult | typeof nothing {
    if (this.data !== undefined || !this.clearSrc) return nothing;
    if (!this._confirmingClear) {
      return html`<button type="button" class="danger" data-clear @click=${() => this.setConfirming(true)}>Clear statistics…</button>`;
    }
    return html`
      <span role="group" aria-label="Confirm clearing">
        <span>Delete all counters and logged events?</span>
        <button type="button" class="danger" ?disabled=${this._clearing} @click=${() => void this.clearStats()}>
          ${this._clearing ? 'Clearing…' : 'Yes, clear'}
        </button>
        <button type="button" data-cancel-clear ?disabled=${this._clearing} @click=${() => this.setConfirming(false)}>Cancel</button>
      </span>
    `;
  }

  private renderPayload(payload: DashboardPayload): TemplateResult {
    const empty = payload.totals.calls === 0 && payload.recent.length === 0;
    return html`
      ${this.renderStorageNotice(payload)} ${this.renderKpis(payload)}
      ${empty
        ? html`<div class="notice">
            No tool calls intercepted yet. Statistics appear here after the model's first tool call.
          </div>`
        : html`
            <section aria-labelledby="rankings-title">
              <h3 id="rankings-title">Failure rates</h3>
              <p class="hint">
                Failure rate = failures the model saw ÷ calls. Only rows with at least ${formatInteger(payload.minCalls)}
                calls are ranked; smaller samples are listed below their ranking.
              </p>
              <div class="grid2">
                ${this.renderRanking('By tool', 'tool', payload.tools, payload.rankings.toolsByFailureRate, payload.minCalls)}
                ${this.renderRanking(
                  'By category',
                  'category',
                  payload.categories,
                  payload.rankings.categoriesByFailureRate,
                  payload.minCalls,
                )}
              </div>
            </section>
          `}
      ${this.renderRules(payload)} ${empty ? nothing : this.renderEvents(payload)}
    `;
  }

  private renderStorageNotice(payload: DashboardPayload): TemplateResult | typeof nothing {
    const storage = payload.storage ?? {};
    const problems: string[] = [];
    if (storage.logging === false) problems.push('the event log is not being written (statistics are kept in memory only)');
    if (storage.rejectedInputs) problems.push(`${formatInteger(storage.rejectedInputs)} malformed events were rejected`);
    if (storage.skippedLines) problems.push(`${formatInteger(storage.skippedLines)} unreadable log lines were skipped`);
    if (storage.foldedToolCalls) {
      problems.push(`${formatInteger(storage.foldedToolCalls)} calls of rarely seen tool names are counted together under one row`);
    }
    if (payload.pluginErrors) {
      problems.push(`the plugin caught ${formatInteger(payload.pluginErrors)} internal errors and fell back to the host's behaviour`);
    }
    if (problems.length === 0) return nothing;
    return html`<div class="notice warn" data-storage-notice>Note: ${problems.join('; ')}.</div>`;
  }

  private renderKpis(payload: DashboardPayload): TemplateResult {
    const { totals, rates } = payload;
    const attempts = totals.healedSuccess + totals.healedFailed;
    return html`
      <section aria-labelledby="kpi-title">
        <h3 id="kpi-title">Summary</h3>
        <div class="kpis">
          ${this.kpi('calls', 'Calls intercepted', formatInteger(totals.calls), `${formatInteger(totals.passThrough + totals.passThroughFailed)} passed through untouched`)}
          ${this.kpi('healed', 'Healed', formatInteger(totals.healedSuccess), `${formatInteger(totals.healedFailed)} healing attempts still failed`, totals.healedSuccess > 0 ? 'good' : '')}
          ${this.rateKpi('healing-rate', 'Healing success rate', rates.healingSuccessRate, 'no attempts yet', `${formatInteger(totals.healedSuccess)} of ${formatInteger(attempts)} attempts`)}
          ${this.rateKpi(
            'surfaced-rate',
            'Surfaced error rate',
            rates.surfacedErrorRate,
            'no calls yet',
            rates.counterfactualErrorRate === null
              ? 'failures the model saw ÷ calls'
              : `${formatRate(rates.counterfactualErrorRate)} without healing`,
          )}
          ${this.kpi('tokens', 'Tokens saved', formatTokens(totals.tokensSaved), totals.tokensSaved > 0 ? `${formatInteger(totals.tokensSaved)} tokens, measured by the token meter` : 'measured by the token meter; 0 without one')}
        </div>
      </section>
    `;
  }

  private kpi(id: string, label: string, value: string, detail: string, tone = ''): TemplateResult {
    return html`<div class="kpi" data-kpi=${id}>
      <div class="label">${label}</div>
      <div class="value ${tone}">${value}</div>
      <div class="hint">${detail}</div>
    </div>`;
  }

  private rateKpi(id: string, label: string, rate: Rate, noneText: string, detail: string): TemplateResult {
    if (rate === null) return this.kpi(id, label, noneText, detail, 'none');
    return this.kpi(id, label, formatRate(rate), detail);
  }

  private renderRanking(
    title: string,
    kind: 'tool' | 'category',
    rows: readonly RateRow[],
    ranking: readonly string[],
    minCalls: number,
  ): TemplateResult {
    const { ranked, belowFloor } = orderRows(rows, ranking);
    return html`
      <div data-ranking=${kind}>
        <h3>${title}</h3>
        ${ranked.length === 0
          ? html`<p class="muted">No ${kind} has reached ${formatInteger(minCalls)} calls yet.</p>`
          : html`<ol class="ranking">
              ${ranked.map((row) => this.renderRankRow(row, kind))}
            </ol>`}
        ${belowFloor.length > 0
          ? html`<p class="hint" data-below-floor>
              Below the ${formatInteger(minCalls)}-call floor (not ranked):
              ${belowFloor.map(
                (row, index) =>
                  html`${index > 0 ? ', ' : ''}<span>${row.name} (${formatInteger(row.failures)}/${formatInteger(row.calls)})</span>`,
              )}
            </p>`
          : nothing}
      </div>
    `;
  }

  private renderRankRow(row: RateRow, kind: 'tool' | 'category'): TemplateResult {
    const rate = row.failureRate ?? 0;
    // The bar width goes through the CSSOM (a property binding), not a style attribute, so a page whose
    // Content-Security-Policy forbids inline styles still draws it.
    return html`<li data-row=${row.name}>
      <div class="row-head">
        <button type="button" class="link" title="Show this ${kind}'s events" @click=${() => this.showEventsOf({ [kind]: row.name })}>
          ${row.name}
        </button>
        <span class="rate">${row.failureRate === null ? '—' : formatRate(row.failureRate)}</span>
      </div>
      <div class="bar" aria-hidden="true"><span .style=${`width: ${Math.min(100, Math.max(0, rate * 100)).toFixed(1)}%`}></span></div>
      <div class="hint">
        <span data-denominator>${formatInteger(row.failures)} failed / ${formatInteger(row.calls)} calls</span>
        ${row.counterfactualFailureRate !== null ? html` · ${formatRate(row.counterfactualFailureRate)} without healing` : nothing}
        ${row.healedSuccess > 0 ? html` · ${formatInteger(row.healedSuccess)} healed` : nothing}
      </div>
    </li>`;
  }

  private renderRules(payload: DashboardPayload): TemplateResult | typeof nothing {
    const rules = this.rules ?? payload.rules;
    if (!rules || rules.length === 0) return nothing;
    const seen = new Map<string, number>();
    for (const event of payload.recent) for (const id of event.ruleIds) seen.set(id, (seen.get(id) ?? 0) + 1);
    return html`
      <section aria-labelledby="rules-title">
        <h3 id="rules-title">Healing rules</h3>
        <div class="rules">
          ${rules.map(
            (rule) => html`<article class="rule" data-rule=${rule.id}>
              <div class="row-head">
                <strong>${rule.title}</strong>
                ${rule.enabled === undefined
                  ? nothing
                  : html`<span class="badge ${rule.enabled ? 'on' : 'off'}">${rule.enabled ? 'on' : 'off'}</span>`}
              </div>
              <div class="hint"><code>${rule.id}</code> · ${rule.category}</div>
              <p>${rule.description}</p>
              <div class="hint">
                ${rule.option ? html`option <code>${rule.option}</code> · ` : nothing}in ${formatInteger(seen.get(rule.id) ?? 0)}
                recent events
              </div>
            </article>`,
          )}
        </div>
      </section>
    `;
  }

  private renderEvents(payload: DashboardPayload): TemplateResult {
    const filter = this._filter;
    const events = filterEvents(payload.recent, filter);
    const tools = distinct([...payload.tools.map((row) => row.name), ...payload.recent.map((event) => event.tool), filter.tool].filter(Boolean));
    const categories = distinct(
      [...payload.categories.map((row) => row.name), ...payload.recent.map((event) => event.category), filter.category].filter(Boolean),
    );
    const filtered = filter !== EMPTY_FILTER && Object.values(filter).some((value) => value !== '');
    return html`
      <section id="events" aria-labelledby="events-title">
        <h3 id="events-title">Recent events</h3>
        <div class="filters" role="search" aria-label="Filter recent events">
          <div class="field">
            <label for="filter-tool">Tool</label>
            <select id="filter-tool" name="tool" .value=${filter.tool} @change=${(e: Event) => this.setFilter({ tool: (e.target as HTMLSelectElement).value })}>
              <option value="">All tools</option>
              ${tools.map((name) => html`<option value=${name} ?selected=${name === filter.tool}>${name}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="filter-category">Category</label>
            <select id="filter-category" name="category" .value=${filter.category} @change=${(e: Event) => this.setFilter({ category: (e.target as HTMLSelectElement).value })}>
              <option value="">All categories</option>
              ${categories.map((name) => html`<option value=${name} ?selected=${name === filter.category}>${name}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="filter-outcome">Outcome</label>
            <select id="filter-outcome" name="outcome" .value=${filter.outcome} @change=${(e: Event) => this.setFilter({ outcome: (e.target as HTMLSelectElement).value })}>
              <option value="">All outcomes</option>
              ${OUTCOMES.map((outcome) => html`<option value=${outcome} ?selected=${outcome === filter.outcome}>${OUTCOME_LABELS[outcome]}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="filter-text">Search</label>
            <input id="filter-text" type="search" name="text" placeholder="tool, rule, preview, error…" .value=${filter.text}
              @input=${(e: Event) => this.setFilter({ text: (e.target as HTMLInputElement).value })} />
          </div>
          <button type="button" ?disabled=${!filtered} @click=${() => (this._filter = EMPTY_FILTER)}>Reset filters</button>
        </div>
        <div class="table-wrap">
          <table>
            <caption data-count>
              Showing ${formatInteger(events.length)} of ${formatInteger(payload.recent.length)} recent events${payload.recentMatched > payload.recent.length ? html` (${formatInteger(payload.recentMatched)} stored)` : nothing}.
              Previews are redacted by the server.
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Tool</th>
                <th scope="col">Category</th>
                <th scope="col">Outcome</th>
                <th scope="col">Rules</th>
                <th scope="col" class="preview">Before → after</th>
                <th scope="col" class="error">Error</th>
              </tr>
            </thead>
            <tbody>
              ${events.length === 0
                ? html`<tr><td colspan="7" class="muted no-match">No events match these filters.</td></tr>`
                : events.map((event) => this.renderEventRow(event))}
            </tbody>
          </table>
        </div>
      </section>
    `;
  }

  /**
   * One table row per event. Below ~760 px of container width the stylesheet restacks each row into a card
   * (time · tool · outcome, then category, rules, previews and error); `data-label` names a cell there, where
   * the column headers are only read by assistive technology, and `data-empty` marks a cell with nothing to show.
   */
  private renderEventRow(event: DashboardEvent): TemplateResult {
    const hasRules = event.ruleIds.length > 0;
    const hasError = event.error !== undefined;
    return html`<tr data-event=${event.id}>
      <td class="cell-time"><span class="hint">${formatTime(event.at)}</span></td>
      <td class="cell-tool">${event.tool}</td>
      <td class="cell-category" data-label="category">${event.category}</td>
      <td class="cell-outcome"><span class="badge ${event.outcome}">${OUTCOME_LABELS[event.outcome] ?? event.outcome}</span></td>
      <td class="cell-rules" data-label="rules" ?data-empty=${!hasRules}>
        ${hasRules ? event.ruleIds.map((id) => html`<div><code>${id}</code></div>`) : html`<span class="muted">—</span>`}
      </td>
      <td class="cell-previews">
        ${event.before !== undefined ? html`<div class="preview-label">before</div><pre data-before>${event.before}</pre>` : nothing}
        ${event.after !== undefined ? html`<div class="preview-label">after</div><pre data-after>${event.after}</pre>` : nothing}
        ${event.changes.length ? html`<div class="hint">${event.changes.join('; ')}</div>` : nothing}
      </td>
      <td class="cell-error" data-label="error" ?data-empty=${!hasError}>
        ${hasError ? html`<pre data-error>${event.error}</pre>` : html`<span class="muted">—</span>`}
      </td>
    </tr>`;
  }
}
