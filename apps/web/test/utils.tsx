import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { flushSync } from 'react-dom';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../src/app/providers';

export interface FetchCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

type Handler = (call: FetchCall) => Response | Promise<Response>;

/** A JSON answer, as the API sends it. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** An answer with no body. */
export function empty(status = 204): Response {
  return new Response(null, { status });
}

/**
 * Replaces fetch with `handler` and records every call with its parsed JSON body.
 * Unmatched requests should be answered by the handler (404 by convention).
 */
export function mockFetch(handler: Handler) {
  const calls: FetchCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const raw = init.body;
    const call: FetchCall = {
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string> | undefined) },
      body: typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw,
      credentials: init.credentials,
    };
    calls.push(call);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** Answers check-auth as signed in (as `username`) or as signed out. */
export function checkAuthAnswer(username: string | null): Response {
  return username === null
    ? json({ message: 'Not authenticated' }, 401)
    : json({ authenticated: true, user: { id: 'u1', username, email: `${username}@example.com` } });
}

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** Renders `routes` in a memory router at `path` with fresh providers. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createTestQueryClient();
  const utils = render(
    <AppProviders queryClient={queryClient}>
      {/* What react-router/dom's RouterProvider does; importing that entry here would load a
          second copy of react-router under Node (CommonJS beside the ESM the app uses). */}
      <RouterProvider
        router={router}
        flushSync={(fn) => {
          flushSync(fn);
        }}
      />
    </AppProviders>,
  );
  return { ...utils, router, queryClient };
}

/** A stand-in page that only says where the router went. */
export function Landmark({ name }: { name: string }) {
  return <h1>{name}</h1>;
}
