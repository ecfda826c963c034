import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeDose } from '../../../../test/care';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { AdherenceStrip } from './adherence-strip';

const NOW = new Date('2026-11-27T12:00:00Z');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('the 30-day strip', () => {
  it('shows one cell per day with its outcome in words, and the adherence percent', async () => {
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/people/p1/doses?from=2026-10-27&to=2026-11-28') {
        return json({
          doses: [
            // Nov 25: both taken; Nov 26: one skipped; today: one taken, one still to come.
            makeDose('m1', '2026-11-25T08:00:00+01:00', { status: 'taken' }),
            makeDose('m1', '2026-11-25T20:00:00+01:00', { status: 'taken' }),
            makeDose('m1', '2026-11-26T08:00:00+01:00', { status: 'taken' }),
            makeDose('m1', '2026-11-26T20:00:00+01:00', { status: 'skipped' }),
            // Another medication's missed dose does not colour this one's day.
            makeDose('m2', '2026-11-25T09:00:00+01:00', { status: 'missed' }),
            makeDose('m1', '2026-11-27T08:00:00+01:00', { status: 'taken' }),
            makeDose('m1', '2026-11-27T20:00:00+01:00', { status: 'upcoming' }),
          ],
        });
      }
      if (call.url === '/api/user/people/p1/adherence?days=30') {
        return json({
          days: 30,
          adherence: [{ medication_id: 'm1', medication_name: 'Albuterol', scheduled: 5, taken: 4, skipped: 1, missed: 0, percent: 80 }],
        });
      }
      return json({ message: 'Not found' }, 404);
    });
    renderRoutes([{ path: '/', element: <AdherenceStrip personId="p1" medicationId="m1" name="Albuterol" /> }], '/');

    expect(await screen.findByText('80% taken (4 of 5 doses)')).toBeTruthy();
    const strip = await screen.findByRole('list', { name: 'Each of the last 30 days of Albuterol' });
    const days = within(strip).getAllByRole('listitem');
    expect(days).toHaveLength(30);
    expect(days[0]?.textContent).toContain('Oct 29, 2026: none scheduled');
    expect(days.slice(-3).map((d) => d.title)).toEqual([
      'Nov 25, 2026: all taken',
      'Nov 26, 2026: some missed or skipped',
      'Nov 27, 2026: still to come',
    ]);
    // Not colour alone: each outcome has its own sign beside the words.
    expect(days.slice(-3).map((d) => d.querySelector('[aria-hidden="true"]')?.textContent)).toEqual(['✓', '✕', '○']);
    expect(calls).toHaveLength(2);
  });

  it('says when no dose was due yet', async () => {
    mockFetch((call) =>
      call.url.includes('/adherence')
        ? json({
            days: 30,
            adherence: [{ medication_id: 'm1', medication_name: 'A', scheduled: 0, taken: 0, skipped: 0, missed: 0, percent: null }],
          })
        : json({ doses: [] }),
    );
    renderRoutes([{ path: '/', element: <AdherenceStrip personId="p1" medicationId="m1" name="Albuterol" /> }], '/');
    expect(await screen.findByText('No doses due yet in the last 30 days')).toBeTruthy();
  });
});
