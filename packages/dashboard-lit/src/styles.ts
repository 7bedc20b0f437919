/**
 * The dashboard's stylesheet, one file per concept under `styles/`: palette and theme, shared furniture, summary,
 * catalogue (rules and options), events, and the compact layout of a very narrow container (last: it refines them). The order matters only where later sheets refine earlier ones.
 */
import { baseStyles } from './styles/base.js';
import { catalogueStyles } from './styles/catalogue.js';
import { compactStyles } from './styles/compact.js';
import { eventsStyles } from './styles/events.js';
import { paletteStyles } from './styles/palette.js';
import { summaryStyles } from './styles/summary.js';

export const dashboardStyles = [paletteStyles, baseStyles, summaryStyles, catalogueStyles, eventsStyles, compactStyles];
