/*
 * Which page loads the service worker answers with the app shell (index.html from its precache),
 * read by pwa.config.ts. Only the web app's own client routes: the server renders the emergency
 * pages itself (DESIGN §7, their own small entry point), answers /api/, SMART Health Link
 * manifests (/shl/) and their file locations (/shl-files/), and serves files by name — none of
 * those may ever get the shell. A list of what is allowed, rather than of what is not, keeps a
 * server page added later out of reach until it is named here; service-worker-navigation.test.ts
 * checks the list against the router.
 */

/** One-segment client routes of app/router.tsx ('' is the landing page). */
const SHELL_PAGES = [
  '',
  'about',
  'howitworks',
  'faq',
  'signup',
  'login',
  'forgot-password',
  'reset-password',
  'verify-email',
  'link-account',
  'privacy-policy',
  'terms-of-service',
  'dashboard',
  'profile',
  'update-records',
  'view-records',
  'prescriptions',
  'settings',
  'notifications',
  'edit-profile',
  'appointments',
  'search',
  'emergency-cards',
] as const;

/** Workbox matches these against the URL's pathname and query string. */
export const shellNavigationAllowlist: RegExp[] = [
  new RegExp(`^/(?:${SHELL_PAGES.join('|')})/?(?:\\?.*)?$`),
  /^\/edit-family-member\/[^/?]+\/?(?:\?.*)?$/,
  /^\/health-records(?:\/[^/?]+)?\/?(?:\?.*)?$/,
  /^\/view-records\/[^/?]+\/lab-results\/?(?:\?.*)?$/,
  /^\/shared\/[^/?]+\/?(?:\?.*)?$/,
  /^\/invite\/[^/?]+\/?(?:\?.*)?$/,
];

/** Never the shell, whatever the allowlist says: the server answers these itself. */
export const shellNavigationDenylist: RegExp[] = [/^\/api\//, /^\/emergency\//, /^\/family\/emergency\//, /^\/shl\//, /^\/shl-files\//];

/** Whether the service worker answers a page load of `pathAndQuery` with the app shell (Workbox's rule). */
export function shellAnswers(pathAndQuery: string): boolean {
  return shellNavigationAllowlist.some((re) => re.test(pathAndQuery)) && !shellNavigationDenylist.some((re) => re.test(pathAndQuery));
}
