/**
 * Shared page furniture: headings, hints, buttons and inputs, notices, badges (which always carry text, never
 * colour alone), code and the row heads of rankings and cards.
 */
import { css } from 'lit';

export const baseStyles = css`
  [hidden] {
    display: none !important;
  }
  * {
    box-sizing: border-box;
  }
  /* in a very narrow panel the heading, the status line (dates) and the buttons wrap between words instead of
     widening it (a word breaks only when it is longer than a whole line) */
  header > *,
  .actions > * {
    min-width: 0;
    max-width: 100%;
    overflow-wrap: break-word;
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
  .row-head {
    display: flex;
    justify-content: space-between;
    gap: 8px;
    align-items: baseline;
  }
  code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 12px;
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

  button.toggle {
    font-size: 11px;
    padding: 0 6px;
  }
`;
