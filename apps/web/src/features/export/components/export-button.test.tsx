import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { notify } from '../../../lib/toast';
import { ReauthPrompt } from '../../auth/components/reauth-prompt';
import { ExportButton, progressLabel } from './export-button';

vi.mock('../../../lib/toast');

/** A zip answer whose body arrives in two chunks, the second only when `release` is called. */
function slowZip() {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new Uint8Array(50));
      await gate;
      controller.enqueue(new Uint8Array(50));
      controller.close();
    },
  });
  const response = new Response(body, {
    status: 200,
    headers: {
      'content-type': 'application/zip',
      'content-length': '100',
      'content-disposition': 'attachment; filename="kinchart-export-2026-11-21.zip"',
    },
  });
  return { response, release };
}

function stubDownloads() {
  const created = vi.fn(() => 'blob:export');
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
  const clicks: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicks.push(this.download);
  });
  return { created, clicks };
}

describe('Export button', () => {
  it('labels progress with a percentage once the size is known', () => {
    expect(progressLabel(null)).toBe('Exporting...');
    expect(progressLabel({ received: 10, total: 0 })).toBe('Exporting...');
    expect(progressLabel({ received: 42, total: 100 })).toBe('Exporting... 42%');
  });

  it('downloads the zip with the session, shows progress while it comes, and saves it under the server’s name', async () => {
    const zip = slowZip();
    const { calls } = mockFetch(() => zip.response);
    const { clicks } = stubDownloads();
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ExportButton className="btn" /> }], '/');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByRole('button', { name: 'Exporting... 50%' })).toBeTruthy();
    // The browser's time zone goes along: the FHIR bundles write appointment times with its offset.
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(calls[0]).toMatchObject({ url: `/api/user/export?tz=${encodeURIComponent(tz)}`, credentials: 'include' });
    zip.release();
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Export complete: kinchart-export-2026-11-21.zip'));
    expect(clicks).toEqual(['kinchart-export-2026-11-21.zip']);
    expect(screen.getByRole('button', { name: 'Export' })).toBeTruthy();
  });

  it('says clearly when the export failed, with the server’s reason', async () => {
    mockFetch(() => json({ message: 'Something went wrong. Please try again.' }, 500));
    stubDownloads();
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ExportButton className="btn" /> }], '/');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Export failed: Something went wrong. Please try again.'));
    expect(screen.getByRole('status').textContent).toBe('Export failed: Something went wrong. Please try again.');
  });

  it('treats a download cut short as a failure, not a smaller file', async () => {
    mockFetch(
      () => new Response(new Uint8Array(10), { status: 200, headers: { 'content-type': 'application/zip', 'content-length': '100' } }),
    );
    const { clicks } = stubDownloads();
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ExportButton className="btn" /> }], '/');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith(expect.stringMatching(/^Export failed: the download was interrupted/)));
    expect(clicks).toEqual([]);
  });

  // DESIGN §5: exporting everything needs the password within the last 10 minutes.
  it('asks for the password when the session’s last one is old, then downloads without another click', async () => {
    const reauthRequired = () => json({ message: 'Please confirm your password to continue.', reauth_required: true }, 401);
    const answers = [
      reauthRequired(),
      json({ message: 'Password confirmed', authenticated_until: '2026-03-04T10:10:00.000Z' }),
      zipAnswer(),
    ];
    const { calls } = mockFetch((call) =>
      call.url === '/api/config' ? json({ max_upload_bytes: 1024, signup_mode: 'open', sso: null }) : answers.shift()!,
    );
    const { clicks } = stubDownloads();
    const user = userEvent.setup();
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <>
              <ReauthPrompt />
              <ExportButton className="btn" />
            </>
          ),
        },
      ],
      '/',
    );
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Export complete: kinchart-export.zip'));
    expect(clicks).toEqual(['kinchart-export.zip']);
    expect(calls.map((c) => c.url.split('?')[0]).filter((url) => url !== '/api/config')).toEqual([
      '/api/user/export',
      '/api/auth/reauth',
      '/api/user/export',
    ]);
  });

  it('says the export did not start when the password prompt is cancelled', async () => {
    mockFetch(() => json({ message: 'Please confirm your password to continue.', reauth_required: true }, 401));
    const { clicks } = stubDownloads();
    const user = userEvent.setup();
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <>
              <ReauthPrompt />
              <ExportButton className="btn" />
            </>
          ),
        },
      ],
      '/',
    );
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Export failed: your password was not confirmed.'));
    expect(clicks).toEqual([]);
  });
});

function zipAnswer(): Response {
  return new Response(new Uint8Array(10), {
    status: 200,
    headers: {
      'content-type': 'application/zip',
      'content-length': '10',
      'content-disposition': 'attachment; filename="kinchart-export.zip"',
    },
  });
}
