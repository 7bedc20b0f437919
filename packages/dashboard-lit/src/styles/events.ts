/**
 * The events section: filters, the table with its before/after diffs, the pager, and below the table's minimum
 * width each event restacked as a card (the table keeps its semantics; its headers stay in the accessibility tree).
 */
import { css } from 'lit';

export const eventsStyles = css`
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
  /* another harness's receipt (the MCP proxy's) next to its tool name; in the accent colour, with its label as text */
  td.cell-tool .badge.harness {
    font-weight: 500;
    color: var(--tn-accent);
    border-color: color-mix(in srgb, var(--tn-accent) 60%, transparent);
  }
  /* in the wide table a tool name keeps one line: its <wbr>s are for the narrow cards (Chromium breaks at a
     <wbr> even under nowrap, so they leave the layout here) */
  td.cell-time,
  td.cell-tool {
    white-space: nowrap;
  }
  td.cell-tool wbr {
    display: none;
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

  ul.change-lines {
    margin: 2px 0 0;
    padding-left: 16px;
  }
  .rule-filter {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    align-items: baseline;
    margin-bottom: 8px;
    overflow-wrap: anywhere;
  }
  /* Narrower than the events table's minimum width (the element below ~790 px): each event becomes a card. The
     table keeps its semantics (rows and cells; the column headers stay in the accessibility tree, visually
     hidden) and its rows restack as wrapping flex boxes: time · tool · outcome, then category, rules, the
     before → after previews and the error as full-width text blocks. */
  @container tn-dashboard (width < 760px) {
    /* Long unbroken names (tool names, rule ids, paths in previews) wrap instead of widening a narrow panel.
       Only in the event cards: in the wide table, 'anywhere' would also shrink the columns' minimum widths and
       break short names like run_code in the middle; summary and rule cards break only a word too long for a
       whole line (their own rules). */
    td,
    td .hint,
    pre {
      overflow-wrap: anywhere;
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
    /* a block (like the table, tbody and cells here), so its overflow: hidden applies: a table-header-group's
       would not, and its row would widen the panel */
    thead {
      display: block;
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
      white-space: normal;
    }
    td.cell-tool {
      order: 2;
      font-weight: 600;
      white-space: normal;
    }
    td.cell-tool wbr {
      display: inline;
    }
    td.cell-outcome {
      order: 3;
      margin-left: auto;
      /* the badge keeps its width and wraps to its own line rather than sticking out of a narrow card */
      flex: none;
      max-width: 100%;
    }
    td.cell-outcome .badge,
    td.cell-tool .badge.harness {
      white-space: normal;
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
`;
