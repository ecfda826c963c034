import { cleanup, configure } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { afterEach, vi } from 'vitest';

// Issue 35: components read the active catalog; tests run in English, the source language, whose
// texts the macros keep outside production builds.
i18n.loadAndActivate({ locale: 'en', messages: {} });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Lazy route modules are compiled on first import, which can take a while on a cold run (and
// longer with two test workers on two cores: docs/decisions/0057).
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no scrolling; the router's scroll restoration calls it.
window.scrollTo = () => undefined;
