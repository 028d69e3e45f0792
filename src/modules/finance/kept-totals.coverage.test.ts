import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coverage } from './kept-totals.repo.js';

const SPAN_ORDER = ['month', 'day', 'hour', 'minute', 'second'];
const YEAR_MS = 366 * 86_400_000;

describe('a window as kept buckets and line-summed edges', () => {
  it('covers [from, to) exactly once, sums lines only for parts shorter than a second, and reads a bounded number of bucket ranges', () => {
    const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) });
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 2 * YEAR_MS }), (from, length) => {
        const to = from + length;
        const { buckets, edges } = coverage(from, to);
        const pieces = [...buckets.map((b) => [b.start, b.end] as const), ...edges].sort(
          (a, b) => a[0] - b[0],
        );
        let at = from;
        for (const [start, end] of pieces) {
          expect(start).toBe(at);
          expect(end).toBeGreaterThan(start);
          at = end;
        }
        expect(at).toBe(to);
        for (const [start, end] of edges) expect(end - start).toBeLessThan(1_000);
        expect(edges.length).toBeLessThanOrEqual(2);
        // One range of the coarsest span, and at most two (one per side) of each finer one.
        expect(buckets.length).toBeLessThanOrEqual(1 + 2 * (SPAN_ORDER.length - 1));
      }),
    );
  });

  it('reads the current month so far from one bucket per span and the lines of the current second', () => {
    const now = Date.UTC(2026, 11, 2, 14, 37, 21, 456);
    const { buckets, edges } = coverage(Date.UTC(2026, 11, 1), now);
    expect(buckets.map((b) => b.span)).toEqual(['day', 'hour', 'minute', 'second']);
    expect(edges).toEqual([[Date.UTC(2026, 11, 2, 14, 37, 21), now]]);
  });
});
