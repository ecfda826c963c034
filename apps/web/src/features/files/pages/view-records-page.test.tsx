import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MedicalFile } from '@kinchart/shared/files';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../../test/people';
import { empty, json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { makeMedicalFile } from '../testing/fixtures';
import { ViewRecordsPage } from './view-records-page';
import { notify } from '../../../lib/toast';

vi.mock('../../../lib/toast');
const toast = vi.mocked(notify);

const records = [
  makeMedicalFile('a', 'Blood work', {
    record_date: '2024-03-05',
    provider_name: 'Dr. Adams',
    visit_location: 'City Clinic',
    visit_reason: 'Annual check',
  }),
  makeMedicalFile('b', 'Chest X-ray', { file_type: 'image/png', record_date: '2023-11-20' }),
  makeMedicalFile('c', 'Allergy letter', { file_type: 'application/msword', record_date: '2024-05-01' }),
];

type Handler = (call: FetchCall) => Response | undefined;

function serve(extra: Handler = () => undefined) {
  return mockFetch((call) => extra(call) ?? (call.url === '/api/user/files' ? json(records) : json({ message: 'Not found' }, 404)));
}

function renderPage() {
  return renderRoutes([{ path: '/view-records', element: <ViewRecordsPage /> }], '/view-records');
}

const cardNames = () => screen.getAllByRole('article').map((a) => within(a).getByRole('heading').textContent);

beforeEach(() => {
  for (const fn of Object.values(toast)) fn.mockReset();
});

describe('View Records', () => {
  it('lists records newest first with date, provider, location, reason and a View Document link', async () => {
    serve();
    renderPage();
    await waitFor(() => expect(cardNames()).toEqual(['Allergy letter', 'Blood work', 'Chest X-ray']));
    const card = screen.getByRole('article', { name: 'Blood work' });
    for (const text of ['Date', 'Provider', 'Location', 'Reason', 'Dr. Adams', 'City Clinic', 'Annual check']) {
      expect(within(card).getByText(text)).toBeTruthy();
    }
    const link = within(card).getByRole('link', { name: 'View Document' });
    expect(link.getAttribute('href')).toBe('/api/user/files/a/content');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(within(card).getByRole('button', { name: 'Rename Blood work' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Delete Blood work' })).toBeTruthy();
  });

  it('searches, filters by type and sorts', async () => {
    const user = userEvent.setup();
    serve();
    renderPage();
    await waitFor(() => expect(cardNames()).toHaveLength(3));

    expect(screen.getByPlaceholderText('Search files...')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Name Z-A');
    expect(cardNames()).toEqual(['Chest X-ray', 'Blood work', 'Allergy letter']);
    await user.selectOptions(screen.getByLabelText('Type'), 'Images');
    expect(cardNames()).toEqual(['Chest X-ray']);
    await user.selectOptions(screen.getByLabelText('Type'), 'All Types');
    await user.type(screen.getByLabelText('Search'), 'adams');
    expect(cardNames()).toEqual(['Blood work']);
    expect(screen.getByText('Showing 1 of 3 records')).toBeTruthy();
    await user.clear(screen.getByLabelText('Search'));
    await user.type(screen.getByLabelText('Search'), 'zzz');
    expect(screen.getByText('No records match your search.')).toBeTruthy();
  });

  it('renaming to a blank name alerts "File name cannot be empty" and sends nothing', async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { calls } = serve();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Rename Blood work' }));
    const input = screen.getByLabelText('New name for Blood work');
    await user.clear(input);
    await user.type(input, '   ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(alert).toHaveBeenCalledWith('File name cannot be empty');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    // Still editing; Cancel goes back to the name.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { name: 'Blood work' })).toBeTruthy();
    expect(screen.queryByLabelText('New name for Blood work')).toBeNull();
  });

  it('renames inline with Save (PUT newName) and shows the new name', async () => {
    const user = userEvent.setup();
    const renamed = { ...records[0]!, name: 'Lipid panel', display_name: 'Lipid panel', file_name: 'Lipid panel' };
    let list = records;
    const { calls } = mockFetch((call) => {
      if (call.method !== 'PUT') return json(list);
      list = [renamed, ...records.slice(1)];
      return json(renamed);
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Rename Blood work' }));
    const input = screen.getByLabelText('New name for Blood work');
    await user.clear(input);
    await user.type(input, '  Lipid panel {Enter}');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Lipid panel' })).toBeTruthy());
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/user/files/a');
    expect(put?.body).toEqual({ newName: 'Lipid panel' });
  });

  it('a failed rename alerts "Failed to rename file. Please try again."', async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve((call) => (call.method === 'PUT' ? json({ message: 'boom' }, 500) : undefined));
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Rename Blood work' }));
    await user.type(screen.getByLabelText('New name for Blood work'), ' 2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to rename file. Please try again.'));
  });

  it('deletes only after "Confirm Delete"', async () => {
    const user = userEvent.setup();
    let list = records;
    const { calls } = mockFetch((call) => {
      if (call.method === 'DELETE') {
        list = list.filter((r) => r.id !== 'b');
        return json({ message: 'File deleted successfully' });
      }
      return json(list);
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete Chest X-ray' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Confirm Delete' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Chest X-ray' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Confirm Delete' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Chest X-ray' })).toBeNull());
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/user/files/b');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('after deleting a record the user is told "Record deleted." in a live status', async () => {
    const user = userEvent.setup();
    let list = records;
    mockFetch((call) => {
      if (call.method === 'DELETE') {
        list = list.filter((r) => r.id !== 'b');
        return json({ message: 'File deleted successfully' });
      }
      return json(list);
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete Chest X-ray' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Confirm Delete' })).getByRole('button', { name: 'Delete' }));
    const status = await screen.findByText('Record deleted.');
    expect(status.closest('[role="status"], [aria-live="polite"]')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Chest X-ray' })).toBeNull());
  });

  it('a failed delete alerts "Failed to delete file. Please try again."', async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve((call) => (call.method === 'DELETE' ? json({ message: 'nope' }, 500) : undefined));
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete Chest X-ray' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to delete file. Please try again.'));
    expect(screen.getByRole('article', { name: 'Chest X-ray' })).toBeTruthy();
  });

  it('says "Error fetching files" when the list cannot be loaded', async () => {
    mockFetch(() => json({ message: 'Internal Server Error' }, 500));
    renderPage();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error fetching files'));
    expect(await screen.findByText('Your records could not be loaded.')).toBeTruthy();
  });

  it('shows "No records yet" without records, and refreshes on filesUpdated', async () => {
    let list: MedicalFile[] = [];
    mockFetch(() => json(list));
    renderPage();
    expect(await screen.findByText('No records yet')).toBeTruthy();
    list = [records[0]!];
    window.dispatchEvent(new CustomEvent('filesUpdated'));
    expect(await screen.findByRole('article', { name: 'Blood work' })).toBeTruthy();
  });

  describe('person filter', () => {
    const people = [
      makeSelf('person-self', { name: 'Pat Example' }),
      makeFamilyPerson('mia', { name: 'Mia' }),
      makeSharedPerson('joe', { name: 'Grandpa Joe', shared_by: 'sam', role: 'viewer' }),
    ];
    const miaScan = makeMedicalFile('m', 'Vaccination card', { person_id: 'mia', person_name: 'Mia' });
    const joeLetter = makeMedicalFile('j', 'Eye test', { person_id: 'joe', person_name: 'Grandpa Joe' });
    const servePeople = () =>
      serve((call) => {
        if (call.url === '/api/user/people') return json(people);
        if (call.url === '/api/user/files') return json([...records, miaScan, joeLetter]);
        if (call.url === '/api/user/files?person=mia') return json([miaScan]);
        return undefined;
      });

    it("shows Everyone's records by default, each card naming its person", async () => {
      servePeople();
      renderPage();
      const filter = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Person' });
      expect(filter.value).toBe('');
      expect(
        within(filter)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Everyone', 'Pat Example (you)', 'Mia', 'Grandpa Joe (Shared by sam)']);
      await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(5));
      expect(within(screen.getByRole('article', { name: 'Vaccination card' })).getByText('Mia')).toBeTruthy();
      expect(within(screen.getByRole('article', { name: 'Blood work' })).getByText('Pat Example')).toBeTruthy();
    });

    it('choosing a person lists only their records (GET ?person=) and keeps the choice in the address', async () => {
      const { calls } = servePeople();
      const user = userEvent.setup();
      const { router } = renderPage();
      await user.selectOptions(await screen.findByRole('combobox', { name: 'Person' }), 'mia');
      await waitFor(() => expect(cardNames()).toEqual(['Vaccination card']));
      expect(calls.some((c) => c.url === '/api/user/files?person=mia')).toBe(true);
      expect(router.state.location.search).toBe('?person=mia');
    });

    it("a viewer's shared records can be opened but not renamed or deleted", async () => {
      servePeople();
      renderPage();
      const card = await screen.findByRole('article', { name: 'Eye test' });
      expect(within(card).getByRole('link', { name: 'View Document' })).toBeTruthy();
      expect(within(card).queryByRole('button', { name: /Rename/ })).toBeNull();
      expect(within(card).queryByRole('button', { name: /Delete/ })).toBeNull();
      expect(
        within(screen.getByRole('article', { name: 'Vaccination card' })).getByRole('button', { name: 'Delete Vaccination card' }),
      ).toBeTruthy();
    });

    it('with nobody but yourself there is no person filter and no person on the cards', async () => {
      serve((call) => (call.url === '/api/user/people' ? json([people[0]]) : undefined));
      renderPage();
      await waitFor(() => expect(cardNames()).toHaveLength(3));
      expect(screen.queryByRole('combobox', { name: 'Person' })).toBeNull();
      expect(screen.queryByText('Person')).toBeNull();
    });
  });
});

describe('View Records: text read from files (issue 33)', () => {
  const reading = makeMedicalFile('r', 'Fresh scan', {
    text_status: 'processing',
    text_pages: null,
    created_at: '2024-06-01T10:00:00.000Z',
  });
  const unreadable = makeMedicalFile('u', 'Heart scan', {
    file_type: 'application/dicom',
    text_status: 'unsupported',
    text_reason: 'This file type is not searchable.',
  });
  const suggested = makeMedicalFile('s', 'Discharge letter', {
    record_date: '2024-01-01T10:00:00.000Z',
    suggestion: { record_date: '2024-03-12', provider_name: 'Dr. Ana Ruiz', visit_reason: 'Persistent cough' },
  });

  it('says "Reading text…" while a file is read, nothing once read, and why a file is not read', async () => {
    serve((call) => (call.url === '/api/user/files' ? json([reading, unreadable, records[0]]) : undefined));
    renderPage();
    const card = await screen.findByRole('article', { name: 'Fresh scan' });
    expect(within(card).getByRole('status').textContent).toBe('Reading text…');
    expect(within(screen.getByRole('article', { name: 'Heart scan' })).getByRole('status').textContent).toBe(
      'This file type is not searchable.',
    );
    expect(within(screen.getByRole('article', { name: 'Blood work' })).getByRole('status').textContent).toBe('');
  });

  it('offers "Lab results" on a record whose text is read, and not before', async () => {
    serve((call) => (call.url === '/api/user/files' ? json([reading, unreadable, records[0]]) : undefined));
    renderPage();
    const card = await screen.findByRole('article', { name: 'Blood work' });
    const link = within(card).getByRole('link', { name: 'Lab results' });
    expect(link.getAttribute('href')).toBe('/view-records/a/lab-results');
    expect(within(screen.getByRole('article', { name: 'Fresh scan' })).queryByRole('link', { name: 'Lab results' })).toBeNull();
    expect(within(screen.getByRole('article', { name: 'Heart scan' })).queryByRole('link', { name: 'Lab results' })).toBeNull();
  });

  it('asks again while a text is being read, and shows it read', async () => {
    let answer = [reading];
    const { calls } = serve((call) => (call.url === '/api/user/files' ? json(answer) : undefined));
    renderPage();
    const card = await screen.findByRole('article', { name: 'Fresh scan' });
    expect(within(card).getByRole('status').textContent).toBe('Reading text…');
    answer = [{ ...reading, text_status: 'done', text_pages: 2 }];
    await waitFor(() => expect(within(card).getByRole('status').textContent).toBe(''), { timeout: 5000 });
    const asked = calls.filter((c) => c.url === '/api/user/files').length;
    expect(asked).toBeGreaterThanOrEqual(2);
  });

  it('shows a suggestion that an editor applies: the card takes its date, provider and reason', async () => {
    const user = userEvent.setup();
    const applied = {
      ...suggested,
      record_date: '2024-03-12',
      provider_name: 'Dr. Ana Ruiz',
      visit_reason: 'Persistent cough',
      record_details: { provider_name: 'Dr. Ana Ruiz', visit_location: null, visit_reason: 'Persistent cough' },
      suggestion: null,
    };
    let list = [suggested];
    const { calls } = serve((call) => {
      if (call.method === 'POST' && call.url === '/api/user/files/s/suggestion/apply') {
        list = [applied];
        return json(applied);
      }
      return call.url === '/api/user/files' ? json(list) : undefined;
    });
    renderPage();
    const card = await screen.findByRole('article', { name: 'Discharge letter' });
    expect(
      within(card).getByText(/Mar 12, 2024 · Dr\. Ana Ruiz · Persistent cough|12 Mar 2024 · Dr\. Ana Ruiz · Persistent cough/),
    ).toBeTruthy();
    // Nothing is applied by itself.
    expect(within(card).queryByText('Dr. Ana Ruiz', { selector: 'dd' })).toBeNull();
    await user.click(within(card).getByRole('button', { name: 'Apply suggestion to Discharge letter' }));
    await waitFor(() => expect(within(card).queryByText('Suggested:')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({});
    expect(within(card).getByText('Dr. Ana Ruiz')).toBeTruthy();
    expect(within(card).getByText('Persistent cough')).toBeTruthy();
    expect(document.activeElement).toBe(within(card).getByRole('button', { name: 'Rename Discharge letter' }));
  });

  it('an editor dismisses a suggestion and the record stays as it was', async () => {
    const user = userEvent.setup();
    let list = [suggested];
    const { calls } = serve((call) => {
      if (call.method === 'DELETE' && call.url === '/api/user/files/s/suggestion') {
        list = [{ ...suggested, suggestion: null }];
        return empty();
      }
      return call.url === '/api/user/files' ? json(list) : undefined;
    });
    renderPage();
    const card = await screen.findByRole('article', { name: 'Discharge letter' });
    await user.click(within(card).getByRole('button', { name: 'Dismiss suggestion for Discharge letter' }));
    await waitFor(() => expect(within(card).queryByText('Suggested:')).toBeNull());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(within(card).queryByText('Dr. Ana Ruiz')).toBeNull();
  });

  it('applying a suggestion that is already gone (applied from another device) says why', async () => {
    const user = userEvent.setup();
    serve((call) => {
      if (call.method === 'POST') return json({ message: 'This file has no suggestion' }, 404);
      return call.url === '/api/user/files' ? json([suggested]) : undefined;
    });
    renderPage();
    const card = await screen.findByRole('article', { name: 'Discharge letter' });
    await user.click(within(card).getByRole('button', { name: 'Apply suggestion to Discharge letter' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('This file has no suggestion'));
    expect(within(card).getByRole('button', { name: 'Apply suggestion to Discharge letter' })).toHaveProperty('disabled', false);
  });

  it('a viewer of a shared person sees no suggestion', async () => {
    const people = [
      makeSelf('person-self', { name: 'Pat Example' }),
      makeSharedPerson('joe', { name: 'Grandpa Joe', shared_by: 'sam', role: 'viewer' }),
    ];
    serve((call) => {
      if (call.url === '/api/user/people') return json(people);
      return call.url === '/api/user/files' ? json([{ ...suggested, person_id: 'joe', person_name: 'Grandpa Joe' }]) : undefined;
    });
    renderPage();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Person' })).toBeTruthy());
    const card = await screen.findByRole('article', { name: 'Discharge letter' });
    expect(within(card).queryByText('Suggested:')).toBeNull();
    expect(within(card).queryByRole('button', { name: /Apply/ })).toBeNull();
  });

  it("'Search files...' also finds files by their text, showing the matching line and its page", async () => {
    const user = userEvent.setup();
    const { calls } = serve((call) => {
      if (call.url.startsWith('/api/user/search?q=adams')) return json({ results: [], next_cursor: null });
      if (call.url.startsWith('/api/user/search?q=ferritin')) {
        return json({
          results: [
            {
              kind: 'file',
              id: 'b',
              person_id: 'person-self',
              person_name: 'Pat Example',
              title: 'Chest X-ray',
              date: '2023-11-20',
              snippet: '…serum ferritin 12 ng/mL, low…',
              highlights: [[7, 15]],
              page: 2,
              url: '/api/user/files/b/content',
            },
          ],
          next_cursor: null,
        });
      }
      return undefined;
    });
    renderPage();
    await waitFor(() => expect(cardNames()).toHaveLength(3));
    await user.type(screen.getByLabelText('Search'), 'ferritin');
    await waitFor(() => expect(cardNames()).toEqual(['Chest X-ray']));
    // Asked once, after typing paused: not once per keystroke.
    const search = calls.filter((c) => c.url.startsWith('/api/user/search?'));
    expect(search).toHaveLength(1);
    expect(Object.fromEntries(new URL(search[0]!.url, 'http://x').searchParams)).toEqual({ q: 'ferritin', kind: 'file', limit: '50' });
    const card = screen.getByRole('article', { name: 'Chest X-ray' });
    expect(within(card).getByText('Page 2')).toBeTruthy();
    expect(within(card).getByText('ferritin', { selector: 'mark' })).toBeTruthy();
    expect(screen.getByText('Showing 1 of 3 records')).toBeTruthy();
    // A name match keeps its card without a matching line.
    await user.clear(screen.getByLabelText('Search'));
    await user.type(screen.getByLabelText('Search'), 'adams');
    await waitFor(() => expect(cardNames()).toEqual(['Blood work']));
    expect(within(screen.getByRole('article', { name: 'Blood work' })).queryByText(/^Page /)).toBeNull();
  });
});
