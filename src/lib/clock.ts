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
