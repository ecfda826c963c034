import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLanguage, i18n } from './catalogs';
import { LanguageProvider, onLanguageChosen } from './language-provider';
import { LanguageSelect } from './language-select';
import { initialLanguage } from './languages';

// Issue 35: the chooser on every page. It loads the chosen catalog, names the language on
// <html lang dir>, remembers it on this browser and hands it to the signed-in account's saver.
describe('LanguageSelect', () => {
  afterEach(async () => {
    localStorage.clear();
    await activateLanguage('en');
  });

  it('names every language in itself and switches the page, mirrored for Arabic', async () => {
    const user = userEvent.setup();
    const saved: string[] = [];
    const stop = onLanguageChosen((language) => saved.push(language));
    render(
      <LanguageProvider>
        <LanguageSelect />
      </LanguageProvider>,
    );
    const select = screen.getByRole('combobox', { name: 'Language' });
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(
      expect.arrayContaining(['English', 'Español', 'العربية', '日本語', 'Polski', 'हिन्दी', 'Українська', '简体中文']),
    );
    expect(options.find((o) => o.textContent === 'العربية')?.getAttribute('lang')).toBe('ar');

    await user.selectOptions(select, 'es');
    await waitFor(() => expect(document.documentElement.lang).toBe('es'));
    expect(document.documentElement.dir).toBe('ltr');
    expect(i18n.locale).toBe('es');
    expect(localStorage.getItem('kinchart.language')).toBe('es');

    await user.selectOptions(screen.getByRole('combobox'), 'ar');
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(saved).toEqual(['es', 'ar']);
    stop();
  });

  it('first visits follow the browser’s languages; a stored choice and ?lang= win', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['pt-PT', 'en']);
    expect(initialLanguage()).toBe('pt-BR');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['zh-TW', 'ja-JP']);
    expect(initialLanguage()).toBe('ja');
    localStorage.setItem('kinchart.language', 'pl');
    expect(initialLanguage()).toBe('pl');
    window.history.replaceState(null, '', '/?lang=uk');
    expect(initialLanguage()).toBe('uk');
    expect(localStorage.getItem('kinchart.language')).toBe('uk');
    window.history.replaceState(null, '', '/');
  });
});
