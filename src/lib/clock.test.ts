import { describe, expect, it } from 'vitest';
import { instantOf } from './clock.js';

describe('instantOf', () => {
  it('reads RFC 3339 date-times, offsets and fractions included', () => {
    expect(instantOf('2024-01-01T00:00:00Z')).toBe(Date.UTC(2024, 0, 1));
    expect(instantOf('2024-01-01t05:30:00.250+05:30')).toBe(Date.UTC(2024, 0, 1, 0, 0, 0, 250));
  });

  it('reads a leap second as the start of the next second', () => {
    expect(instantOf('2016-12-31T23:59:60Z')).toBe(Date.UTC(2017, 0, 1));
    expect(instantOf('2016-12-31T23:59:60.5Z')).toBe(Date.UTC(2017, 0, 1, 0, 0, 0, 500));
  });
});
