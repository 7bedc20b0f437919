/**
 * Side-effect entry: registers `<tn-dashboard>` in the page's custom element registry. Safe to load twice (for
 * example the standalone bundle next to the DSH Settings bundle): a second load finds the name taken and
 * leaves the first definition in place. In Node (no `customElements`) importing it registers nothing.
 */
import { TnDashboard } from './dashboard-element.js';

import { TAG_NAME } from './define-name.js';

export { TAG_NAME };

if (typeof customElements !== 'undefined' && !customElements.get(TAG_NAME))
  customElements.define(TAG_NAME, TnDashboard);

export { TnDashboard };

declare global {
  interface HTMLElementTagNameMap {
    'tn-dashboard': TnDashboard;
  }
}
