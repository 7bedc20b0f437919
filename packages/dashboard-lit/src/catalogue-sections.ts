/**
 * The rule cards (core-rules' catalogue with each rule's on/off state in the running configuration and how often
 * it fired; a click shows that rule's events) and the read-only view of the effective options, each saying where
 * it is changed (live in DSH's Plugins page, or in cordis.patch.yml at the next start). Render functions only.
 */
import { breakable } from './breakable.js';
import { html, nothing, type TemplateResult } from 'lit';
import { categoryLabel, ruleText } from './catalogue-messages.js';
import type { OptionState } from './feed.js';
import type { DashboardPayload, RuleCard } from './types.js';
import type { View } from './view.js';

function firedText(view: View, rule: RuleCard, payload: DashboardPayload, recentUse: Map<string, number>): string {
  const { t, fmt } = view;
  if (rule.fired === undefined) return t('ruleFiredRecent', { count: fmt.integer(recentUse.get(rule.id) ?? 0) });
  const usage = payload.ruleUsage;
  if (!usage || usage.complete) return t('ruleFired', { count: fmt.integer(rule.fired) });
  return t('ruleFiredOf', { count: fmt.integer(rule.fired), counted: fmt.integer(usage.counted) });
}

export function renderRules(
  view: View,
  payload: DashboardPayload,
  rules: readonly RuleCard[] | undefined,
  showEvents: (ruleId: string) => void,
  selected: string,
): TemplateResult | typeof nothing {
  if (!rules || rules.length === 0) return nothing;
  const { t, locale } = view;
  const recentUse = new Map<string, number>();
  for (const event of payload.recent) for (const id of event.ruleIds) recentUse.set(id, (recentUse.get(id) ?? 0) + 1);
  return html`
    <section aria-labelledby="rules-title" part="section rules">
      <h3 id="rules-title">${t('rules')}</h3>
      <div class="rules">
        ${rules.map((rule) => {
          const text = ruleText(locale, rule);
          return html`<article class="rule ${selected === rule.id ? 'selected' : ''}" data-rule=${rule.id} part="rule">
            <div class="row-head">
              <button type="button" class="link" data-show-rule title=${t('showRuleEvents')} aria-pressed=${selected === rule.id ? 'true' : 'false'} @click=${() => showEvents(rule.id)}>
                ${text.title}
              </button>
              ${
                rule.enabled === undefined
                  ? nothing
                  : html`<span class="badge ${rule.enabled ? 'on' : 'off'}" data-state=${rule.enabled ? 'on' : 'off'}>${rule.enabled ? t('ruleOn') : t('ruleOff')}</span>`
              }
            </div>
            <div class="hint"><code>${breakable(rule.id)}</code> · <span data-category>${categoryLabel(locale, rule.category)}</span></div>
            <p data-description>${text.description}</p>
            <div class="hint">
              ${rule.option ? html`${t('ruleOption')} <code>${breakable(rule.option)}</code> · ` : nothing}<span data-fired>${firedText(view, rule, payload, recentUse)}</span>
            </div>
          </article>`;
        })}
      </div>
    </section>
  `;
}

/** An option value as JSON: a map (request headers, values hidden by the server) as an object, `{}` when empty. */
const showValue = (value: OptionState['value']): string => JSON.stringify(value);

export function renderOptions(
  view: View,
  options: readonly OptionState[] | undefined,
): TemplateResult | typeof nothing {
  if (!options || options.length === 0) return nothing;
  const { t } = view;
  return html`
    <section aria-labelledby="options-title" part="section options">
      <h3 id="options-title">${t('options')}</h3>
      <p class="hint">${t('optionsHint')}</p>
      <dl class="options">
        ${options.map((option) => {
          const changed = showValue(option.value) !== showValue(option.defaultValue);
          return html`<div data-option=${option.name} title=${option.description ?? nothing}>
            <dt><code>${breakable(option.name)}</code></dt>
            <dd class=${changed ? 'changed' : ''}>
              <code data-value>${showValue(option.value)}</code>
              <span class="hint">${changed ? t('optionChanged', { value: showValue(option.defaultValue) }) : t('optionDefault')}</span>
              ${
                option.live === undefined
                  ? nothing
                  : html`<div class="hint" data-where=${option.live ? 'live' : 'restart'}>${option.live ? t('optionLive') : t('optionRestart')}</div>`
              }
            </dd>
          </div>`;
        })}
      </dl>
    </section>
  `;
}
