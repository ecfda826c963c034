// Issue 35: every component now reads its texts through Lingui, whose <Trans> and useLingui need
// an I18nProvider. The app has one (AppProviders); a test that renders a component alone gets one
// here: the web test project resolves '@testing-library/react' to this module (vitest.config.ts),
// which is Testing Library itself with `render` wrapped in the provider, around any wrapper the
// test passes. The active catalog is the one test/setup.ts loads (English).
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { ComponentType, ReactNode } from 'react';
import * as library from '@testing-library/react/dist/@testing-library/react.esm.js';

export * from '@testing-library/react/dist/@testing-library/react.esm.js';

type RenderOptions = NonNullable<Parameters<typeof library.render>[1]>;

export function render(ui: Parameters<typeof library.render>[0], options: RenderOptions = {}) {
  const Inner = options.wrapper as ComponentType<{ children: ReactNode }> | undefined;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nProvider i18n={i18n}>{Inner ? <Inner>{children}</Inner> : children}</I18nProvider>
  );
  return library.render(ui, { ...options, wrapper } as RenderOptions);
}
