/** The one source of time for modules: tests and the sandbox test clock move it. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that runs with real time plus an offset that only moves forward. */
export class AdjustableClock implements Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(seconds: number): number {
    this.offsetMs += seconds * 1000;
    return this.now();
  }
}

export const isoOf = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : isoOf(ms));
