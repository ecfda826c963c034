import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Allergy } from '@kinchart/shared/allergies';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../../test/people';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { familyMembersQueryKey } from '../../../lib/queries/family-members';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';
import { setSelectedPersonId } from '../../../lib/selected-person';
import { notify } from '../../../lib/toast';
import { HealthRecordsPage } from '../pages/health-records-page';
import { makeAllergy } from '../testing/fixtures';

vi.mock('../../../lib/toast');

// Issue 34 (docs/decisions/0053): allergies as entries on the health records screen.

const PEOPLE = [
  makeSelf('self-1'),
  makeFamilyPerson('child-1', { name: 'Mia Rivera' }),
  makeSharedPerson('shared-1', { name: 'Grandpa Joe', role: 'viewer' }),
];

/** The people list and each person's allergies (`lists`), then `route`; 404 otherwise. */
function serve(lists: Record<string, Allergy[]> = {}, route: (call: FetchCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = route(call);
    if (answer) return answer;
    if (call.url === '/api/user/people') return json(PEOPLE);
    const list = /^\/api\/user\/people\/([^/]+)\/allergies$/.exec(call.url);
    if (list && call.method === 'GET') return json(lists[list[1] ?? ''] ?? []);
    return json({ message: 'Not found' }, 404);
  });
}

function renderPage(personId = 'self-1') {
  return renderRoutes(
    [{ path: '/health-records/:personId?', element: <HealthRecordsPage /> }],
    `/health-records/${personId}?tab=allergies`,
  );
}

const panel = () => screen.getByRole('tabpanel');
const gets = (calls: FetchCall[]) => calls.filter((c) => c.method === 'GET' && c.url.endsWith('/allergies')).length;

beforeEach(() => {
  vi.mocked(notify.success).mockClear();
  setSelectedPersonId(null);
});

describe('allergies on the health records screen', () => {
  it('lists each entry with its reactions, severity and criticality, and marks a high criticality in words', async () => {
    serve({
      'self-1': [
        makeAllergy({
          reactions: ['Anaphylaxis', 'Hives'],
          codings: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }],
        }),
        makeAllergy({ id: 'alg-2', substance: 'Latex', reactions: [], severity: null, criticality: 'low' }),
      ],
    });
    renderPage();
    expect((await screen.findByRole('tab', { selected: true })).textContent).toBe('Allergies');
    const penicillin = await within(panel()).findByRole('article', { name: 'Penicillin' });
    for (const text of ['Anaphylaxis, Hives', 'Severe', 'High', 'High criticality', 'SNOMED 91936005']) {
      expect(within(penicillin).getByText(text)).toBeTruthy();
    }
    const latex = within(panel()).getByRole('article', { name: 'Latex' });
    expect(within(latex).queryByText('High criticality')).toBeNull();
    expect(within(latex).getByText('Low')).toBeTruthy();
    // No reactions and no severity read as a dash.
    expect(within(latex).getAllByText('—')).toHaveLength(2);
    expect(
      within(penicillin)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Edit Penicillin', 'Delete Penicillin']);
    expect(panel().querySelector('li')?.id).toBe('allergy-alg-1');
  });

  it('says when a person has no allergies recorded', async () => {
    serve();
    renderPage('child-1');
    expect(await within(await screen.findByRole('tabpanel')).findByText('No allergies recorded yet.')).toBeTruthy();
    expect(within(panel()).getByRole('button', { name: 'Add allergy' })).toBeTruthy();
  });

  it('adds an allergy with reactions from a growing list, checked before sending, and refreshes the profile it writes', async () => {
    const { calls } = serve({}, (call) =>
      call.method === 'POST' && call.url === '/api/user/people/child-1/allergies'
        ? json({ ...makeAllergy({ id: 'new', substance: 'Peanuts' }), message: 'Allergy added' }, 201)
        : undefined,
    );
    const user = userEvent.setup();
    const { queryClient } = renderPage('child-1');
    queryClient.setQueryData(patientProfileQueryKey, {});
    queryClient.setQueryData([...familyMembersQueryKey, 'child-1'], {});
    await user.click(await within(await screen.findByRole('tabpanel')).findByRole('button', { name: 'Add allergy' }));
    const dialog = screen.getByRole('dialog', { name: 'Add allergy' });

    // Nothing typed: the shared schema's message, and nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Add allergy' }));
    expect(await within(dialog).findByText('Substance is required')).toBeTruthy();
    expect(within(dialog).getByLabelText('Substance').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText('Substance'), 'Peanuts');
    await user.type(within(dialog).getByLabelText('Reaction 1'), 'Hives');
    await user.click(within(dialog).getByRole('button', { name: 'Add reaction' }));
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Reaction 2'));
    await user.type(within(dialog).getByLabelText('Reaction 2'), 'Wheezing');
    await user.click(within(dialog).getByRole('button', { name: 'Add reaction' }));
    await user.type(within(dialog).getByLabelText('Reaction 3'), 'Anaphylaxis');
    await user.click(within(dialog).getByRole('button', { name: 'Remove reaction 2' }));
    expect(within(dialog).queryByLabelText('Reaction 3')).toBeNull();
    // An empty box is left out rather than refused.
    await user.click(within(dialog).getByRole('button', { name: 'Add reaction' }));
    expect(Array.from(within(dialog).getByLabelText<HTMLSelectElement>('Criticality').options).map((o) => o.textContent)).toEqual([
      'Not known',
      'Low',
      'High',
      'Unable to assess',
    ]);
    expect(Array.from(within(dialog).getByLabelText<HTMLSelectElement>('Severity').options).map((o) => o.textContent)).toEqual([
      'Not known',
      'Mild',
      'Moderate',
      'Severe',
    ]);
    await user.selectOptions(within(dialog).getByLabelText('Severity'), 'Severe');
    await user.selectOptions(within(dialog).getByLabelText('Criticality'), 'High');
    const before = gets(calls);
    await user.click(within(dialog).getByRole('button', { name: 'Add allergy' }));

    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Allergy added'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      substance: 'Peanuts',
      reactions: ['Hives', 'Anaphylaxis'],
      severity: 'severe',
      criticality: 'high',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(gets(calls)).toBeGreaterThan(before));
    // The server wrote the profile's allergy text from the entries: whatever shows it is fetched again.
    expect(queryClient.getQueryState(patientProfileQueryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState([...familyMembersQueryKey, 'child-1'])?.isInvalidated).toBe(true);
  });

  it("edits with the entry's values, sends an unknown choice as null and keeps the codings by not sending them", async () => {
    const { calls } = serve({ 'self-1': [makeAllergy({ codings: [{ system: null, code: '1', display: 'x' }] })] }, (call) =>
      call.method === 'PUT' ? json({ ...makeAllergy({ criticality: null }), message: 'Allergy updated' }) : undefined,
    );
    const user = userEvent.setup();
    renderPage();
    const card = await within(await screen.findByRole('tabpanel')).findByRole('article', { name: 'Penicillin' });
    await user.click(within(card).getByRole('button', { name: 'Edit Penicillin' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit allergy' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Substance').value).toBe('Penicillin');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Reaction 1').value).toBe('Anaphylaxis');
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Severity').value).toBe('severe');
    await user.selectOptions(within(dialog).getByLabelText('Criticality'), 'Not known');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Allergy updated'));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/user/people/self-1/allergies/alg-1');
    expect(put?.body).toEqual({ substance: 'Penicillin', reactions: ['Anaphylaxis'], severity: 'severe', criticality: null });
  });

  it('files the shared schema’s messages under the box they are about, empty boxes left out', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    renderPage();
    await user.click(await within(await screen.findByRole('tabpanel')).findByRole('button', { name: 'Add allergy' }));
    const dialog = screen.getByRole('dialog', { name: 'Add allergy' });
    await user.type(within(dialog).getByLabelText('Substance'), 'NKDA');
    await user.click(within(dialog).getByRole('button', { name: 'Add reaction' }));
    await user.click(within(dialog).getByLabelText('Reaction 2'));
    await user.paste('x'.repeat(201));
    await user.click(within(dialog).getByRole('button', { name: 'Add allergy' }));
    expect(await within(dialog).findByText('Substance says that no allergies are known: leave the list empty instead')).toBeTruthy();
    expect(within(dialog).getByText('Reaction must be at most 200 characters')).toBeTruthy();
    expect(within(dialog).getByLabelText('Reaction 2').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByLabelText('Reaction 1').getAttribute('aria-invalid')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("shows the server's refusal in the dialog", async () => {
    serve({}, (call) => (call.method === 'POST' ? json({ message: 'substance must be at most 200 characters' }, 400) : undefined));
    const user = userEvent.setup();
    renderPage();
    await user.click(await within(await screen.findByRole('tabpanel')).findByRole('button', { name: 'Add allergy' }));
    const dialog = screen.getByRole('dialog', { name: 'Add allergy' });
    await user.type(within(dialog).getByLabelText('Substance'), 'Latex');
    await user.click(within(dialog).getByRole('button', { name: 'Add allergy' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('substance must be at most 200 characters');
    expect(notify.success).not.toHaveBeenCalled();
  });

  it('deletes after asking, with the server’s message', async () => {
    const lists = { 'self-1': [makeAllergy()] };
    const { calls } = serve(lists, (call) => {
      if (call.method !== 'DELETE') return undefined;
      lists['self-1'] = [];
      return json({ message: 'Allergy deleted' });
    });
    const user = userEvent.setup();
    renderPage();
    const card = await within(await screen.findByRole('tabpanel')).findByRole('article', { name: 'Penicillin' });
    await user.click(within(card).getByRole('button', { name: 'Delete Penicillin' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete allergy' });
    expect(within(confirm).getByText('Are you sure you want to delete Penicillin? This action cannot be undone.')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Allergy deleted'));
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/user/people/self-1/allergies/alg-1');
    await waitFor(() => expect(within(panel()).queryByRole('article', { name: 'Penicillin' })).toBeNull());
  });

  it('a viewer of a shared person reads the allergies but gets no add, edit or delete', async () => {
    serve({ 'shared-1': [makeAllergy()] });
    renderPage('shared-1');
    const card = await within(await screen.findByRole('tabpanel')).findByRole('article', { name: 'Penicillin' });
    expect(within(card).getByText('High criticality')).toBeTruthy();
    expect(within(card).queryByRole('button')).toBeNull();
    expect(within(panel()).queryByRole('button')).toBeNull();
  });

  it('opens the Allergies tab and focuses the entry an address names (#allergy-<id>)', async () => {
    serve({ 'self-1': [makeAllergy({ id: 'alg-9' })] });
    renderRoutes([{ path: '/health-records/:personId?', element: <HealthRecordsPage /> }], '/health-records/self-1#allergy-alg-9');
    expect((await screen.findByRole('tab', { selected: true })).textContent).toBe('Allergies');
    await waitFor(() => expect(document.activeElement?.id).toBe('allergy-alg-9'));
  });
});
