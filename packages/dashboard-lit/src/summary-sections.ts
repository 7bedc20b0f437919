/**
 * The summary sections of the dashboard: KPI cards (with the one definition of tokens saved and, when a push is
 * configured, the OTLP push health) and the failure-rate rankings per tool and per failure category (with their
 * denominators and the minimum-calls floor; the success category `ok` is not a failure category and is left out).
 * Render functions only; the element owns the state.
 */
import { TOKENS_SAVED_DEFINITION } from '@dsh-tool-normalizer/telemetry-store/outcomes';
import { html, nothing, type TemplateResult } from 'lit';
import { breakable } from './breakable.js';
import { categoryLabel } from './catalogue-messages.js';
import { orderRows } from './format.js';
import type { DashboardPayload, Rate, RateRow } from './types.js';
import type { View } from './view.js';

function kpi(id: string, label: string, value: string, detail: string, tone = ''): TemplateResult {
  return html`<div class="kpi" data-kpi=${id} part="kpi">
    <div class="label">${label}</div>
    <div class="value ${tone}">${value}</div>
    <div class="hint">${detail}</div>
  </div>`;
}

function rateKpi(view: View, id: string, label: string, rate: Rate, noneText: string, detail: string): TemplateResult {
  if (rate === null) return kpi(id, label, noneText, detail, 'none');
  return kpi(id, label, view.fmt.rate(rate), detail);
}

export function renderKpis(view: View, payload: DashboardPayload): TemplateResult {
  const { t, fmt } = view;
  const { totals, rates } = payload;
  const attempts = totals.healedSuccess + totals.healedFailed;
  return html`
    <section aria-labelledby="kpi-title" part="section kpis">
      <h3 id="kpi-title">${t('summary')}</h3>
      <div class="kpis">
        ${kpi('calls', t('kpiCalls'), fmt.integer(totals.calls), t('kpiCallsDetail', { count: fmt.integer(totals.passThrough + totals.passThroughFailed) }))}
        ${kpi('healed', t('kpiHealed'), fmt.integer(totals.healedSuccess), t('kpiHealedDetail', { count: fmt.integer(totals.healedFailed) }), totals.healedSuccess > 0 ? 'good' : '')}
        ${rateKpi(view, 'healing-rate', t('kpiHealingRate'), rates.healingSuccessRate, t('kpiHealingRateNone'), t('kpiHealingRateDetail', { healed: fmt.integer(totals.healedSuccess), attempts: fmt.integer(attempts) }))}
        ${rateKpi(
          view,
          'surfaced-rate',
          t('kpiSurfacedRate'),
          rates.surfacedErrorRate,
          t('kpiSurfacedRateNone'),
          rates.counterfactualErrorRate === null
            ? t('kpiSurfacedRateDetail')
            : t('kpiWithoutHealing', { rate: fmt.rate(rates.counterfactualErrorRate) }),
        )}
        ${kpi('tokens', t('kpiTokens'), fmt.tokens(totals.tokensSaved), totals.tokensSaved > 0 ? t('kpiTokensDetail', { count: fmt.integer(totals.tokensSaved) }) : t('kpiTokensNone'))}
        ${totals.repeatsCaught === undefined ? nothing : kpi('repeats', t('kpiRepeats'), fmt.integer(totals.repeatsCaught), t('kpiRepeatsDetail'))}
      </div>
      <p class="hint" data-tokens-definition>${t('tokensDefinition', { definition: TOKENS_SAVED_DEFINITION[view.locale] })}</p>
      ${renderOtlp(view, payload.otlp)}
    </section>
  `;
}

/** The OTLP push health of this process (the payload has it only when a push is configured). */
function renderOtlp(view: View, otlp: DashboardPayload['otlp']): TemplateResult | typeof nothing {
  if (!otlp) return nothing;
  const { t, fmt } = view;
  const parts = [
    t('otlpCounts', {
      pushes: fmt.integer(otlp.pushes),
      failures: fmt.integer(otlp.failures),
      episodes: fmt.integer(otlp.episodes),
    }),
  ];
  if (otlp.lastSuccessAt !== undefined) parts.push(t('otlpLastSuccess', { time: fmt.time(otlp.lastSuccessAt) }));
  if (otlp.lastFailureAt !== undefined) parts.push(t('otlpLastFailure', { time: fmt.time(otlp.lastFailureAt) }));
  return html`<div class="notice ${otlp.failing ? 'error' : ''}" data-otlp=${otlp.failing ? 'failing' : 'ok'}>
    <strong>${t('otlp')}</strong>
    <span class="badge ${otlp.failing ? 'off' : 'on'}">${otlp.failing ? t('otlpFailing') : t('otlpOk')}</span>
    <span class="hint">${parts.join(' · ')}</span>
    ${otlp.lastError ? html`<div class="hint" data-otlp-error>${t('otlpLastError', { error: otlp.lastError })}</div>` : nothing}
  </div>`;
}

/** core-rules' category of a call that succeeded untouched: it has no failures to rank. */
const SUCCESS_CATEGORY = 'ok';

export type ShowEvents = (kind: 'tool' | 'category', name: string) => void;

function renderRankRow(view: View, row: RateRow, kind: 'tool' | 'category', show: ShowEvents): TemplateResult {
  const { t, fmt } = view;
  const rate = row.failureRate ?? 0;
  // The bar width goes through the CSSOM (a property binding), not a style attribute, so a page whose
  // Content-Security-Policy forbids inline styles still draws it.
  return html`<li data-row=${row.name}>
    <div class="row-head">
      <button type="button" class="link" title=${kind === 'tool' ? t('showToolEvents') : t('showCategoryEvents')} @click=${() => show(kind, row.name)}>
        ${kind === 'tool' ? breakable(row.name) : categoryLabel(view.locale, row.name)}
      </button>
      <span class="rate">${row.failureRate === null ? '—' : fmt.rate(row.failureRate)}</span>
    </div>
    <div class="bar" aria-hidden="true"><span .style=${`width: ${Math.min(100, Math.max(0, rate * 100)).toFixed(1)}%`}></span></div>
    <div class="hint">
      <span data-denominator>${t('failedOfCalls', { failed: fmt.integer(row.failures), calls: fmt.integer(row.calls) })}</span>
      ${row.counterfactualFailureRate !== null ? html` · ${t('withoutHealing', { rate: fmt.rate(row.counterfactualFailureRate) })}` : nothing}
      ${row.healedSuccess > 0 ? html` · ${t('healedCount', { count: fmt.integer(row.healedSuccess) })}` : nothing}
    </div>
  </li>`;
}

function renderRanking(
  view: View,
  kind: 'tool' | 'category',
  rows: readonly RateRow[],
  ranking: readonly string[],
  minCalls: number,
  show: ShowEvents,
): TemplateResult {
  const { t, fmt } = view;
  const { ranked, belowFloor } = orderRows(rows, ranking);
  const min = fmt.integer(minCalls);
  return html`
    <div data-ranking=${kind}>
      <h3>${kind === 'tool' ? t('byTool') : t('byCategory')}</h3>
      ${
        ranked.length === 0
          ? html`<p class="muted">${kind === 'tool' ? t('noRankedTool', { min }) : t('noRankedCategory', { min })}</p>`
          : html`<ol class="ranking">
            ${ranked.map((row) => renderRankRow(view, row, kind, show))}
          </ol>`
      }
      ${
        belowFloor.length > 0
          ? html`<p class="hint" data-below-floor>
            ${t('belowFloor', { min })}
            ${belowFloor.map((row, index) => html`${index > 0 ? ', ' : ''}<span>${kind === 'tool' ? breakable(row.name) : categoryLabel(view.locale, row.name)} (${fmt.integer(row.failures)}/${fmt.integer(row.calls)})</span>`)}
          </p>`
          : nothing
      }
    </div>
  `;
}

export function renderRankings(view: View, payload: DashboardPayload, show: ShowEvents): TemplateResult {
  const { t, fmt } = view;
  return html`
    <section aria-labelledby="rankings-title" part="section rankings">
      <h3 id="rankings-title">${t('failureRates')}</h3>
      <p class="hint">${t('failureRatesHint', { min: fmt.integer(payload.minCalls) })}</p>
      <div class="grid2">
        ${renderRanking(view, 'tool', payload.tools, payload.rankings.toolsByFailureRate, payload.minCalls, show)}
        ${renderRanking(
          view,
          'category',
          payload.categories.filter((row) => row.name !== SUCCESS_CATEGORY),
          payload.rankings.categoriesByFailureRate.filter((name) => name !== SUCCESS_CATEGORY),
          payload.minCalls,
          show,
        )}
      </div>
    </section>
  `;
}
