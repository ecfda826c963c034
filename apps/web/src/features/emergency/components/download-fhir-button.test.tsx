import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { loadEmergencyMessages } from '../i18n/locales';
import { EmergencyI18nProvider } from '../i18n/use-emergency-i18n';
import { DownloadFhirButton } from './download-fhir-button';

describe("'Download for clinicians (FHIR)'", () => {
  it('downloads the summary from the route of the code’s kind, with the PIN the viewer entered', async () => {
    const { calls } = mockFetch(
      () =>
        new Response('{"resourceType":"Bundle"}', {
          status: 200,
          headers: { 'content-type': 'application/fhir+json', 'content-disposition': 'attachment; filename="emergency-summary.fhir.json"' },
        }),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <DownloadFhirButton shareId="abc" kind="family" pin="4826" /> }], '/');
    await user.click(screen.getByRole('button', { name: 'Download for clinicians (FHIR)' }));
    await waitFor(() => expect(saved).toEqual(['emergency-summary.fhir.json']));
    expect(calls[0]!.url).toBe('/api/user/family/emergency/abc/fhir?pin=4826');
  });

  it('says why when the download is refused', async () => {
    mockFetch(() => json({ message: 'Too many incorrect PINs. Please try again in 15 minutes.' }, 429));
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <DownloadFhirButton shareId="abc" kind="self" pin="4826" /> }], '/');
    await user.click(screen.getByRole('button', { name: 'Download for clinicians (FHIR)' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many incorrect PINs. Please try again in 15 minutes.');
  });

  it('speaks the viewer’s language, and words a refusal in it rather than in the server’s English', async () => {
    mockFetch(() => json({ message: 'Too many incorrect PINs. Please try again in 15 minutes.' }, 429));
    const user = userEvent.setup();
    const messages = await loadEmergencyMessages('es');
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <EmergencyI18nProvider initial={{ locale: 'es', messages }}>
              <DownloadFhirButton shareId="abc" kind="self" pin="4826" />
            </EmergencyI18nProvider>
          ),
        },
      ],
      '/',
    );
    await user.click(screen.getByRole('button', { name: 'Descargar para el personal sanitario (FHIR)' }));
    expect((await screen.findByRole('alert')).textContent).toBe('La descarga falló. Compruebe la conexión e inténtelo de nuevo.');
  });
});
