/**
 * The dashboard's colours and theme: custom properties defined once with `light-dark()`. `light` and `dark`
 * fix the colour scheme; `auto` follows the DSH web client's own design tokens (`--dsw-alias-*`) when the element
 * sits in DSH, and the user's `prefers-color-scheme` everywhere else. The host is a size container, so every
 * layout rule follows the element's own width (it is embedded in panels of any size), not the viewport's.
 */
import { css } from 'lit';

export const paletteStyles = css`
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
    /* 16 px, down to 4 px in a very narrow panel (a percentage is of the parent's width: 4 px at 136 px) */
    padding: clamp(4px, calc((100% - 136px) * 0.05 + 4px), 16px);
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
`;
