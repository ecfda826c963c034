import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../test/utils';
import { useHashTarget } from './use-hash-target';

let showRow: () => void = () => undefined;
let showOtherTab: () => void = () => undefined;

/** A screen whose rows arrive late, one of them in a tab that starts hidden. */
function Rows() {
  useHashTarget();
  const [rows, setRows] = useState(false);
  const [tab, setTab] = useState<'a' | 'b'>('a');
  showRow = () => setRows(true);
  showOtherTab = () => setTab('b');
  return (
    <>
      <button type="button">Elsewhere</button>
      <ul hidden={tab !== 'a'}>{rows ? <li id="medication-m1">Ibuprofen</li> : null}</ul>
      <ul hidden={tab !== 'b'}>
        <li id="medication-m2">Old one</li>
      </ul>
    </>
  );
}

/** Like the root layout: <main> takes focus on every new page, in an effect that runs after the page's own. */
function FocusesMain({ children }: { children: ReactNode }) {
  useEffect(() => document.getElementById('main')?.focus());
  return (
    <main id="main" tabIndex={-1}>
      {children}
    </main>
  );
}

function RowAtOnce() {
  useHashTarget();
  return <p id="contact-c1">Dr. Rivera</p>;
}

describe('useHashTarget', () => {
  it('takes focus after the layout has moved it to the page (a row there at once)', async () => {
    renderRoutes(
      [
        {
          path: '/edit',
          element: (
            <FocusesMain>
              <RowAtOnce />
            </FocusesMain>
          ),
        },
      ],
      '/edit#contact-c1',
    );
    await waitFor(() => expect(document.activeElement).toBe(screen.getByText('Dr. Rivera')));
  });

  it('focuses the row the address names once the list has rendered it', async () => {
    renderRoutes([{ path: '/list', element: <Rows /> }], '/list#medication-m1');
    expect(document.activeElement).toBe(document.body);
    act(() => showRow());
    const row = await screen.findByText('Ibuprofen');
    await waitFor(() => expect(document.activeElement).toBe(row));
    expect(row.getAttribute('tabindex')).toBe('-1');
  });

  it('waits for a row in a hidden tab until the screen shows that tab', async () => {
    renderRoutes([{ path: '/list', element: <Rows /> }], '/list#medication-m2');
    const row = screen.getByText('Old one');
    expect(document.activeElement).not.toBe(row);
    act(() => showOtherTab());
    await waitFor(() => expect(document.activeElement).toBe(row));
  });

  it('gives up once the user does something else', async () => {
    const user = userEvent.setup();
    renderRoutes([{ path: '/list', element: <Rows /> }], '/list#medication-m1');
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    await user.click(elsewhere);
    act(() => showRow());
    await screen.findByText('Ibuprofen');
    expect(document.activeElement).toBe(elsewhere);
  });
});
