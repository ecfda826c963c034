import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileLabResults, FoundLabResult } from '@kinchart/shared/labs';
import type { Person } from '@kinchart/shared/people';
import { makeSelf, makeSharedPerson } from '../../../../test/people';
import { Landmark, json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { notify } from '../../../lib/toast';
import { makeMedicalFile } from '../../files/testing/fixtures';
import { LabReviewPage } from './lab-review-page';

vi.mock('../../../lib/toast');

const SELF = makeSelf('self-1');
const GRANDPA = makeSharedPerson('shared-1', { name: 'Grandpa Joe', role: 'viewer' });
const REPORT = makeMedicalFile('f1', 'Lab report March', { person_id: 'self-1', text_pages: 2 });
const GRANDPAS = makeMedicalFile('f2', 'Grandpa labs', { person_id: 'shared-1' });

const PAGE_1 = [
  'City Lab',
  'Collected: 2026-03-04',
  'Hemoglobin   13.1 g/dL   12.0-16.0',
  'Ferritin   12 ng/mL   30-400   L',
  'Zonulin   61 ng/mL   < 55',
].join('\n');
const PAGE_2 = ['Page 2', 'HbA1c   6.1 %   4.0-5.6   H'].join('\n');

function row(overrides: Partial<FoundLabResult>): FoundLabResult {
  return {
    name: 'Hemoglobin',
    loinc: '718-7',
    loinc_display: 'Hemoglobin [Mass/volume] in Blood',
    value: 13.1,
    unit: 'g/dL',
    ucum_unit: 'g/dL',
    reference_low: 12,
    reference_high: 16,
    reference_text: null,
    flag: null,
    date: '2026-03-04',
    page: 1,
    line: 2,
    source_text: 'Hemoglobin   13.1 g/dL   12.0-16.0',
    ...overrides,
  };
}

const ROWS: FoundLabResult[] = [
  row({}),
  row({
    name: 'Ferritin',
    loinc: '2276-4',
    loinc_display: 'Ferritin [Mass/volume] in Serum or Plasma',
    value: 12,
    unit: 'ng/mL',
    ucum_unit: 'ng/mL',
    reference_low: 30,
    reference_high: 400,
    flag: 'L',
    line: 3,
    source_text: 'Ferritin   12 ng/mL   30-400   L',
  }),
  row({
    name: 'Zonulin',
    loinc: null,
    loinc_display: null,
    value: 61,
    unit: 'ng/mL',
    ucum_unit: 'ng/mL',
    reference_low: null,
    reference_high: 55,
    line: 4,
    source_text: 'Zonulin   61 ng/mL   < 55',
  }),
  row({
    name: 'HbA1c',
    loinc: '4548-4',
    loinc_display: 'Hemoglobin A1c/Hemoglobin.total in Blood',
    value: 6.1,
    unit: '%',
    ucum_unit: '%',
    reference_low: 4,
    reference_high: 5.6,
    flag: 'H',
    page: 2,
    line: 1,
    source_text: 'HbA1c   6.1 %   4.0-5.6   H',
  }),
];

type Route = (call: FetchCall) => Response | undefined;

function serve(found: FileLabResults | (() => FileLabResults), route: Route = () => undefined, people: Person[] = [SELF, GRANDPA]) {
  return mockFetch((call) => {
    const answer = route(call);
    if (answer) return answer;
    if (call.url === '/api/user/people') return json(people);
    if (call.url === '/api/user/files') return json([REPORT, GRANDPAS]);
    if (/^\/api\/user\/files\/f[12]\/lab-results$/.test(call.url)) return json(typeof found === 'function' ? found() : found);
    if (/^\/api\/user\/files\/f[12]\/text$/.test(call.url))
      return json({
        text_status: 'done',
        pages: [
          { page: 1, text: PAGE_1 },
          { page: 2, text: PAGE_2 },
        ],
      });
    return json({ message: 'Not found' }, 404);
  });
}

function renderPage(fileId = 'f1') {
  return renderRoutes(
    [
      { path: '/view-records/:fileId/lab-results', element: <LabReviewPage /> },
      { path: '/health-records/:personId', element: <Landmark name="Health records" /> },
    ],
    `/view-records/${fileId}/lab-results`,
  );
}

const rowsList = () => screen.getByRole('list', { name: 'Results found' });
const rowOf = (name: string) => within(rowsList()).getByRole('listitem', { name });
const highlighted = () => document.querySelector('mark')?.textContent;

beforeEach(() => {
  vi.mocked(notify.success).mockClear();
});

describe('lab results review', () => {
  it('says how many results were found and lists them with their test, range, flag and date', async () => {
    serve({ status: 'done', results: ROWS });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'We found 4 results in this report' })).toBeTruthy();
    expect(screen.getByText(/Found in “Lab report March”/)).toBeTruthy();
    const ferritin = rowOf('Ferritin');
    expect(within(ferritin).getByText('12 ng/mL')).toBeTruthy();
    expect(within(ferritin).getByText('Range 30–400')).toBeTruthy();
    expect(within(ferritin).getByText('Low')).toBeTruthy();
    expect(within(ferritin).getByText('Mar 4, 2026')).toBeTruthy();
    expect(within(ferritin).getByText('LOINC 2276-4 · Ferritin [Mass/volume] in Serum or Plasma')).toBeTruthy();
    expect(within(rowOf('Zonulin')).getByText('Not matched')).toBeTruthy();
    expect(within(rowOf('Zonulin')).getByText('Range < 55')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add 4 results' })).toBeTruthy();
  });

  it('one result and none read in the singular and as nothing found', async () => {
    serve({ status: 'done', results: [ROWS[0]!] });
    const first = renderPage();
    expect(await screen.findByRole('heading', { name: 'We found 1 result in this report' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add 1 result' })).toBeTruthy();
    first.unmount();

    serve({ status: 'none', results: [] });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'We found no lab results in this report' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Add/ })).toBeNull();
  });

  it('says "Reading text…" while the text is read and shows the rows once they are found', async () => {
    let answer: FileLabResults = { status: 'pending', results: [] };
    serve(() => answer);
    const { queryClient } = renderPage();
    const status = await screen.findByRole('heading', { name: 'Reading text…' });
    expect(status.closest('[role="status"]')).toBeTruthy();
    answer = { status: 'done', results: ROWS };
    // The poll's own timer is not waited for: the same query is asked again, as the interval would.
    await queryClient.refetchQueries({ queryKey: ['files', 'f1', 'lab-results'] });
    expect(await screen.findByRole('heading', { name: 'We found 4 results in this report' })).toBeTruthy();
  });

  it('leaving a row out changes the button, and only the included rows are added', async () => {
    const user = userEvent.setup();
    const { calls } = serve({ status: 'done', results: ROWS }, (call) =>
      call.method === 'POST' ? json({ created: 2, already_present: 1 }, 201) : undefined,
    );
    const { router } = renderPage();
    await user.click(await screen.findByRole('checkbox', { name: 'Include Zonulin' }));
    expect(screen.getByRole('button', { name: 'Add 3 results' })).toBeTruthy();
    expect(within(rowOf('Zonulin')).getByText('Left out')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add 3 results' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/health-records/self-1'));
    expect(router.state.location.search).toBe('?tab=lab-results');
    expect(notify.success).toHaveBeenCalledWith('2 results added (1 already present)');
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/user/files/f1/lab-results/accept');
    expect((post?.body as { results: FoundLabResult[] }).results).toEqual([ROWS[0], ROWS[1], ROWS[3]]);
  });

  it('an edited row is sent as corrected: value with a decimal comma, range, flag and date', async () => {
    const user = userEvent.setup();
    const { calls } = serve({ status: 'done', results: [ROWS[1]!] }, (call) =>
      call.method === 'POST' ? json({ created: 1, already_present: 0 }, 201) : undefined,
    );
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Edit Ferritin' }));
    const value = screen.getByLabelText('Value');
    await user.clear(value);
    await user.type(value, '21,5');
    await user.clear(screen.getByLabelText('Reference low'));
    await user.type(screen.getByLabelText('Reference low'), '15');
    await user.selectOptions(screen.getByLabelText('Flag'), 'None');
    await user.clear(screen.getByLabelText('Date'));
    await user.type(screen.getByLabelText('Date'), '2026-03-05');
    await user.click(screen.getByRole('button', { name: 'Add 1 result' }));

    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('1 result added'));
    const sent = (calls.find((c) => c.method === 'POST')?.body as { results: FoundLabResult[] }).results;
    expect(sent).toEqual([{ ...ROWS[1], value: 21.5, reference_low: 15, flag: null, date: '2026-03-05' }]);
  });

  it('a row missing its value is not sent: the field says why and has the cursor', async () => {
    const user = userEvent.setup();
    const { calls } = serve({ status: 'done', results: ROWS });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Edit Hemoglobin' }));
    await user.clear(screen.getByLabelText('Value'));
    await user.click(screen.getByRole('button', { name: 'Done Hemoglobin' }));
    await user.click(screen.getByRole('button', { name: 'Add 4 results' }));

    const value = await screen.findByLabelText('Value');
    await waitFor(() => expect(document.activeElement).toBe(value));
    expect(value.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter the value')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("maps an unmatched name by searching the table, and sends the test's code", async () => {
    const user = userEvent.setup();
    const { calls } = serve({ status: 'done', results: [ROWS[2]!] }, (call) => {
      if (call.url.startsWith('/api/user/lab-tests?')) {
        return json({
          tests: [
            { loinc: '2276-4', name: 'Ferritin [Mass/volume] in Serum or Plasma', ucum_unit: 'ng/mL' },
            { loinc: '14723-1', name: 'Zinc [Moles/volume] in Serum or Plasma', ucum_unit: 'umol/L' },
          ],
        });
      }
      return call.method === 'POST' ? json({ created: 1, already_present: 0 }, 201) : undefined;
    });
    renderPage();
    // "Find the test" beside "Not matched" opens the row with the cursor in the table's search.
    await user.click(await screen.findByRole('button', { name: 'Find the test Zonulin' }));
    const box = screen.getByRole('combobox', { name: 'Match to a test in the table' });
    await waitFor(() => expect(document.activeElement).toBe(box));
    await user.type(box, 'zin');
    await screen.findByRole('option', { name: /Zinc \[Moles\/volume\]/ });
    expect(calls.some((c) => c.url === '/api/user/lab-tests?q=zin')).toBe(true);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: /Zinc/ }).id);
    await user.keyboard('{Enter}');

    expect(within(rowOf('Zonulin')).getByText('LOINC 14723-1 · Zinc [Moles/volume] in Serum or Plasma')).toBeTruthy();
    expect(within(rowOf('Zonulin')).queryByText('Not matched')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add 1 result' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const sent = (calls.find((c) => c.method === 'POST')?.body as { results: FoundLabResult[] }).results[0];
    expect(sent).toMatchObject({ name: 'Zonulin', loinc: '14723-1', loinc_display: 'Zinc [Moles/volume] in Serum or Plasma' });
  });

  it('highlights the line of the row in focus in its page', async () => {
    const user = userEvent.setup();
    serve({ status: 'done', results: ROWS });
    renderPage();
    await screen.findByRole('heading', { name: 'Page 1 of the report' });
    await waitFor(() => expect(highlighted()).toBe('Hemoglobin   13.1 g/dL   12.0-16.0'));
    await user.click(screen.getByRole('checkbox', { name: 'Include Ferritin' }));
    expect(highlighted()).toBe('Ferritin   12 ng/mL   30-400   L');
    // Focus by keyboard moves it too, to another page when the row is there.
    await user.tab();
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Include Zonulin' }));
    expect(highlighted()).toBe('Zonulin   61 ng/mL   < 55');
    await user.click(screen.getByRole('button', { name: 'Show on page 2 (HbA1c)' }));
    expect(screen.getByRole('heading', { name: 'Page 2 of the report' })).toBeTruthy();
    expect(highlighted()).toBe('HbA1c   6.1 %   4.0-5.6   H');
  });

  it('a 400 from the server is shown at the form and takes the focus', async () => {
    const user = userEvent.setup();
    serve({ status: 'done', results: ROWS }, (call) =>
      call.method === 'POST' ? json({ message: 'results.0.unit must be at most 50 characters' }, 400) : undefined,
    );
    const { router } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add 4 results' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('results.0.unit must be at most 50 characters');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(router.state.location.pathname).toBe('/view-records/f1/lab-results');
  });

  it('a viewer sees the rows read-only, without Include, Edit or the button', async () => {
    serve({ status: 'done', results: ROWS });
    renderPage('f2');
    expect(await screen.findByRole('heading', { name: 'We found 4 results in this report' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('You can see these results; only an editor of this person can add them.')).toBeTruthy());
    expect(within(rowOf('Ferritin')).getByText('12 ng/mL')).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Add/ })).toBeNull();
  });
});
