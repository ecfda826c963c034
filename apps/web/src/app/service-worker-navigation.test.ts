import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './router';
import { shellAnswers } from './service-worker-navigation';

/** Every path of the router's tree, with parameters (optional ones too) filled in ('*', the not-found page, left out). */
function routePaths(list: RouteObject[], prefix = ''): string[] {
  return list.flatMap((route) => {
    const path = route.index ? prefix : route.path === undefined ? prefix : `${prefix}/${route.path}`;
    const own = route.index || (route.path !== undefined && route.path !== '*') ? [path.replace(/:[A-Za-z]+\??/g, 'abc123') || '/'] : [];
    return [...own, ...routePaths(route.children ?? [], path)];
  });
}

// DESIGN §7: the server renders the emergency pages itself; the worker must leave them (and the API) alone.
const SERVER_PAGE = /^\/(?:family\/)?emergency\//;

describe('what the service worker answers with the app shell', () => {
  const paths = routePaths(routes);

  it('reads the whole router (guards the walker above)', () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        '/login',
        '/dashboard',
        '/settings',
        '/edit-family-member/abc123',
        '/health-records/abc123',
        '/emergency-cards',
      ]),
    );
    expect(paths.length).toBeGreaterThan(15);
  });

  it('every page of the web app opens from the shell, with or without a query string', () => {
    for (const path of paths.filter((p) => !SERVER_PAGE.test(p))) {
      expect(shellAnswers(path), path).toBe(true);
      expect(shellAnswers(`${path}?tab=account`), `${path}?tab=account`).toBe(true);
    }
  });

  it('never the emergency pages, the API, SMART Health Links or files: the server answers those', () => {
    const shareId = 'A'.repeat(43);
    for (const path of [
      `/emergency/${shareId}`,
      `/family/emergency/${shareId}`,
      `/emergency/${shareId}?pin=1234`,
      '/api/user/files/1/content',
      '/api/auth/check-auth',
      '/api/user/emergency-cards',
      `/shl/${shareId}`,
      `/shl-files/${shareId}`,
      '/sw.js',
      '/manifest.webmanifest',
      '/favicon.svg',
      '/assets/index-abc.js',
      '/emergency-cards/extra',
      '/something-else',
    ]) {
      expect(shellAnswers(path), path).toBe(false);
    }
  });
});
