/**
 * The console's pages, in navigation order: the path below /console and the title (nav link,
 * `<h1>`, document title). app.tsx gives each its component (a path without one is a compile
 * error there); the browser journeys visit every page of this table. Plain data: the journeys
 * import it in node.
 */
export const PAGES = [
  { path: '/', title: 'Overview' },
  { path: '/keys', title: 'API keys' },
  { path: '/batch', title: 'Batch' },
  { path: '/billing', title: 'Billing' },
  { path: '/webhooks', title: 'Webhooks' },
  { path: '/playground', title: 'Playground' },
  { path: '/outcomes', title: 'Outcomes' },
  { path: '/account', title: 'Account' },
] as const;

export type PagePath = (typeof PAGES)[number]['path'];
