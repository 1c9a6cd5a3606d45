// A team's page in the app.
export const teamHref = (slug: string) => `/teams/${encodeURIComponent(slug)}`;
