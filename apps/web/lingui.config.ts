import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/*
 * DESIGN §15: one catalog per language, PO files translators know, ICU MessageFormat inside.
 * English is the source: the SPEC's texts are the English catalog's. `pseudo` is accented and
 * 40 % longer, for development and the journey that looks for clipped text (issue 35).
 *
 * Four catalogs per language, each loaded alone and only in the reader's language: the emergency
 * page's (its own small bundle, DESIGN §7), the public pages' (before the first render), the
 * server's answers (with the sign-in and signed-in pages) and the rest of the app's (with its pages).
 */
export const LANGUAGES = ['en', 'es', 'fr', 'de', 'pt-BR', 'it', 'nl', 'pl', 'zh-Hans', 'ja', 'hi', 'ar', 'uk'] as const;

/** The public catalog's code (folders; `**` forms for the other catalogs' excludes). */
const PUBLIC_DIRS = ['app', 'components', 'lib', 'i18n', 'features/marketing', 'features/auth'];
const PUBLIC = PUBLIC_DIRS.map((dir) => `<rootDir>/src/${dir}`);
const PUBLIC_GLOBS = PUBLIC_DIRS.map((dir) => `<rootDir>/src/${dir}/**`);
const NOT_PEOPLE_TEXT = ['**/*.test.*', '**/testing/**', '**/__mocks__/**'];

export default defineConfig({
  sourceLocale: 'en',
  locales: [...LANGUAGES, 'pseudo'],
  pseudoLocale: { locale: 'pseudo', prepend: '[', append: ']', extend: 0.4 },
  fallbackLocales: { pseudo: 'en', default: 'en' },
  format: formatter({ lineNumbers: false, origins: true }),
  orderBy: 'messageId',
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/emergency',
      include: ['<rootDir>/src/features/emergency/i18n', '<rootDir>/src/emergency'],
    },
    // The server's answers (decision 0054): wanted by the sign-in pages and every signed-in page.
    {
      path: '<rootDir>/src/locales/{locale}/server',
      include: ['<rootDir>/src/i18n/server-messages.generated.ts'],
    },
    // What a visitor meets first — the frame, shared components, the marketing and sign-in pages —
    // loaded before the first render; the rest of the app's texts load with its pages (decision 0056).
    {
      path: '<rootDir>/src/locales/{locale}/public',
      include: PUBLIC,
      exclude: [...NOT_PEOPLE_TEXT, '<rootDir>/src/i18n/server-messages.generated.ts'],
    },
    {
      path: '<rootDir>/src/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: [...NOT_PEOPLE_TEXT, ...PUBLIC_GLOBS, '<rootDir>/src/features/emergency/i18n/**', '<rootDir>/src/emergency/**'],
    },
  ],
});
