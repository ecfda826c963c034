import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dose } from '@kinchart/shared/care';
import type { Medication } from '@kinchart/shared/profile';
import { makeDose, makeSchedule } from '../../../../test/care';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../../test/people';
import { makeMedication, makeProfile } from '../../../../test/profiles';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { notify } from '../../../lib/toast';
import { TodayDoses } from './today-doses';

vi.mock('../../../lib/toast');

// 12:00 UTC on Nov 27: in UTC+14 it is already 02:00 on Nov 28.
const NOW = new Date('2026-11-27T12:00:00Z');

const self = makeSelf('self-1', { name: 'Alice' });
const mia = makeFamilyPerson('p1', { name: 'Mia' });
const grandpa = makeSharedPerson('s1', { name: 'Grandpa Joe', role: 'viewer' });

const albuterol = (at: string, o: Partial<Dose> = {}) => makeDose('m1', at, { medication_name: 'Albuterol', dosage: '2 puffs', ...o });
const vitaminD = (at: string, o: Partial<Dose> = {}) => makeDose('m2', at, { medication_name: 'Vitamin D', dosage: '1000 IU', ...o });

type Route = (call: FetchCall) => Response | undefined;

function serve({
  doses,
  medications = [],
  route = () => undefined,
}: {
  /** The doses the server has now, by person. */
  doses: Record<string, Dose[]> | (() => Record<string, Dose[]>);
  medications?: Medication[];
  route?: Route;
}) {
  return mockFetch((call) => {
    const answer = route(call);
    if (answer) return answer;
    const url = new URL(call.url, 'http://localhost');
    if (url.pathname === '/api/user/getPatientProfile') return json(makeProfile({ medications }));
    if (url.pathname === '/api/user/medications') return json([]);
    const doseList = /^\/api\/user\/people\/([^/]+)\/doses$/.exec(url.pathname);
    if (doseList?.[1] && call.method === 'GET') {
      expect(url.searchParams.get('from')).toBe('2026-11-26');
      expect(url.searchParams.get('to')).toBe('2026-11-28');
      return json({ doses: (typeof doses === 'function' ? doses() : doses)[doseList[1]] ?? [] });
    }
    return json({ message: 'Not found' }, 404);
  });
}

const renderToday = () => renderRoutes([{ path: '/', element: <TodayDoses people={[self, mia, grandpa]} /> }], '/');
const person = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) });
const slot = (name: string) => screen.getByRole('group', { name });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  vi.mocked(notify.error).mockClear();
  vi.mocked(notify.success).mockClear();
});
afterEach(() => vi.useRealTimers());

describe('the Today block', () => {
  it("lists each person's doses of their own today, grouped by person and then by time", async () => {
    serve({
      doses: {
        'self-1': [
          albuterol('2026-11-26T20:00:00+00:00', { status: 'missed' }),
          albuterol('2026-11-27T08:00:00+00:00', { status: 'taken', taken_at: '2026-11-27T08:05:00Z', logged_by: 'alice' }),
          vitaminD('2026-11-27T08:00:00+00:00', { status: 'missed' }),
          albuterol('2026-11-27T20:00:00+00:00'),
        ],
        // Mia lives at UTC+14: her today is Nov 28; her 20:00 of Nov 27 is yesterday.
        p1: [
          makeDose('m9', '2026-11-27T20:00:00+14:00', { medication_name: 'Amoxicillin', status: 'missed' }),
          makeDose('m9', '2026-11-28T08:00:00+14:00', { medication_name: 'Amoxicillin' }),
        ],
        s1: [makeDose('m7', '2026-11-27T09:00:00+00:00', { medication_name: 'Warfarin', dosage: '5 mg', status: 'missed' })],
      },
    });
    renderToday();

    await screen.findByRole('region', { name: /^Alice/ });
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Alice', 'Mia', 'Grandpa JoeShared by sam']);
    expect(
      within(person('Alice'))
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(['08:00', '20:00']);
    const morning = slot('Alice at 08:00');
    expect(within(morning).getByText('Taken at 08:05 by alice')).toBeTruthy();
    expect(within(morning).getByRole('button', { name: 'Undo: Albuterol at 08:00' })).toBeTruthy();
    expect(within(morning).getByRole('button', { name: 'Taken: Vitamin D at 08:00' })).toBeTruthy();
    expect(within(morning).getByRole('button', { name: 'Skip: Vitamin D at 08:00' })).toBeTruthy();
    expect(within(morning).getByText('Missed')).toBeTruthy();
    expect(within(morning).getByRole('button', { name: 'Take all: Alice at 08:00' })).toBeTruthy();
    // Every time slot with a dose still open has its Take all, one dose or several (issue 32).
    expect(within(slot('Alice at 20:00')).getByRole('button', { name: 'Take all: Alice at 20:00' })).toBeTruthy();

    expect(
      within(person('Mia'))
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(['08:00']);
    expect(slot('Mia at 08:00')).toBeTruthy();

    // A viewer sees the dose but has nothing to press.
    const shared = person('Grandpa Joe');
    expect(within(shared).getByText('Warfarin')).toBeTruthy();
    expect(within(shared).getByText("View only: you can see Grandpa Joe's doses but not log them.")).toBeTruthy();
    expect(within(shared).queryAllByRole('button')).toEqual([]);
  });

  it('Take all logs every open dose of the time slot as taken', async () => {
    let list = [
      albuterol('2026-11-27T11:30:00+00:00', { status: 'due' }),
      vitaminD('2026-11-27T11:30:00+00:00', { status: 'due' }),
      makeDose('m3', '2026-11-27T11:30:00+00:00', { medication_name: 'Iron', status: 'skipped', logged_by: 'alice' }),
    ];
    const { calls } = serve({
      doses: () => ({ 'self-1': list }),
      route: (call) => {
        if (call.method !== 'PUT') return undefined;
        const id = decodeURIComponent(call.url.split('/').at(-1) ?? '');
        const logged = { status: 'taken' as const, taken_at: NOW.toISOString(), logged_at: NOW.toISOString(), logged_by: 'alice' };
        list = list.map((d) => (d.dose_id === id ? { ...d, ...logged } : d));
        return json(list.find((d) => d.dose_id === id));
      },
    });
    const user = userEvent.setup();
    renderToday();

    await user.click(await screen.findByRole('button', { name: 'Take all: Alice at 11:30' }));
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => c.url).sort()).toEqual([
      '/api/user/people/self-1/doses/m1.202611271130',
      '/api/user/people/self-1/doses/m2.202611271130',
    ]);
    expect(puts.every((c) => (c.body as { status: string }).status === 'taken')).toBe(true);
    const group = slot('Alice at 11:30');
    await waitFor(() => expect(within(group).getAllByText('Taken at 12:00 by alice')).toHaveLength(2));
    expect(screen.getByText('2 doses taken.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Undo: Albuterol at 11:30'));
    expect(within(group).getByRole('button', { name: 'Undo: Albuterol at 11:30' })).toBeTruthy();
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('Taken on a dose alone at its time: said in the live status, the keyboard kept on its row; Take all there logs that one dose', async () => {
    let list = [albuterol('2026-11-27T11:30:00+00:00', { status: 'due' }), albuterol('2026-11-27T20:00:00+00:00')];
    const { calls } = serve({
      doses: () => ({ 'self-1': list }),
      route: (call) => {
        if (call.method !== 'PUT') return undefined;
        const id = decodeURIComponent(call.url.split('/').at(-1) ?? '');
        const logged = { status: 'taken' as const, taken_at: NOW.toISOString(), logged_at: NOW.toISOString(), logged_by: 'alice' };
        list = list.map((d) => (d.dose_id === id ? { ...d, ...logged } : d));
        return json(list.find((d) => d.dose_id === id));
      },
    });
    const user = userEvent.setup();
    renderToday();

    await user.click(await screen.findByRole('button', { name: 'Taken: Albuterol at 11:30' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Albuterol at 11:30: taken.'));
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Undo: Albuterol at 11:30'));
    // Nothing open at 11:30 any more: no Take all there.
    expect(within(slot('Alice at 11:30')).queryByRole('button', { name: /^Take all/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Take all: Alice at 20:00' }));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.url)).toEqual([
      '/api/user/people/self-1/doses/m1.202611271130',
      '/api/user/people/self-1/doses/m1.202611272000',
    ]);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('1 dose taken.'));
    expect(within(slot('Alice at 20:00')).getByRole('button', { name: 'Undo: Albuterol at 20:00' })).toBeTruthy();
  });

  it('Undo removes the log entry and offers Taken and Skip again', async () => {
    let logged = true;
    const { calls } = serve({
      doses: () => ({
        'self-1': [
          logged
            ? albuterol('2026-11-27T11:30:00+00:00', { status: 'taken', taken_at: '2026-11-27T11:31:00Z', logged_by: 'alice' })
            : albuterol('2026-11-27T11:30:00+00:00', { status: 'due' }),
        ],
      }),
      route: (call) => {
        if (call.method !== 'DELETE') return undefined;
        logged = false;
        return json({ message: 'Dose log removed' });
      },
    });
    const user = userEvent.setup();
    renderToday();

    await user.click(await screen.findByRole('button', { name: 'Undo: Albuterol at 11:30' }));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/user/people/self-1/doses/m1.202611271130']);
    // Undo is gone; the keyboard is on the dose's Taken, and the result is said.
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Taken: Albuterol at 11:30'));
    expect(screen.getByText('Albuterol at 11:30: undone.')).toBeTruthy();
    expect(within(slot('Alice at 11:30')).getByText('Due')).toBeTruthy();
  });

  it('a refused Taken puts the dose back as it was and says so', async () => {
    serve({
      doses: { 'self-1': [albuterol('2026-11-27T11:30:00+00:00', { status: 'due' })] },
      route: (call) => (call.method === 'PUT' ? json({ message: 'You can only view this person' }, 403) : undefined),
    });
    const user = userEvent.setup();
    renderToday();

    await user.click(await screen.findByRole('button', { name: 'Taken: Albuterol at 11:30' }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Albuterol at 11:30 was not logged. You can only view this person'));
    expect(await screen.findByRole('button', { name: 'Taken: Albuterol at 11:30' })).toBeTruthy();
    expect(within(slot('Alice at 11:30')).getByText('Due')).toBeTruthy();
    expect(within(slot('Alice at 11:30')).queryByText(/^Taken at/)).toBeNull();
  });

  it('an as-needed medication has Log a dose, which logs one taken now', async () => {
    const ibuprofen = makeMedication('m5', { medication_name: 'Ibuprofen', dosage: '200 mg' });
    let taken: Dose[] = [];
    const { calls } = serve({
      doses: () => ({ 'self-1': taken }),
      medications: [ibuprofen],
      route: (call) => {
        if (call.url === '/api/user/people/self-1/schedules')
          return json({ schedules: [makeSchedule('m5', { as_needed: true, times: [] })] });
        if (call.method !== 'POST') return undefined;
        const dose = makeDose('m5', '2026-11-27T12:00:00+00:00', {
          dose_id: 'log-1',
          medication_name: 'Ibuprofen',
          as_needed: true,
          status: 'taken',
          taken_at: NOW.toISOString(),
          logged_by: 'alice',
        });
        taken = [dose];
        return json(dose, 201);
      },
    });
    const user = userEvent.setup();
    renderToday();

    expect(await screen.findByText('No doses are scheduled for today.')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Log a dose of Ibuprofen' }));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ medication_id: 'm5' });
    expect(await screen.findByText('Taken at 12:00 by alice')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Undo: Ibuprofen at 12:00' })).toBeTruthy();
    expect(notify.success).toHaveBeenCalledWith('Logged a dose of Ibuprofen.');
  });

  it('says so when nothing is scheduled for today', async () => {
    serve({ doses: {} });
    renderToday();
    expect(await screen.findByText('No doses are scheduled for today.')).toBeTruthy();
    expect(screen.queryAllByRole('region')).toHaveLength(1);
  });
});
