import { decide, type RateLimitDecision, type RateLimitStore } from './store.js';

interface Counter {
  windowStart: number;
  current: number;
  previous: number;
}

const SWEEP_EVERY = 10_000;

/** Windows in this process's memory: the default for a single process. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, Counter>();
  private hitsSinceSweep = 0;

  get size(): number {
    return this.counters.size;
  }

  hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<RateLimitDecision> {
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    let counter = this.counters.get(key);
    if (!counter) {
      counter = { windowStart, current: 0, previous: 0 };
      this.counters.set(key, counter);
    } else if (counter.windowStart !== windowStart) {
      counter.previous = counter.windowStart === windowStart - windowMs ? counter.current : 0;
      counter.current = 0;
      counter.windowStart = windowStart;
    }
    const decision = decide(counter.current, counter.previous, limit, windowMs, nowMs);
    if (decision.counted) counter.current += 1;
    if (++this.hitsSinceSweep >= SWEEP_EVERY) this.sweep(windowStart, windowMs);
    const { counted: _counted, ...result } = decision;
    return Promise.resolve(result);
  }

  /** Drops counters whose windows can no longer weigh on any decision. */
  sweep(currentWindowStart: number, windowMs: number): void {
    this.hitsSinceSweep = 0;
    for (const [key, counter] of this.counters) {
      if (counter.windowStart < currentWindowStart - windowMs) this.counters.delete(key);
    }
  }

  close(): Promise<void> {
    this.counters.clear();
    return Promise.resolve();
  }
}
