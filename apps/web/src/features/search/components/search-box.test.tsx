import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSearchParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../../test/utils';
import { SearchBox } from './search-box';

function ResultsStandIn() {
  const [params] = useSearchParams();
  return <h1>Results for {params.get('q')}</h1>;
}

function renderBar(path = '/dashboard') {
  return renderRoutes(
    [
      {
        path: '/dashboard',
        element: (
          <>
            <SearchBox />
            <label>
              Notes
              <textarea />
            </label>
            <label>
              Name
              <input type="text" />
            </label>
            <label>
              Keep
              <input type="checkbox" />
            </label>
          </>
        ),
      },
      {
        path: '/search',
        element: (
          <>
            <SearchBox />
            <ResultsStandIn />
          </>
        ),
      },
    ],
    path,
  );
}

describe('the search bar', () => {
  it('is a labelled search field with its placeholder', () => {
    renderBar();
    const field = screen.getByRole('searchbox', { name: 'Search your records' });
    expect(field.getAttribute('placeholder')).toBe('Search records…');
    expect(screen.getByRole('search')).toBeTruthy();
  });

  it('/ focuses the field from anywhere, without typing the slash', async () => {
    const user = userEvent.setup();
    renderBar();
    await user.click(screen.getByRole('checkbox', { name: 'Keep' }));
    await user.keyboard('/');
    const field = screen.getByRole('searchbox', { name: 'Search your records' });
    expect(document.activeElement).toBe(field);
    expect((field as HTMLInputElement).value).toBe('');
  });

  it('/ is only a character while typing in a field', async () => {
    const user = userEvent.setup();
    renderBar();
    const notes = screen.getByRole('textbox', { name: 'Notes' });
    await user.type(notes, 'a/b');
    expect(document.activeElement).toBe(notes);
    expect((notes as HTMLTextAreaElement).value).toBe('a/b');
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.type(name, '1/2');
    expect(document.activeElement).toBe(name);
    expect((name as HTMLInputElement).value).toBe('1/2');
  });

  it('/ leaves an open dialog alone', async () => {
    const user = userEvent.setup();
    renderBar();
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    document.body.append(dialog);
    await user.keyboard('/');
    expect(document.activeElement).not.toBe(screen.getByRole('searchbox', { name: 'Search your records' }));
    dialog.remove();
  });

  it('Enter opens the results page for the words typed', async () => {
    const user = userEvent.setup();
    const { router } = renderBar();
    await user.keyboard('/');
    await user.keyboard('ferritin & iron{Enter}');
    expect(await screen.findByRole('heading', { name: 'Results for ferritin & iron' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/search');
    expect(router.state.location.search).toBe('?q=ferritin%20%26%20iron');
  });

  it('does not search for nothing', async () => {
    const user = userEvent.setup();
    const { router } = renderBar();
    await user.type(screen.getByRole('searchbox', { name: 'Search your records' }), '   {Enter}');
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('shows the query of the results page it is on', () => {
    renderBar('/search?q=penicillin');
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search your records' }).value).toBe('penicillin');
  });

  it('opens from its button on narrow screens, and Escape closes it back to the button', async () => {
    const user = userEvent.setup();
    renderBar();
    const toggle = screen.getByRole('button', { name: 'Search' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search your records' }));
    await user.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });
});
