/**
 * What every render section receives: the page's language, its translate function and its number/date formatter.
 * `locale` picks the texts that do not go through `t` (the catalogue's Chinese, the tokens-saved definition).
 */
import type { Formatter } from './format.js';
import type { SupportedLocale, Translate } from './messages.js';

export interface View {
  locale: SupportedLocale;
  t: Translate;
  fmt: Formatter;
}
