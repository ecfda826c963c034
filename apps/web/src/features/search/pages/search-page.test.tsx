import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SearchResponse, SearchResult } from '@kinchart/shared/search';
import { getSelectedPersonId, setSelectedPersonId } from '../../../lib/selected-person';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../../test/people';
import { Landmark, json, mockFetch, renderRoutes } from '../../../../test/utils';
import { SearchPage } from './search-page';

const people = [makeSelf('me', { name: 'Alice' }), makeFamilyPerson('kid', { name: 'Mia' }), makeSharedPerson('gran', { name: 'Rose' })];

function result(kind: SearchResult['kind'], id: string, personId: string, overrides: Partial<SearchResult> = {}): SearchResult {
  return {
    kind,
    id,
    person_id: personId,
    person_name: null,
    title: `Title ${id}`,
    date: null,
    snippet: '',
    highlights: [],
    url: `/prescriptions#medication-${id}`,
    ...overrides,
  };
}

const labReport = result('file', 'f1', 'kid', {
  title: 'Blood panel March',
  date: '2026-03-04',
  snippet: 'Ferritin 12 ng/mL (low); ferritin to be repeated',
  highlights: [
    [0, 8],
    [25, 33],
  ],
  page: 2,
  url: '/api/user/files/f1/content#page=2',
});
const ironMed = result('medication', 'm1', 'me', { title: 'Ferrous sulfate', snippet: 'for low ferritin', highlights: [[8, 16]] });
const anaemia = result('condition', 'c1', 'kid', { title: 'Iron deficiency', url: '/health-records/kid#condition-c1' });

/** Answers the people list and each search with `pages` in turn (by cursor), or `failure`. */
function api(pages: Record<string, SearchResponse>, failure?: { status: number; message: string }) {
  return mockFetch((call) => {
    const url = new URL(call.url, 'http://localhost');
    if (url.pathname === '/api/user/people') return json(people);
    if (url.pathname === '/api/user/search') {
      if (failure) return json({ message: failure.message }, failure.status);
      return json(pages[url.searchParams.get('cursor') ?? ''] ?? { results: [], next_cursor: null });
    }
    return json({ message: 'Not found' }, 404);
  });
}

function renderPage(path: string) {
  return renderRoutes(
    [
      { path: '/search', element: <SearchPage /> },
      { path: '/prescriptions', element: <Landmark name="Prescriptions" /> },
      { path: '/health-records/:personId', element: <Landmark name="Health records" /> },
    ],
    path,
  );
}

describe('search results', () => {
  it('groups the results by person and then by kind, with the matches marked', async () => {
    const { calls } = api({ '': { results: [labReport, ironMed, anaemia], next_cursor: null } });
    renderPage('/search?q=ferritin');

    const mia = await screen.findByRole('region', { name: 'Mia' });
    const alice = screen.getByRole('region', { name: 'Alice (you)' });
    // Mia's best result came first, so she does; her files before her conditions.
    expect(mia.compareDocumentPosition(alice) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(
      within(mia)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Files', 'Conditions']);
    expect(within(alice).getByRole('heading', { level: 3 }).textContent).toBe('Medications');

    const files = within(mia).getByRole('region', { name: 'Files' });
    expect(within(files).getByText('Page 2')).toBeTruthy();
    expect(within(files).getByText('Mar 4, 2026')).toBeTruthy();
    expect([...files.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Ferritin', 'ferritin']);
    const open = within(files).getByRole('link', { name: 'Blood panel March (opens in a new tab)' });
    expect(open.getAttribute('href')).toBe('/api/user/files/f1/content#page=2');
    expect(open.getAttribute('target')).toBe('_blank');

    expect([...alice.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['ferritin']);
    expect(document.title).toBe('Search: ferritin · Kinchart');
    const search = calls.find((c) => c.url.startsWith('/api/user/search'));
    expect(search?.url).toBe('/api/user/search?q=ferritin');
  });

  it('opens a result on its screen with its person chosen (null for yourself)', async () => {
    const user = userEvent.setup();
    api({ '': { results: [anaemia, ironMed], next_cursor: null } });
    setSelectedPersonId('gran');
    const { router } = renderPage('/search?q=iron');
    await user.click(await screen.findByRole('link', { name: 'Ferrous sulfate' }));
    expect(await screen.findByRole('heading', { name: 'Prescriptions' })).toBeTruthy();
    expect(router.state.location.hash).toBe('#medication-m1');
    expect(getSelectedPersonId()).toBeNull();

    await router.navigate('/search?q=iron');
    await user.click(await screen.findByRole('link', { name: 'Iron deficiency' }));
    expect(await screen.findByRole('heading', { name: 'Health records' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/health-records/kid');
    expect(getSelectedPersonId()).toBe('kid');
    setSelectedPersonId(null);
  });

  it('loads more results while there are more', async () => {
    const user = userEvent.setup();
    const { calls } = api({
      '': { results: [labReport], next_cursor: 'page-2' },
      'page-2': { results: [anaemia, ironMed], next_cursor: null },
    });
    renderPage('/search?q=ferritin');
    await screen.findByRole('link', { name: /Blood panel March/ });
    expect(screen.queryByRole('link', { name: 'Iron deficiency' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'Iron deficiency' })).toBeTruthy();
    // The second page joins Mia's group rather than starting a new one.
    expect(screen.getAllByRole('region', { name: 'Mia' })).toHaveLength(1);
    expect(
      within(screen.getByRole('region', { name: 'Mia' }))
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Files', 'Conditions']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls.filter((c) => c.url.startsWith('/api/user/search')).map((c) => c.url)).toEqual([
      '/api/user/search?q=ferritin',
      '/api/user/search?q=ferritin&cursor=page-2',
    ]);
  });

  it('says when nothing matches', async () => {
    api({ '': { results: [], next_cursor: null } });
    renderPage('/search?q=zzz');
    expect(await screen.findByText('No results for “zzz”.')).toBeTruthy();
  });

  it('shows a failure with the server message and a way to try again', async () => {
    const user = userEvent.setup();
    const { calls } = api({}, { status: 404, message: 'Person not found' });
    renderPage('/search?q=ferritin&person=nobody');
    expect((await screen.findByRole('alert')).textContent).toBe('Person not found');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/api/user/search'))).toHaveLength(2));
    expect(calls.find((c) => c.url.startsWith('/api/user/search'))?.url).toBe('/api/user/search?q=ferritin&person=nobody');
  });

  it('asks for something to search for, and refuses a query over 200 characters without asking the server', async () => {
    const { calls } = api({});
    const { router } = renderPage('/search');
    expect(await screen.findByText('Enter something to search for.')).toBeTruthy();
    await router.navigate(`/search?q=${'a'.repeat(201)}`);
    expect((await screen.findByRole('alert')).textContent).toBe('A search may be at most 200 characters.');
    expect(calls.some((c) => c.url.startsWith('/api/user/search'))).toBe(false);
  });

  it('narrows to one person with the person filter, and searches again from its own field', async () => {
    const user = userEvent.setup();
    const { calls } = api({ '': { results: [anaemia], next_cursor: null } });
    const { router } = renderPage('/search?q=iron');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Person' }), 'kid');
    expect(router.state.location.search).toBe('?q=iron&person=kid');
    await waitFor(() => expect(calls.some((c) => c.url === '/api/user/search?q=iron&person=kid')).toBe(true));

    const field = screen.getByRole('searchbox', { name: 'Search for' });
    await user.clear(field);
    await user.type(field, 'anaemia{Enter}');
    expect(router.state.location.search).toBe('?q=anaemia&person=kid');
  });
});
