/**
 * Runs items in batches, one batch in flight at a time: an item submitted while none runs
 * goes at once, alone; items submitted while one runs wait and go together in the next. Under
 * load many requests share one round trip; when idle nothing waits. `run` answers each item,
 * in order; if it throws, every item of that batch fails with its error.
 */
export function batcher<I, O>(run: (items: I[]) => Promise<O[]>, maxBatch = 256) {
  let waiting: { item: I; resolve(o: O): void; reject(err: unknown): void }[] = [];
  let running = false;

  async function drain() {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        const out = await run(batch.map((w) => w.item));
        batch.forEach((w, i) => {
          w.resolve(out[i]!);
        });
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    running = false;
  }

  return (item: I): Promise<O> =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
