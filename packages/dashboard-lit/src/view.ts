/** What every render section receives: the translate function and the number/date formatter of the page's locale. */
import type { Formatter } from './format.js';
import type { Translate } from './messages.js';

export interface View {
  t: Translate;
  fmt: Formatter;
}
