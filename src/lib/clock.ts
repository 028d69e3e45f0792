/** The one source of time for modules: tests and the sandbox test clock move it. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Where a shared test clock keeps its offset (the database: see operator/test-clock.repo.ts). */
export interface ClockOffsetStore {
  read(): Promise<number>;
  /** Adds to the shared offset atomically and returns the new total. */
  add(deltaMs: number): Promise<number>;
}

/** How long a process trusts its cached copy of the shared offset. */
export const TEST_CLOCK_TTL_MS = 1000;

/**
 * A clock that runs with real time plus an offset that only moves forward. With a store, the
 * offset is shared by every process on the database: each caches it for `ttlMs` (`sync`, run
 * before each request) and `advanceShared` answers only once every cache has expired.
 */
export class AdjustableClock implements Clock {
  private offsetMs = 0;
  private readAt = Number.NEGATIVE_INFINITY;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store?: ClockOffsetStore,
    private readonly ttlMs = TEST_CLOCK_TTL_MS,
  ) {}

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Reads the shared offset when the cached one is older than the TTL. */
  async sync(): Promise<void> {
    if (!this.store || Date.now() - this.readAt < this.ttlMs) return;
    this.readAt = Date.now();
    this.raiseTo(await this.store.read());
  }

  /**
   * Moves this process at once (in-process tests call it synchronously) and the shared offset
   * in the background; `flush` waits for that write.
   */
  advance(seconds: number): number {
    const deltaMs = seconds * 1000;
    this.offsetMs += deltaMs;
    const store = this.store;
    if (store) this.writes = this.writes.then(() => store.add(deltaMs).then((total) => this.raiseTo(total)));
    this.writes = this.writes.catch(() => undefined);
    return this.now();
  }

  /** Moves every process: resolves once no process can still read the old offset from its cache. */
  async advanceShared(seconds: number): Promise<number> {
    if (!this.store) return this.advance(seconds);
    await this.flush();
    this.raiseTo(await this.store.add(seconds * 1000));
    this.readAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, this.ttlMs));
    return this.now();
  }

  flush(): Promise<unknown> {
    return this.writes;
  }

  /** Offsets only grow: a read that predates a local advance never moves time back. */
  private raiseTo(offsetMs: number): void {
    if (offsetMs > this.offsetMs) this.offsetMs = offsetMs;
  }
}

export const isoOf = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : isoOf(ms));

/**
 * RFC 3339 date-time as this API reads it: the offset carries its minutes (`+05:00`; `+05`,
 * which ajv's `date-time` format also admits, is no RFC 3339 and no parser here reads it).
 */
export const DATE_TIME_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:[Zz]|[+-]\\d{2}:\\d{2})$';
const DATE_TIME = new RegExp(DATE_TIME_PATTERN);

/**
 * Epoch milliseconds of an RFC 3339 date-time as the `DateTime` schema admits it. A leap second
 * (`23:59:60`), which JavaScript's parser refuses, is read as the start of the next second.
 */
export function instantOf(dateTime: string): number {
  const leap = /^(.*[Tt ]\d{2}:\d{2}:)60(.*)$/.exec(dateTime);
  return leap ? Date.parse(`${leap[1]}59${leap[2]}`) + 1000 : Date.parse(dateTime);
}

/** A date-time `instantOf` reads: the check for values no schema validates (filter values). */
export const isDateTime = (value: string): boolean =>
  DATE_TIME.test(value) && !Number.isNaN(instantOf(value));
