/**
 * The summary cards and the failure-rate rankings. The cards reflow to three, then two per row as the element
 * narrows, and to one in a very narrow panel; a figure stays on one line and scales with its card, and text
 * breaks between words.
 */
import { css } from 'lit';

export const summaryStyles = css`
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
    /* the value's size follows the card's width (cqi), so a figure like 100.0% never overflows a narrow card */
    container-type: inline-size;
    /* a word breaks only when it is longer than a whole line, never in the middle to fill one */
    overflow-wrap: break-word;
  }
  .kpi .label {
    color: var(--tn-muted);
    font-size: 12px;
  }
  .kpi .value {
    font-size: min(24px, 20cqi);
    font-weight: 650;
    margin: 2px 0;
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  .kpi .value.none {
    font-size: 16px;
    white-space: normal;
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
  /* a long tool name (an identifier, so it may wrap anywhere) pushes the rate under it, never out of the row */
  ol.ranking .row-head {
    flex-wrap: wrap;
  }
  ol.ranking button.link {
    min-width: 0;
    overflow-wrap: anywhere;
  }
  /* the last error is the collector's text (an address, a URL): it may wrap anywhere */
  [data-otlp] {
    overflow-wrap: anywhere;
  }
  [data-otlp] .badge {
    margin: 0 6px;
  }
  @container tn-dashboard (width < 760px) {
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
  }
  /* A panel this narrow (DSH's Settings page in a 420 px window leaves the page about 140 px) gets one card per
     row: two would leave each card a few characters per line and break its words. */
  @container tn-dashboard (width < 300px) {
    .kpis {
      grid-template-columns: minmax(0, 1fr);
    }
  }
`;
