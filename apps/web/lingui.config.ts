import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/*
 * DESIGN §15: one catalog per language, PO files translators know, ICU MessageFormat inside.
 * English is the source: the SPEC's texts are the English catalog's. `pseudo` is accented and
 * 40 % longer, for development and the journey that looks for clipped text (issue 35).
 *
 * Two catalogs per language: the emergency page's (its own small bundle, DESIGN §7) and the
 * app's. Each loads alone, per language, never all of them.
 */
export const LANGUAGES = ['en', 'es', 'fr', 'de', 'pt-BR', 'it', 'nl', 'pl', 'zh-Hans', 'ja', 'hi', 'ar', 'uk'] as const;

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
    {
      path: '<rootDir>/src/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: ['**/*.test.*', '**/testing/**', '<rootDir>/src/features/emergency/i18n/**', '<rootDir>/src/emergency/**'],
    },
  ],
});
