import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Preferences } from '@kinchart/shared/care';
import { DOCUMENT_LANGUAGES } from '@kinchart/shared/search';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { AdoptBrowserPreferences } from './adopt-browser-preferences';
import { DocumentLanguagesSection } from './document-languages-section';

function preferences(overrides: Partial<Preferences> = {}): Preferences {
  return {
    time_zone: 'Europe/Madrid',
    time_zone_set: true,
    reminder_email: true,
    reminder_push: false,
    reminder_minimal: false,
    document_languages: ['en'],
    document_languages_set: true,
    language: 'en',
    language_set: true,
    units: 'imperial',
    ...overrides,
  };
}

/** GET answers `stored`; PUT answers it with the body applied (or `failure`). */
function api(stored: Preferences, failure?: { status: number; message: string }) {
  let current = stored;
  return mockFetch((call) => {
    if (call.url !== '/api/user/preferences') return json({ message: 'Not found' }, 404);
    if (call.method === 'PUT') {
      if (failure) return json({ message: failure.message }, failure.status);
      current = { ...current, ...(call.body as Partial<Preferences>), document_languages_set: true };
    }
    return json(current);
  });
}

const puts = (calls: { method: string; body: unknown }[]) => calls.filter((c) => c.method === 'PUT').map((c) => c.body);

describe('Settings → Documents', () => {
  it('offers every language the server reads, with the saved ones checked and the hint', async () => {
    api(preferences({ document_languages: ['es', 'en'] }));
    renderRoutes([{ path: '/settings', element: <DocumentLanguagesSection /> }], '/settings');
    const group = await screen.findByRole('group', { name: 'Languages your documents are written in' });
    expect(within(group).getAllByRole('checkbox')).toHaveLength(DOCUMENT_LANGUAGES.length);
    expect(within(group).getByRole<HTMLInputElement>('checkbox', { name: 'Español (Spanish)' }).checked).toBe(true);
    expect(within(group).getByRole<HTMLInputElement>('checkbox', { name: 'English' }).checked).toBe(true);
    expect(within(group).getByRole<HTMLInputElement>('checkbox', { name: 'Deutsch (German)' }).checked).toBe(false);
    expect(group.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(group.getAttribute('aria-describedby')!)?.textContent).toContain(
      'Used to read scanned documents and photos.',
    );
  });

  it('saves the languages chosen, in the order chosen', async () => {
    const user = userEvent.setup();
    const { calls } = api(preferences());
    renderRoutes([{ path: '/settings', element: <DocumentLanguagesSection /> }], '/settings');
    await user.click(await screen.findByRole('checkbox', { name: 'Deutsch (German)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Français (French)' }));
    await user.click(screen.getByRole('button', { name: 'Save document languages' }));
    expect(await screen.findByText('Document languages saved successfully.')).toBeTruthy();
    expect(puts(calls)).toEqual([{ document_languages: ['en', 'de', 'fr'] }]);
  });

  it('asks for at least one language and at most four before saving', async () => {
    const user = userEvent.setup();
    const { calls } = api(preferences());
    renderRoutes([{ path: '/settings', element: <DocumentLanguagesSection /> }], '/settings');
    await user.click(await screen.findByRole('checkbox', { name: 'English' }));
    await user.click(screen.getByRole('button', { name: 'Save document languages' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose at least one language.');

    for (const name of ['Deutsch (German)', 'Français (French)', 'Italiano (Italian)', 'Polski (Polish)', 'Nederlands (Dutch)']) {
      await user.click(screen.getByRole('checkbox', { name }));
    }
    await user.click(screen.getByRole('button', { name: 'Save document languages' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose at most 4 languages.');
    expect(puts(calls)).toEqual([]);
  });

  it('shows the server message when saving fails', async () => {
    const user = userEvent.setup();
    api(preferences(), { status: 400, message: 'document_languages must name at least one language' });
    renderRoutes([{ path: '/settings', element: <DocumentLanguagesSection /> }], '/settings');
    await user.click(await screen.findByRole('checkbox', { name: 'Español (Spanish)' }));
    await user.click(screen.getByRole('button', { name: 'Save document languages' }));
    expect((await screen.findByRole('alert')).textContent).toBe('document_languages must name at least one language');
  });
});

describe('after sign-in', () => {
  it('an account that never chose takes the languages of this browser, once, with the zone in the same request', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'fr', 'ko']);
    const { calls } = api(preferences({ time_zone: 'UTC', time_zone_set: false, document_languages_set: false }));
    renderRoutes([{ path: '/dashboard', element: <AdoptBrowserPreferences /> }], '/dashboard');
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]).toEqual({ time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone, document_languages: ['de', 'fr', 'en'] });
  });

  it('leaves languages the account chose alone', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE']);
    const { calls } = api(preferences({ document_languages: ['es'] }));
    renderRoutes(
      [
        {
          path: '/dashboard',
          element: (
            <>
              <AdoptBrowserPreferences />
              <DocumentLanguagesSection />
            </>
          ),
        },
      ],
      '/dashboard',
    );
    // The answer has arrived (and been rendered) once its languages show.
    expect((await screen.findByRole<HTMLInputElement>('checkbox', { name: 'Español (Spanish)' })).checked).toBe(true);
    expect(puts(calls)).toEqual([]);
  });
});
