/** The custom element name of the dashboard, shared by `./define` and the DSH Settings page. */
export const TAG_NAME = 'tn-dashboard';
