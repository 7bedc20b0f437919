/**
 * The dashboard's stylesheet. Colours are custom properties defined once with `light-dark()`: `light` and `dark`
 * fix the colour scheme; `auto` follows the DSH web client's own design tokens (`--dsw-alias-*`) when the element
 * sits in DSH, and the user's `prefers-color-scheme` everywhere else. Badges always carry text, never colour alone.
 * The layout follows the element's own width (a container query on the host, not the viewport), because the
 * element is embedded in panels of any size: DSH's Settings panel is about 560 px wide.
 */
import { css } from 'lit';

export const dashboardStyles = css`
  /* The palette, once: each colour is light-dark(light, dark) and the theme picks the colour scheme. In auto
     theme a colour is DSH's design token when the page defines it (--tn-dsh-*, set below), else the palette. A
     page may override any --tn-* property on the element itself. */
  :host {
    --tn-bg: var(--tn-dsh-bg, light-dark(#ffffff, #0d1117));
    --tn-surface: var(--tn-dsh-surface, light-dark(#f6f8fa, #161b22));
    --tn-fg: var(--tn-dsh-fg, light-dark(#1f2328, #e6edf3));
    --tn-muted: var(--tn-dsh-muted, light-dark(#59636e, #9198a1));
    --tn-border: var(--tn-dsh-border, light-dark(#d1d9e0, #3d444d));
    --tn-accent: var(--tn-dsh-accent, light-dark(#0969da, #4493f8));
    --tn-good: var(--tn-dsh-good, light-dark(#1a7f37, #3fb950));
    --tn-bad: var(--tn-dsh-bad, light-dark(#cf222e, #f85149));
    --tn-warn: var(--tn-dsh-warn, light-dark(#9a6700, #d29922));
    --tn-added-bg: color-mix(in srgb, var(--tn-good) 16%, transparent);
    --tn-removed-bg: color-mix(in srgb, var(--tn-bad) 16%, transparent);

    display: block;
    color: var(--tn-fg);
    background: var(--tn-bg);
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    font-size: 14px;
    line-height: 1.45;
    padding: 16px;
    box-sizing: border-box;
    color-scheme: light dark;
    container: tn-dashboard / inline-size;
    /* A size container does not take its width from its content, so in a shrink-to-fit parent (a flex column
       with align-items: flex-start, an inline-block) it would collapse; fill the available width instead, as a
       block in normal flow does anyway. The last declaration the browser understands wins. */
    width: -moz-available;
    width: -webkit-fill-available;
    width: stretch;
  }
  /* Auto theme: DeepSeek Harness's tokens. An undefined token leaves its --tn-dsh-* unset, so the palette applies. */
  :host(:not([theme='light']):not([theme='dark'])) {
    --tn-dsh-bg: var(--dsw-alias-bg-layer-1);
    --tn-dsh-surface: var(--dsw-alias-bg-module-platform);
    --tn-dsh-fg: var(--dsw-alias-label-primary);
    --tn-dsh-muted: var(--dsw-alias-label-secondary);
    --tn-dsh-border: var(--dsw-alias-border-l2);
    --tn-dsh-accent: var(--dsw-alias-brand-primary);
    --tn-dsh-good: var(--dsw-alias-state-success-primary);
    --tn-dsh-bad: var(--dsw-alias-state-error-primary);
    --tn-dsh-warn: var(--dsw-alias-state-warn-label);
  }
  :host([theme='light']) {
    color-scheme: light;
  }
  :host([theme='dark']) {
    color-scheme: dark;
  }
  [hidden] {
    display: none !important;
  }
  * {
    box-sizing: border-box;
  }
  header {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    justify-content: space-between;
    gap: 8px 16px;
    margin-bottom: 12px;
  }
  h2 {
    font-size: 18px;
    margin: 0;
  }
  h3 {
    font-size: 15px;
    margin: 0 0 8px;
  }
  section {
    margin-top: 20px;
  }
  .muted,
  .hint {
    color: var(--tn-muted);
  }
  .hint {
    font-size: 12px;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: center;
  }
  label.toggle {
    display: inline-flex;
    gap: 4px;
    align-items: center;
    white-space: nowrap;
  }
  button,
  select,
  input {
    font: inherit;
    color: var(--tn-fg);
    background: var(--tn-surface);
    border: 1px solid var(--tn-border);
    border-radius: 6px;
    padding: 4px 10px;
  }
  button {
    cursor: pointer;
  }
  button:hover:not(:disabled) {
    border-color: var(--tn-accent);
  }
  button:disabled {
    opacity: 0.6;
    cursor: default;
  }
  button:focus-visible,
  select:focus-visible,
  input:focus-visible {
    outline: 2px solid var(--tn-accent);
    outline-offset: 1px;
  }
  button.danger {
    color: var(--tn-bad);
    border-color: color-mix(in srgb, var(--tn-bad) 50%, var(--tn-border));
  }
  button.link {
    background: none;
    border: none;
    padding: 0;
    color: var(--tn-accent);
    text-decoration: underline;
    text-underline-offset: 2px;
    font-weight: 600;
    text-align: left;
  }
  .notice {
    border: 1px solid var(--tn-border);
    border-left: 4px solid var(--tn-accent);
    background: var(--tn-surface);
    border-radius: 6px;
    padding: 10px 12px;
    margin: 12px 0;
  }
  .notice.error {
    border-left-color: var(--tn-bad);
  }
  .notice.warn {
    border-left-color: var(--tn-warn);
  }
  .kpis {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(170px, 1fr));
    gap: 10px;
  }
  .kpi {
    border: 1px solid var(--tn-border);
    background: var(--tn-surface);
    border-radius: 8px;
    padding: 10px 12px;
    min-width: 0;
  }
  .kpi .label {
    color: var(--tn-muted);
    font-size: 12px;
  }
  .kpi .value {
    font-size: 24px;
    font-weight: 650;
    margin: 2px 0;
    font-variant-numeric: tabular-nums;
  }
  .kpi .value.none {
    font-size: 16px;
    font-weight: 500;
    color: var(--tn-muted);
    padding: 6px 0;
  }
  .kpi .value.good {
    color: var(--tn-good);
  }
  .grid2 {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(300px, 100%), 1fr));
    gap: 16px;
  }
  ol.ranking {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  ol.ranking li {
    padding: 6px 0;
    border-bottom: 1px solid var(--tn-border);
  }
  .row-head {
    display: flex;
    justify-content: space-between;
    gap: 8px;
    align-items: baseline;
  }
  .rate {
    font-weight: 650;
    font-variant-numeric: tabular-nums;
  }
  .bar {
    height: 6px;
    border-radius: 3px;
    background: color-mix(in srgb, var(--tn-border) 60%, transparent);
    overflow: hidden;
    margin: 4px 0 2px;
  }
  .bar > span {
    display: block;
    height: 100%;
    background: var(--tn-bad);
  }
  .rules {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(240px, 100%), 1fr));
    gap: 10px;
  }
  .rule {
    border: 1px solid var(--tn-border);
    background: var(--tn-surface);
    border-radius: 8px;
    padding: 10px 12px;
  }
  .rule p {
    margin: 6px 0;
  }
  code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 12px;
  }
  .filters {
    display: flex;
    flex-wrap: wrap;
    gap: 8px 12px;
    align-items: end;
    margin-bottom: 8px;
  }
  .filters .field {
    display: flex;
    flex-direction: column;
    gap: 2px;
  }
  .filters label {
    font-size: 12px;
    color: var(--tn-muted);
  }
  .table-wrap {
    overflow-x: auto;
    border: 1px solid var(--tn-border);
    border-radius: 8px;
  }
  table {
    border-collapse: collapse;
    width: 100%;
    min-width: 760px;
  }
  caption {
    text-align: left;
    padding: 8px 10px;
    color: var(--tn-muted);
    font-size: 12px;
  }
  th,
  td {
    text-align: left;
    vertical-align: top;
    padding: 6px 10px;
    border-top: 1px solid var(--tn-border);
  }
  th.preview {
    width: 40%;
  }
  th.error {
    width: 20%;
  }
  th {
    font-size: 12px;
    color: var(--tn-muted);
    font-weight: 600;
    background: var(--tn-surface);
  }
  pre {
    margin: 0;
    /* A floor for previews and errors in the wide table (narrow panels get cards instead, see below), so a
       crowded row cannot squeeze them to a few characters per line. */
    min-width: 22ch;
    white-space: pre-wrap;
    word-break: break-word;
    max-height: 9em;
    overflow: auto;
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 12px;
  }
  .preview-label {
    font-size: 11px;
    color: var(--tn-muted);
  }
  .badge {
    display: inline-block;
    white-space: nowrap;
    font-size: 12px;
    font-weight: 600;
    border-radius: 999px;
    padding: 1px 8px;
    border: 1px solid var(--tn-border);
    color: var(--tn-muted);
  }
  .badge.healed-success {
    color: var(--tn-good);
    border-color: color-mix(in srgb, var(--tn-good) 60%, transparent);
  }
  .badge.healed-failed,
  .badge.passthrough-failed {
    color: var(--tn-bad);
    border-color: color-mix(in srgb, var(--tn-bad) 60%, transparent);
  }
  .badge.on {
    color: var(--tn-good);
  }
  .badge.off {
    color: var(--tn-warn);
  }

  td.cell-time {
    white-space: nowrap;
  }
  .options {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(260px, 100%), 1fr));
    gap: 6px 16px;
    margin: 0;
  }
  .options > div {
    border-bottom: 1px solid var(--tn-border);
    padding: 4px 0;
    min-width: 0;
  }
  .options dt {
    font-weight: 600;
  }
  .options dd {
    margin: 0;
  }
  .options dd.changed code {
    color: var(--tn-accent);
    font-weight: 650;
  }
  .pager {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: center;
    justify-content: flex-end;
    margin-top: 8px;
  }
  .change-head {
    display: flex;
    gap: 8px;
    align-items: baseline;
    justify-content: space-between;
  }
  button.toggle {
    font-size: 11px;
    padding: 0 6px;
  }
  .diff {
    margin: 2px 0;
    border: 1px solid var(--tn-border);
    border-radius: 4px;
    max-height: 16em;
    overflow: auto;
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 12px;
  }
  .diff .line {
    display: flex;
    white-space: pre-wrap;
    word-break: break-word;
  }
  .diff .line::before {
    content: attr(data-sign);
    flex: none;
    width: 1.5ch;
    padding-left: 2px;
    color: var(--tn-muted);
    user-select: none;
  }
  .diff .line.added {
    background: var(--tn-added-bg);
  }
  .diff .line.removed {
    background: var(--tn-removed-bg);
  }
  .diff .line.added mark,
  .diff .line.removed mark {
    color: inherit;
    border-radius: 2px;
  }
  .diff .line.added mark {
    background: color-mix(in srgb, var(--tn-good) 40%, transparent);
  }
  .diff .line.removed mark {
    background: color-mix(in srgb, var(--tn-bad) 40%, transparent);
    text-decoration: line-through;
  }
  .keys {
    margin: 2px 0;
    font-size: 12px;
  }
  .keys .key {
    margin: 2px 0;
  }
  .keys .key > code:first-child {
    font-weight: 650;
  }

  /* Narrower than the events table's minimum width (the element below ~790 px): each event becomes a card. The
     table keeps its semantics (rows and cells; the column headers stay in the accessibility tree, visually
     hidden) and its rows restack as wrapping flex boxes: time · tool · outcome, then category, rules, the
     before → after previews and the error as full-width text blocks. */
  @container tn-dashboard (width < 760px) {
    /* Long unbroken names (tool names, rule ids, paths in previews) wrap instead of widening a narrow panel.
       Only here: in the wide table, 'anywhere' would also shrink the columns' minimum widths and break
       short names like run_code in the middle. */
    button.link,
    .rule,
    .hint,
    td,
    pre {
      overflow-wrap: anywhere;
    }
    .kpis {
      grid-template-columns: repeat(6, minmax(0, 1fr));
    }
    .kpi {
      grid-column: span 2;
    }
    /* five cards (a server without the repeats counter): 3 + 2, the last two sharing their row; six: 3 + 3 */
    .kpi:nth-child(4):nth-last-child(2),
    .kpi:nth-child(5):last-child {
      grid-column: span 3;
    }
    .filters .field {
      flex: 1 1 140px;
      min-width: 0;
    }
    .filters select,
    .filters input {
      width: 100%;
    }
    .table-wrap {
      overflow: visible;
      border: none;
      border-radius: 0;
    }
    table,
    tbody,
    caption,
    td {
      display: block;
    }
    table {
      min-width: 0;
    }
    caption {
      padding: 0 0 8px;
    }
    thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
    tbody tr {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 4px 12px;
      border: 1px solid var(--tn-border);
      border-radius: 8px;
      padding: 8px 12px;
      margin-bottom: 8px;
    }
    td {
      padding: 0;
      border: none;
      min-width: 0;
    }
    td.cell-time {
      order: 1;
    }
    td.cell-tool {
      order: 2;
      font-weight: 600;
    }
    td.cell-outcome {
      order: 3;
      margin-left: auto;
    }
    td.cell-category {
      order: 4;
    }
    td.cell-rules {
      order: 5;
    }
    td.cell-previews {
      order: 6;
    }
    td.cell-error {
      order: 7;
    }
    td.cell-category,
    td.cell-rules,
    td.cell-previews,
    td.cell-error,
    td.no-match {
      flex: 1 1 100%;
    }
    td[data-empty] {
      display: none;
    }
    td[data-label]::before {
      content: attr(data-label) ': ';
      color: var(--tn-muted);
      font-size: 12px;
    }
    td.cell-error::before {
      display: block;
      font-size: 11px;
    }
    td.cell-rules > div {
      display: inline;
    }
    td.cell-rules > div + div::before {
      content: ', ';
    }
    pre {
      min-width: 0;
      padding: 4px 6px;
      border-radius: 4px;
      background: var(--tn-surface);
    }
  }
  @container tn-dashboard (width < 480px) {
    .kpis {
      grid-template-columns: repeat(2, minmax(0, 1fr));
    }
    .kpi,
    .kpi:nth-child(4):nth-last-child(2),
    .kpi:nth-child(5):last-child {
      grid-column: auto;
    }
    .kpi:last-child:nth-child(odd) {
      grid-column: 1 / -1;
    }
    .kpi .value {
      font-size: 20px;
    }
  }
`;
