/**
 * At most `limit` callers at once per key; the others wait their turn in arrival order. Used
 * where waiting in the database costs more than waiting here (a hot row's lock queue).
 */
export function keyedGate(limit: number) {
  const queues = new Map<string, { running: number; waiting: (() => void)[] }>();
  return async function run<T>(key: string, work: () => Promise<T>): Promise<T> {
    let queue = queues.get(key);
    if (!queue) {
      queue = { running: 0, waiting: [] };
      queues.set(key, queue);
    }
    if (queue.running >= limit) await new Promise<void>((resolve) => queue!.waiting.push(resolve));
    else queue.running++;
    try {
      return await work();
    } finally {
      const next = queue.waiting.shift();
      if (next) next();
      else if (--queue.running === 0) queues.delete(key);
    }
  };
}
