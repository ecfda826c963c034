import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MedicalFile } from '@kinchart/shared/files';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { RecentUploads } from './recent-uploads';

function record(i: number): MedicalFile {
  const id = `f${i}`;
  return {
    id,
    record_id: id,
    name: `Record ${i}`,
    file_name: `Record ${i}`,
    display_name: `Record ${i}`,
    originalname: `record-${i}.pdf`,
    file_type: 'application/pdf',
    url: `/api/user/files/${id}/content`,
    created_at: new Date(Date.UTC(2024, 0, i + 1)).toISOString(),
    record_date: '2024-02-01',
    record_details: { provider_name: 'Dr. Lee', visit_location: 'Clinic', visit_reason: 'Check-up' },
    provider_name: 'Dr. Lee',
    visit_location: 'Clinic',
    visit_reason: 'Check-up',
    metadata: { size: 10 },
    person_id: 'person-self',
    person_name: 'Pat Example',
    text_status: 'done',
    text_pages: 1,
    text_reason: null,
    suggestion: null,
  };
}

function renderIt() {
  return renderRoutes([{ path: '/dashboard', element: <RecentUploads /> }], '/dashboard');
}

describe('Recent Uploads', () => {
  it('shows at most 8 cards, newest first, 300 px wide, each with its details and View Document', async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    mockFetch(() => json(Array.from({ length: 10 }, (_, i) => record(i))));
    renderIt();
    expect(screen.getByRole('heading', { name: 'Recent Uploads' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View All Records' }).getAttribute('href')).toBe('/view-records');

    const cards = await screen.findAllByRole('article');
    expect(cards).toHaveLength(8);
    expect(within(cards[0]!).getByRole('heading').textContent).toBe('Record 9');
    expect(cards[0]!.style.width).toBe('300px');
    for (const text of ['Dr. Lee', 'Clinic', 'Check-up']) expect(within(cards[0]!).getByText(text)).toBeTruthy();

    await user.click(within(cards[0]!).getByRole('button', { name: 'View Document' }));
    expect(open).toHaveBeenCalledWith('/api/user/files/f9/content', '_blank', 'noopener,noreferrer');
  });

  it('scrolls 300 px per click with the left and right buttons', async () => {
    const user = userEvent.setup();
    mockFetch(() => json(Array.from({ length: 8 }, (_, i) => record(i))));
    renderIt();
    const list = await screen.findByRole('list', { name: 'Recent Uploads' });
    const scrollBy = vi.fn();
    list.scrollBy = scrollBy;
    // jsdom lays nothing out: pretend the list is scrolled to the middle of a wide strip.
    Object.defineProperties(list, {
      scrollLeft: { value: 600, configurable: true },
      clientWidth: { value: 900, configurable: true },
      scrollWidth: { value: 2500, configurable: true },
    });
    list.dispatchEvent(new Event('scroll'));

    await user.click(screen.getByRole('button', { name: 'Scroll recent uploads right' }));
    expect(scrollBy).toHaveBeenLastCalledWith({ left: 300, behavior: 'smooth' });
    await user.click(screen.getByRole('button', { name: 'Scroll recent uploads left' }));
    expect(scrollBy).toHaveBeenLastCalledWith({ left: -300, behavior: 'smooth' });
  });

  it('says "No records yet" only when the list is really empty', async () => {
    mockFetch(() => json([]));
    renderIt();
    expect(await screen.findByText('No records yet')).toBeTruthy();
    expect(screen.queryByText('Your records could not be loaded.')).toBeNull();
  });

  it('when the records cannot be loaded it says so instead of "No records yet", and Try again fetches them', async () => {
    let fail = true;
    const { calls } = mockFetch(() => (fail ? json({ message: 'Internal Server Error' }, 500) : json([record(1)])));
    const user = userEvent.setup();
    renderIt();
    expect(await screen.findByText('Your records could not be loaded.')).toBeTruthy();
    expect(screen.queryByText('No records yet')).toBeNull();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Record 1' })).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/user/files')).toHaveLength(2);
    expect(screen.queryByText('Your records could not be loaded.')).toBeNull();
  });
});
