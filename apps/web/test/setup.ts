import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Lazy route modules are compiled on first import, which can take a while on a cold run.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no scrolling; the router's scroll restoration calls it.
window.scrollTo = () => undefined;
