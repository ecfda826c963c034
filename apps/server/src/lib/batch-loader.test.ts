import { describe, expect, it } from 'vitest';
import { createBatchLoader } from './batch-loader';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('createBatchLoader', () => {
  it('answers every load of one turn with one call, for the distinct keys', async () => {
    const calls: string[][] = [];
    const load = createBatchLoader(async (keys: string[]) => {
      calls.push(keys);
      return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.toUpperCase()]));
    });
    const answers = await Promise.all([load('a'), load('b'), load('a'), load('missing')]);
    expect(answers).toEqual(['A', 'B', 'A', undefined]);
    expect(calls).toEqual([['a', 'b', 'missing']]);
  });

  it('starts a new batch for loads made after the previous one was sent', async () => {
    const calls: string[][] = [];
    const load = createBatchLoader(async (keys: string[]) => {
      calls.push(keys);
      return new Map(keys.map((k) => [k, k]));
    });
    const first = load('a');
    await turn();
    const second = load('a');
    expect(await Promise.all([first, second])).toEqual(['a', 'a']);
    expect(calls).toEqual([['a'], ['a']]);
  });

  it('never looks up before the load was asked for', async () => {
    let state = 'old';
    const load = createBatchLoader(async (keys: string[]) => new Map(keys.map((k) => [k, state])));
    const answer = load('k');
    state = 'new'; // changed after the call, before the batch runs: the batch sees it
    expect(await answer).toBe('new');
  });

  it('splits a large batch into slices, and a failing slice fails only its own loads', async () => {
    const calls: number[][] = [];
    const load = createBatchLoader(
      async (keys: number[]) => {
        calls.push(keys);
        if (keys.includes(3)) throw new Error('database went away');
        return new Map(keys.map((k) => [k, k * 10]));
      },
      { maxBatch: 2 },
    );
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((k) => load(k)));
    expect(calls).toEqual([[1, 2], [3, 4], [5]]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      10,
      20,
      'database went away',
      'database went away',
      50,
    ]);
  });
});
