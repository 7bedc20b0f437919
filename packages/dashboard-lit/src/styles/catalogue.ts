/**
 * The rule cards (a selected card marks the rule the events are filtered by) and the options list.
 */
import { css } from 'lit';

export const catalogueStyles = css`
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
    min-width: 0;
    overflow-wrap: break-word;
  }
  /* in a narrow card the on/off badge goes under a long title instead of out of the card */
  .rule .row-head {
    flex-wrap: wrap;
  }
  .rule .row-head > button.link {
    min-width: 0;
    max-width: 100%;
  }
  .rule.selected {
    border-color: var(--tn-accent);
    box-shadow: 0 0 0 1px var(--tn-accent);
  }
  .rule p {
    margin: 6px 0;
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
  /* option names and values are identifiers and data: they wrap anywhere rather than widen a narrow panel */
  .options > div {
    overflow-wrap: anywhere;
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
`;
