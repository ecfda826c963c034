/**
 * Batches lookups by key per turn of the event loop (the DataLoader pattern): every `load` made
 * while requests are being read in one turn is answered by one `loadMany` call, made once that turn
 * is over (setImmediate), for the distinct keys, in slices of at most `maxBatch`.
 *
 * The lookup still happens after the call that asked for it, never before, so an answer is never
 * older than one fetched on its own would be.
 */
export function createBatchLoader<K, V>(loadMany: (keys: K[]) => Promise<Map<K, V>>, options: { maxBatch?: number } = {}) {
  const maxBatch = options.maxBatch ?? 500;
  interface Waiter {
    resolve: (value: V | undefined) => void;
    reject: (error: unknown) => void;
  }
  let pending: Map<K, Waiter[]> | null = null;

  async function run(batch: Map<K, Waiter[]>): Promise<void> {
    const keys = [...batch.keys()];
    for (let start = 0; start < keys.length; start += maxBatch) {
      const slice = keys.slice(start, start + maxBatch);
      try {
        const found = await loadMany(slice);
        for (const key of slice) for (const waiter of batch.get(key) ?? []) waiter.resolve(found.get(key));
      } catch (error) {
        for (const key of slice) for (const waiter of batch.get(key) ?? []) waiter.reject(error);
      }
    }
  }

  return function load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      if (!pending) {
        const batch = new Map<K, Waiter[]>();
        pending = batch;
        setImmediate(() => {
          pending = null;
          void run(batch);
        });
      }
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
    });
  };
}
