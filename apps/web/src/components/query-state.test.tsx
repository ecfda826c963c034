import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createTestQueryClient } from '../../test/utils';
import { QueryState, type QueryStateProps } from './query-state';

type Answer = string[] | Error | Promise<string[]>;

/** A list query whose answers come from `answers`, one per fetch; the last one repeats. */
function Harness({ answers, ...props }: { answers: Answer[] } & Omit<QueryStateProps<string[]>, 'query' | 'loading' | 'error'>) {
  const queryFn = vi.fn(() => {
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  });
  const query = useQuery({ queryKey: ['things'], queryFn });
  return (
    <QueryState
      query={query}
      loading="Loading things..."
      error={(error) => `The things could not be loaded: ${error.message}`}
      isEmpty={(things) => things.length === 0}
      {...props}
    >
      {props.children ??
        ((things) => (
          <ul aria-label="Things">
            {things.map((thing) => (
              <li key={thing}>{thing}</li>
            ))}
          </ul>
        ))}
    </QueryState>
  );
}

function renderWithClient(ui: ReactNode) {
  const client = createTestQueryClient();
  return { ...render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>), client };
}

describe('QueryState', () => {
  it('says what is loading, politely, while the answer is on its way', () => {
    renderWithClient(<Harness answers={[new Promise<string[]>(() => undefined)]} />);
    expect(screen.getByRole('status').textContent).toBe('Loading things...');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('says a failure at once with the error, not an empty list, and Try again fetches again', async () => {
    const user = userEvent.setup();
    renderWithClient(<Harness answers={[new Error('offline'), ['Aspirin']]} empty="Nothing yet" />);
    expect((await screen.findByRole('alert')).textContent).toBe('The things could not be loaded: offline');
    expect(screen.queryByText('Nothing yet')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Things' })).toBeTruthy();
    expect(screen.getByText('Aspirin')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names the retry button as the screen asks and takes a plain error text', async () => {
    const client = createTestQueryClient();
    function Plain() {
      const query = useQuery<string[]>({ queryKey: ['plain'], queryFn: () => Promise.reject(new Error('boom')) });
      return <QueryState query={query} loading="Loading..." error="Could not load how much storage is used." retryLabel="Retry" />;
    }
    render(
      <QueryClientProvider client={client}>
        <Plain />
      </QueryClientProvider>,
    );
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load how much storage is used.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('shows the empty text in the empty box when there is nothing, and an empty element as it is', async () => {
    const { unmount } = renderWithClient(<Harness answers={[[]]} empty="No things added" />);
    expect(await screen.findByText('No things added')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    unmount();

    renderWithClient(<Harness answers={[[]]} empty={<a href="/add">Add a thing</a>} />);
    expect(await screen.findByRole('link', { name: 'Add a thing' })).toBeTruthy();
  });

  it('shows the data once it is there', async () => {
    renderWithClient(<Harness answers={[['Aspirin', 'Insulin']]} empty="No things added" />);
    const list = await screen.findByRole('list', { name: 'Things' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['Aspirin', 'Insulin']);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByText('No things added')).toBeNull();
  });

  it('keeps saying loading while something else the data needs is on its way, but not over a failure', async () => {
    const { rerender, client, unmount } = renderWithClient(<Harness answers={[['Aspirin']]} waitFor />);
    // The list itself has answered; only the other query is missing.
    await vi.waitFor(() => expect(client.getQueryState(['things'])?.status).toBe('success'));
    expect(screen.getByRole('status').textContent).toBe('Loading things...');
    expect(screen.queryByText('Aspirin')).toBeNull();
    rerender(
      <QueryClientProvider client={client}>
        <Harness answers={[['Aspirin']]} waitFor={false} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Aspirin')).toBeTruthy();
    unmount();

    renderWithClient(<Harness answers={[new Error('offline')]} waitFor />);
    expect((await screen.findByRole('alert')).textContent).toBe('The things could not be loaded: offline');
  });

  it('a failed refetch replaces the data with the failure, unless the screen keeps the data', async () => {
    const { client } = renderWithClient(<Harness answers={[['Aspirin'], new Error('offline')]} />);
    expect(await screen.findByText('Aspirin')).toBeTruthy();
    await client.refetchQueries({ queryKey: ['things'] });
    expect((await screen.findByRole('alert')).textContent).toBe('The things could not be loaded: offline');
    expect(screen.queryByText('Aspirin')).toBeNull();
  });

  it('with keepData a failed refetch leaves the data on screen', async () => {
    const { client } = renderWithClient(<Harness answers={[['Aspirin'], new Error('offline')]} keepData />);
    expect(await screen.findByText('Aspirin')).toBeTruthy();
    await client.refetchQueries({ queryKey: ['things'] });
    expect(client.getQueryState(['things'])?.status).toBe('error');
    expect(screen.getByText('Aspirin')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
