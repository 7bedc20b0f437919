/**
 * The compact layout, for a very narrow container: DSH's Settings dialog keeps its navigation column at 420 px, so
 * in a 420 px window the page gets about 136 px. Chosen by the element's own width (a container query on the
 * `tn-dashboard` container), never the window's: the same window can hold a wide and a narrow dashboard. Type,
 * padding and nesting shrink so a line keeps room for words (prose breaks between words; identifiers between
 * their parts, see `breakable.ts`) and a code line for some 16 characters, not one token.
 */
import { css } from 'lit';

/* Below 240 px of content width (the element at 136 px has 128 px of content). */
export const compactStyles = css`
  @container tn-dashboard (width < 240px) {
    header,
    section {
      font-size: 13px;
      line-height: 1.4;
    }
    h2 {
      font-size: 16px;
    }
    h3 {
      font-size: 14px;
      margin-bottom: 6px;
    }
    section {
      margin-top: 14px;
    }
    .hint,
    .filters label,
    caption,
    td[data-label]::before {
      font-size: 11px;
    }
    .kpis,
    .rules {
      gap: 6px;
    }
    .kpi,
    .rule,
    tbody tr {
      padding: 6px 8px;
      border-radius: 6px;
    }
    .notice {
      padding: 6px 8px;
      margin: 8px 0;
    }
    button,
    select,
    input {
      padding: 2px 6px;
      font-size: 12px;
    }
    .badge {
      font-size: 11px;
      padding: 0 5px;
      border-radius: 4px;
    }
    code,
    pre,
    .diff,
    .keys {
      font-size: 11px;
    }
    pre {
      padding: 2px 4px;
    }
    .diff .line::before {
      width: 1.2ch;
      padding-left: 1px;
    }
    ul.change-lines {
      padding-left: 12px;
    }
    .filters {
      gap: 6px;
    }
    .filters .field {
      flex-basis: 100%;
    }
  }
`;
