import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Trend } from '../utils/lab-groups';
import type { Person } from '@kinchart/shared/people';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../../test/people';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { setSelectedPersonId } from '../../../lib/selected-person';
import { notify } from '../../../lib/toast';
import { makeMedicalFile } from '../../files/testing/fixtures';
import { makeCondition, makeImmunization, makeLabResult, makeProcedure } from '../testing/fixtures';
import { HealthRecordsPage } from './health-records-page';

vi.mock('../../../lib/toast');
// jsdom has no canvas: the chart's drawing is replaced; everything around it (its name, key and table) is real.
vi.mock('../components/trend-canvas', () => ({
  default: ({ trend }: { trend: Trend }) => <canvas data-testid="trend-canvas" data-points={trend.points.length} />,
}));

type Route = (call: FetchCall) => Response | undefined;

const SELF = makeSelf('self-1');
const CHILD = makeFamilyPerson('child-1', { name: 'Mia Rivera' });
const GRANDPA = makeSharedPerson('shared-1', { name: 'Grandpa Joe', role: 'viewer' });

/** The people list, each kind's list for every person (empty unless given), then `route`; 404 otherwise. */
function serve(lists: Partial<Record<string, unknown[]>> = {}, route: Route = () => undefined, people: Person[] = [SELF, CHILD, GRANDPA]) {
  return mockFetch((call) => {
    const answer = route(call);
    if (answer) return answer;
    if (call.url === '/api/user/people') return json(people);
    const list = /^\/api\/user\/people\/[^/]+\/(immunizations|lab-results|conditions|procedures)$/.exec(call.url);
    if (list && call.method === 'GET') return json(lists[list[1] ?? ''] ?? []);
    return json({ message: 'Not found' }, 404);
  });
}

function renderPage(path = '/health-records/self-1') {
  return renderRoutes([{ path: '/health-records/:personId?', element: <HealthRecordsPage /> }], path);
}

const panel = () => screen.getByRole('tabpanel');

beforeEach(() => {
  vi.mocked(notify.success).mockClear();
  setSelectedPersonId(null);
});

describe('health records page', () => {
  it('opens on yourself without a person in the address, with a person choice and the five sections', async () => {
    serve({ immunizations: [makeImmunization({ codings: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '03', display: 'MMR' }] })] });
    const { router } = renderPage('/health-records');
    await screen.findByRole('tabpanel');
    expect(await screen.findByRole('heading', { level: 1, name: 'Health records' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/health-records/self-1'));
    expect(screen.getByRole('tablist', { name: 'Health records' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Immunizations',
      'Lab results & vitals',
      'Conditions',
      'Allergies',
      'Procedures',
    ]);
    expect(screen.getByLabelText<HTMLSelectElement>('Person').value).toBe('self-1');

    const card = await within(panel()).findByRole('article', { name: 'MMR' });
    // Dates as they were given, and the coding kept discreetly.
    for (const text of ['2019-05', '1', 'AB123', 'Left arm', 'Dr Lee', 'CVX 03']) expect(within(card).getByText(text)).toBeTruthy();
    expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Edit MMR', 'Delete MMR']);
    expect(within(panel()).getByRole('button', { name: 'Print vaccination record' })).toBeTruthy();
  });

  it('opens the person the dashboard chose, and says so when a person in the address cannot be seen', async () => {
    serve();
    setSelectedPersonId('child-1');
    const { router } = renderPage('/health-records');
    await waitFor(() => expect(router.state.location.pathname).toBe('/health-records/child-1'));
    await router.navigate('/health-records/gone-1');
    expect(await screen.findByText('This person is not among the people you can see.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open your own health records' }).getAttribute('href')).toBe('/health-records/self-1');
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  it("checks the add form with the shared schema before sending, then sends it and shows the server's message", async () => {
    const { calls } = serve({}, (call) =>
      call.method === 'POST' && call.url === '/api/user/people/child-1/immunizations'
        ? json({ ...makeImmunization({ id: 'new', vaccine: 'Polio' }), message: 'Immunization added successfully!' }, 201)
        : undefined,
    );
    const user = userEvent.setup();
    renderPage('/health-records/child-1');
    await screen.findByRole('tabpanel');
    await user.click(await within(panel()).findByRole('button', { name: 'Add immunization' }));
    const dialog = screen.getByRole('dialog', { name: 'Add immunization' });

    await user.type(within(dialog).getByLabelText('Date'), '2019-13');
    await user.type(within(dialog).getByLabelText('Dose number'), '1.5');
    await user.click(within(dialog).getByRole('button', { name: 'Add immunization' }));
    expect(await within(dialog).findByText('Vaccine is required')).toBeTruthy();
    expect(within(dialog).getByText('Date must be a date as YYYY, YYYY-MM or YYYY-MM-DD')).toBeTruthy();
    expect(within(dialog).getByText('Dose number must be a whole number')).toBeTruthy();
    expect(within(dialog).getByLabelText('Vaccine').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText('Vaccine'), 'Polio (IPV)');
    await user.clear(within(dialog).getByLabelText('Date'));
    await user.type(within(dialog).getByLabelText('Date'), '2016-02');
    await user.clear(within(dialog).getByLabelText('Dose number'));
    await user.type(within(dialog).getByLabelText('Dose number'), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Add immunization' }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Immunization added successfully!'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      vaccine: 'Polio (IPV)',
      date: '2016-02',
      dose_number: 2,
      lot_number: null,
      site: null,
      performer: null,
      notes: null,
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a condition in remission as "In remission", never as resolved, and offers that status by the same name', async () => {
    serve({
      conditions: [
        makeCondition({ id: 'c1', name: 'Leukemia', status: 'remission', onset_date: '2019', abatement_date: '2022-05' }),
        makeCondition({ id: 'c2', name: 'Pneumonia', status: 'resolved', onset_date: '2020', abatement_date: '2020-03' }),
      ],
    });
    const user = userEvent.setup();
    renderPage('/health-records/self-1?tab=conditions');
    await screen.findByRole('tabpanel');
    const leukemia = await within(panel()).findByRole('article', { name: 'Leukemia' });
    expect(within(leukemia).getByText('In remission')).toBeTruthy();
    expect(within(leukemia).getByText('In remission since')).toBeTruthy();
    expect(within(leukemia).queryByText(/resolved/i)).toBeNull();
    const pneumonia = within(panel()).getByRole('article', { name: 'Pneumonia' });
    expect(within(pneumonia).getAllByText('Resolved')).toHaveLength(2);
    await user.click(within(panel()).getByRole('button', { name: 'Add condition' }));
    const options = Array.from(
      within(screen.getByRole('dialog', { name: 'Add condition' })).getByLabelText<HTMLSelectElement>('Status').options,
    ).map((o) => o.textContent);
    expect(options).toEqual(['Active', 'Recurrence', 'Relapse', 'Inactive', 'In remission', 'Resolved']);
  });

  it("shows the server's message in the dialog when it refuses", async () => {
    serve({}, (call) => (call.method === 'POST' ? json({ message: 'A person can have at most 2000 conditions.' }, 400) : undefined));
    const user = userEvent.setup();
    renderPage('/health-records/self-1?tab=conditions');
    await screen.findByRole('tabpanel');
    await user.click(await within(panel()).findByRole('button', { name: 'Add condition' }));
    const dialog = screen.getByRole('dialog', { name: 'Add condition' });
    await user.type(within(dialog).getByLabelText('Condition'), 'Asthma');
    await user.click(within(dialog).getByRole('button', { name: 'Add condition' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('A person can have at most 2000 conditions.');
    expect(notify.success).not.toHaveBeenCalled();
  });

  it("edits with the item's values and deletes after asking, each time with the server's message", async () => {
    const { calls } = serve({ procedures: [makeProcedure()] }, (call) => {
      if (call.method === 'PUT') return json({ ...makeProcedure({ performer: 'St Mary' }), message: 'Procedure updated successfully!' });
      if (call.method === 'DELETE') return json({ message: 'Procedure deleted successfully' });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage('/health-records/self-1?tab=procedures');
    await screen.findByRole('tabpanel');
    const card = await within(panel()).findByRole('article', { name: 'Appendectomy' });
    expect(within(card).getByText('Completed')).toBeTruthy();

    await user.click(within(card).getByRole('button', { name: 'Edit Appendectomy' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit procedure' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Performed date').value).toBe('2010-07-03');
    await user.clear(within(dialog).getByLabelText('Performer'));
    await user.type(within(dialog).getByLabelText('Performer'), 'St Mary');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Procedure updated successfully!'));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/user/people/self-1/procedures/proc-1');
    // Codings are not sent, so the server keeps them.
    expect(put?.body).toEqual({
      name: 'Appendectomy',
      status: 'completed',
      performed_date: '2010-07-03',
      performer: 'St Mary',
      notes: null,
    });

    await user.click(
      within(await within(panel()).findByRole('article', { name: 'Appendectomy' })).getByRole('button', { name: 'Delete Appendectomy' }),
    );
    const confirm = screen.getByRole('alertdialog', { name: 'Delete procedure' });
    expect(
      within(confirm).getByText('Are you sure you want to delete Appendectomy (2010-07-03)? This action cannot be undone.'),
    ).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Procedure deleted successfully'));
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/user/people/self-1/procedures/proc-1');
  });

  it('a viewer of a shared person reads and prints but gets no add, edit or delete', async () => {
    serve({ immunizations: [makeImmunization()], conditions: [makeCondition()], 'lab-results': [makeLabResult()] });
    const user = userEvent.setup();
    renderPage('/health-records/shared-1');
    await screen.findByRole('tabpanel');
    expect(await screen.findByText('Shared by sam')).toBeTruthy();
    expect(screen.getByText("View only: you can see Grandpa Joe's health records but not change them.")).toBeTruthy();
    const card = await within(panel()).findByRole('article', { name: 'MMR' });
    expect(within(card).queryByRole('button')).toBeNull();
    expect(
      within(panel())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Print vaccination record']);

    for (const tab of ['Lab results & vitals', 'Conditions', 'Procedures']) {
      await user.click(screen.getByRole('tab', { name: tab }));
      await waitFor(() => expect(within(panel()).queryByText(/^Loading/)).toBeNull());
      expect(within(panel()).queryByRole('button', { name: /^(Add|Edit|Delete)/ })).toBeNull();
    }
  });

  it('groups lab results by test, marks out-of-range values with an icon and words, and charts a test with two values', async () => {
    serve({
      'lab-results': [
        makeLabResult({ id: 'l3', value: 6.4, date: '2024-02-10', out_of_range: true }),
        makeLabResult({
          id: 'g1',
          name: 'Glucose',
          loinc_code: null,
          value: 92,
          unit: 'mg/dL',
          reference_low: 70,
          reference_high: 99,
          date: '2024-01-05',
        }),
        makeLabResult({ id: 'l2', value: 5.6, date: '2023-06' }),
        makeLabResult({ id: 'l1', value: 5.1, date: '2022' }),
      ],
    });
    renderPage('/health-records/self-1?tab=lab-results');
    await screen.findByRole('tabpanel');
    const groups = await within(panel()).findAllByRole('article');
    expect(groups.map((g) => within(g).getByRole('heading').textContent)).toEqual(['HbA1c', 'Glucose']);
    const hba1c = groups[0] as HTMLElement;
    expect(within(hba1c).getByText('LOINC 4548-4 · 3 results')).toBeTruthy();

    // In the list: newest first, the out-of-range one in words beside its icon.
    const rows = within(within(hba1c).getByRole('list', { name: 'HbA1c results, newest first' })).getAllByRole('listitem');
    // Dates as people read them, the given date kept for machines.
    expect(rows.map((r) => [r.querySelector('time')?.textContent, r.querySelector('time')?.getAttribute('datetime')])).toEqual([
      ['Feb 10, 2024', '2024-02-10'],
      ['Jun 2023', '2023-06'],
      ['2022', '2022'],
    ]);
    expect(within(rows[0] as HTMLElement).getByText('6.4 %')).toBeTruthy();
    const marker = within(rows[0] as HTMLElement).getByText('Out of range (High)');
    expect(marker.querySelector('svg')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).queryByText(/Out of range/)).toBeNull();

    // The chart: named for screen readers, with its values in a table.
    const chart = within(hba1c).getByRole('img', {
      name: 'Trend of HbA1c: 3 values from 2022 to Feb 10, 2024, latest 6.4 %, 1 out of range.',
    });
    expect((await within(chart).findByTestId('trend-canvas')).getAttribute('data-points')).toBe('3');
    expect(within(hba1c).getByRole('figure', { name: 'HbA1c over time (%)' })).toBeTruthy();
    const table = within(hba1c).getByRole('table', { name: 'HbA1c values, oldest first' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Date', 'Value', 'Unit', 'Reference range', 'Flag']);
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      ['2022', '5.1', '%', '4–5.6', 'Within range'],
      ['Jun 2023', '5.6', '%', '4–5.6', 'Within range'],
      ['Feb 10, 2024', '6.4', '%', '4–5.6', 'Out of range (High)'],
    ]);

    // One value is no trend.
    expect(within(groups[1] as HTMLElement).queryByRole('img')).toBeNull();
  });

  it("a result read from a report is charted in the test's unit and links back to the report's page", async () => {
    const fromReport = {
      ...makeLabResult({
        id: 'b',
        name: 'Glukose',
        loinc_code: '2345-7',
        value: 5.5,
        unit: 'mmol/L',
        date: '2024-03-01',
        reference_low: 3.9,
        reference_high: 5.5,
      }),
      source_file_id: 'f1',
      source_page: 2,
      trend: { value: 99.1, unit: 'mg/dL', reference_low: 70.3, reference_high: 99.1 },
    };
    const typed = makeLabResult({
      id: 'a',
      name: 'Glucose',
      loinc_code: '2345-7',
      value: 92,
      unit: 'mg/dL',
      date: '2023-03-01',
      reference_low: 70,
      reference_high: 99,
    });
    serve({ 'lab-results': [fromReport, typed] }, (call) =>
      call.url === '/api/user/files' ? json([makeMedicalFile('f1', 'Lab report March', { person_id: 'self-1' })]) : undefined,
    );
    renderPage('/health-records/self-1?tab=lab-results');
    const group = await within(await screen.findByRole('tabpanel')).findByRole('article', { name: 'Glukose' });
    // mg/dL and mmol/L on one line: the report's value came converted.
    expect(within(group).getAllByRole('figure')).toHaveLength(1);
    expect(within(group).getByRole('figure', { name: 'Glukose over time (mg/dL)' })).toBeTruthy();
    const rows = within(within(group).getByRole('list', { name: 'Glukose results, newest first' })).getAllByRole('listitem');
    const link = await within(rows[0] as HTMLElement).findByRole('link', { name: 'From Lab report March, page 2 (opens in a new tab)' });
    expect(link.getAttribute('href')).toBe('/api/user/files/f1/content#page=2');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(within(rows[1] as HTMLElement).queryByRole('link')).toBeNull();
    const table = within(group).getByRole('table', { name: 'Glukose values, oldest first' });
    const newest = within(table).getAllByRole('row')[2] as HTMLElement;
    expect(within(newest).getByText('reported as 5.5 mmol/L')).toBeTruthy();
    expect(within(newest).getByRole('link', { name: 'From Lab report March, page 2 (opens in a new tab)' })).toBeTruthy();
  });

  it('a test measured in mg/dL and in mmol/L gets a chart per unit and a sentence saying why', async () => {
    serve({
      'lab-results': [
        makeLabResult({
          id: 'a',
          name: 'Glucose',
          loinc_code: null,
          value: 95,
          unit: 'mg/dL',
          date: '2024-03-01',
          reference_low: 70,
          reference_high: 99,
        }),
        makeLabResult({
          id: 'b',
          name: 'glucose',
          loinc_code: null,
          value: 5.9,
          unit: 'mmol/L',
          date: '2023-09-01',
          reference_low: 3.9,
          reference_high: 5.5,
        }),
        makeLabResult({
          id: 'c',
          name: 'Glucose',
          loinc_code: null,
          value: 101,
          unit: 'mg/dL',
          date: '2023-03-01',
          reference_low: 70,
          reference_high: 99,
        }),
        makeLabResult({
          id: 'd',
          name: 'GLUCOSE',
          loinc_code: null,
          value: 5.2,
          unit: 'mmol/L',
          date: '2022-03-01',
          reference_low: 3.9,
          reference_high: 5.5,
        }),
      ],
    });
    renderPage('/health-records/self-1?tab=lab-results');
    await screen.findByRole('tabpanel');
    const groups = await within(panel()).findAllByRole('article');
    expect(groups.map((g) => within(g).getByRole('heading').textContent)).toEqual(['Glucose']);
    const glucose = groups[0] as HTMLElement;
    expect(
      within(glucose).getByText(
        'These results were reported in different units (mg/dL and mmol/L). Values in different units cannot be compared on one line, so each unit is shown on its own.',
      ),
    ).toBeTruthy();
    expect(
      within(glucose)
        .getAllByRole('figure')
        .map((f) => f.getAttribute('aria-labelledby') && document.getElementById(f.getAttribute('aria-labelledby')!)?.textContent),
    ).toEqual(['Glucose over time (mg/dL)', 'Glucose over time (mmol/L)']);
  });

  it('the lab result date is a date field; a partial date from an import stays editable as text', async () => {
    serve({ 'lab-results': [makeLabResult({ id: 'old', date: '2023-06' })] });
    const user = userEvent.setup();
    renderPage('/health-records/self-1?tab=lab-results');
    await screen.findByRole('tabpanel');
    await user.click(await within(panel()).findByRole('button', { name: 'Add lab result' }));
    const add = screen.getByRole('dialog', { name: 'Add lab result' });
    expect(within(add).getByLabelText<HTMLInputElement>('Date').type).toBe('date');
    await user.click(within(add).getByRole('button', { name: 'Cancel' }));

    await user.click(await within(panel()).findByRole('button', { name: /^Edit HbA1c/ }));
    const edit = screen.getByRole('dialog', { name: 'Edit lab result' });
    const date = within(edit).getByLabelText<HTMLInputElement>('Date');
    expect(date.type).toBe('text');
    expect(date.value).toBe('2023-06');
  });

  it('prints the vaccination record as the server named it, and says why when it cannot', async () => {
    let fail = false;
    const { calls } = serve({}, (call) => {
      if (!call.url.endsWith('/immunizations.pdf')) return undefined;
      return fail
        ? json({ message: 'Person not found' }, 404)
        : new Response('%PDF-1.7', {
            status: 200,
            headers: {
              'Content-Type': 'application/pdf',
              'Content-Disposition': 'attachment; filename="vaccination-record-mia-rivera.pdf"',
            },
          });
    });
    const createObjectURL = vi.fn(() => 'blob:record');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const user = userEvent.setup();
    renderPage('/health-records/child-1');
    await screen.findByRole('tabpanel');

    await user.click(await within(panel()).findByRole('button', { name: 'Print vaccination record' }));
    await waitFor(() => expect(saved).toEqual(['vaccination-record-mia-rivera.pdf']));
    expect(calls.find((c) => c.url.endsWith('.pdf'))?.url).toBe('/api/user/people/child-1/immunizations.pdf');

    fail = true;
    await user.click(within(panel()).getByRole('button', { name: 'Print vaccination record' }));
    expect((await within(panel()).findByRole('alert')).textContent).toBe('Person not found');
    expect(saved).toHaveLength(1);
  });
});

describe('opened from a search result', () => {
  it('opens the tab holding the row the address names, and focuses that row', async () => {
    serve({ conditions: [makeCondition({ id: 'cond-7', name: 'Iron deficiency' })] });
    renderPage('/health-records/child-1#condition-cond-7');
    expect((await screen.findByRole('tab', { selected: true })).textContent).toBe('Conditions');
    const row = await within(panel()).findByRole('article', { name: 'Iron deficiency' });
    await waitFor(() => expect(document.activeElement).toBe(row.closest('li')));
    expect(row.closest('li')?.id).toBe('condition-cond-7');
  });

  it('a lab result opens Lab results & vitals', async () => {
    serve({ 'lab-results': [makeLabResult({ id: 'lab-3' })] });
    renderPage('/health-records/self-1#lab-result-lab-3');
    expect((await screen.findByRole('tab', { selected: true })).textContent).toBe('Lab results & vitals');
    await waitFor(() => expect(document.activeElement?.id).toBe('lab-result-lab-3'));
  });
});
