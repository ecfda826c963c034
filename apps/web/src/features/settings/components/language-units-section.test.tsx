import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Preferences } from '@kinchart/shared/care';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { activateLanguage } from '../../../i18n/catalogs';
import { useUnits } from '../../../i18n/language-provider';
import { AdoptBrowserPreferences } from './adopt-browser-preferences';
import { LanguageUnitsSection } from './language-units-section';

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
      current = { ...current, ...(call.body as Partial<Preferences>) };
    }
    return json(current);
  });
}

const puts = (calls: { method: string; body: unknown }[]) => calls.filter((c) => c.method === 'PUT').map((c) => c.body);

/** What the height and weight forms read (the signed-in layout applies the account's units). */
function UnitsShown() {
  return <p data-testid="units">{useUnits()}</p>;
}

/** The section as the signed-in layout holds it: the layout saves a chosen language on the account. */
const page = [
  {
    path: '/settings',
    element: (
      <>
        <AdoptBrowserPreferences />
        <LanguageUnitsSection />
        <UnitsShown />
      </>
    ),
  },
];

afterEach(async () => {
  await activateLanguage('en');
  localStorage.clear();
});

describe('Settings → Language and units', () => {
  it('a user who chooses Español switches the page to Spanish and has it saved on the account', async () => {
    const user = userEvent.setup();
    const { calls } = api(preferences());
    renderRoutes(page, '/settings');
    const chooser = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Language' });
    expect(chooser.value).toBe('en');
    // The label is shown, not only read out.
    expect(screen.getByText('Language').className).not.toContain('sr-only');

    await user.selectOptions(chooser, 'es');
    await waitFor(() => expect(document.documentElement.lang).toBe('es'));
    expect(document.documentElement.dir).toBe('ltr');
    expect(localStorage.getItem('kinchart.language')).toBe('es');
    await waitFor(() => expect(puts(calls)).toEqual([{ language: 'es' }]));
  });

  it('a user who chooses العربية gets the page right to left', async () => {
    const user = userEvent.setup();
    const { calls } = api(preferences());
    renderRoutes(page, '/settings');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'ar');
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    await waitFor(() => expect(puts(calls)).toEqual([{ language: 'ar' }]));
  });

  it('offers imperial and metric units with the saved ones chosen, and saves a change', async () => {
    const user = userEvent.setup();
    const { calls } = api(preferences({ units: 'imperial' }));
    renderRoutes(page, '/settings');
    const units = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Units' });
    expect([...units.options].map((o) => o.textContent)).toEqual(['Imperial (ft/in, lbs)', 'Metric (cm, kg)']);
    expect(units.value).toBe('imperial');
    await waitFor(() => expect(screen.getByTestId('units').textContent).toBe('imperial'));

    await user.selectOptions(units, 'metric');
    expect(await screen.findByText('Units saved successfully.')).toBeTruthy();
    expect(puts(calls)).toEqual([{ units: 'metric' }]);
    expect(units.value).toBe('metric');
    expect(screen.getByTestId('units').textContent).toBe('metric');
  });

  it('keeps the units as they were when the server refuses the change', async () => {
    const user = userEvent.setup();
    api(preferences({ units: 'metric' }), { status: 500, message: 'Failed to save your preferences' });
    renderRoutes(page, '/settings');
    const units = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Units' });
    await waitFor(() => expect(screen.getByTestId('units').textContent).toBe('metric'));
    await user.selectOptions(units, 'imperial');
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to save your preferences');
    expect(units.value).toBe('metric');
    expect(screen.getByTestId('units').textContent).toBe('metric');
  });
});
