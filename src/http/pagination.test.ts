import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, nextPageUrl, page } from './pagination.js';

describe('keyset cursors', () => {
  it('round-trip the sort key of the last row, opaquely', () => {
    const cursor = encodeCursor([1_795_000_000_000, 'abc']);
    expect(cursor).not.toContain('abc');
    expect(decodeCursor(cursor, ['number', 'string'])).toEqual([1_795_000_000_000, 'abc']);
  });

  it.each([
    ['garbage', '!!!'],
    ['another shape', encodeCursor(['abc'])],
    ['wrong types', encodeCursor(['abc', 1])],
    ['an unknown version', Buffer.from(JSON.stringify({ v: 9, k: [1, 'a'] })).toString('base64url')],
    ['a fractional stamp', encodeCursor([1.5, 'a'])],
    ['an unsafe integer', encodeCursor([1e21, 'a'])],
  ])('refuses %s with VALIDATION_FAILED on cursor', (_label, cursor) => {
    expect(() => decodeCursor(cursor, ['number', 'string'])).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });

  it('pages with one extra row to know about the next page', () => {
    const rows = [1, 2, 3].map((n) => ({ n }));
    const first = page(
      rows,
      2,
      (r) => [r.n],
      (c) => `/x?cursor=${c}`,
    );
    expect(first.data).toEqual([{ n: 1 }, { n: 2 }]);
    expect(first.meta).toMatchObject({ limit: 2, count: 2, hasMore: true });
    expect(decodeCursor(first.meta.nextCursor!, ['number'])).toEqual([2]);
    expect(first.meta.nextUrl).toBe(`/x?cursor=${first.meta.nextCursor}`);
    const last = page(
      rows.slice(2),
      2,
      (r) => [r.n],
      () => '',
    );
    expect(last.meta).toMatchObject({ hasMore: false, nextCursor: null, nextUrl: null, count: 1 });
  });

  it('builds nextUrl from the request itself: every filter kept, the cursor replaced', () => {
    const url = nextPageUrl('/api/seller/v1/products?q=star%20wars&expand=pricing&cursor=old&limit=2')('new');
    const parsed = new URL(url, 'http://localhost');
    expect(parsed.pathname).toBe('/api/seller/v1/products');
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      q: 'star wars',
      expand: 'pricing',
      cursor: 'new',
      limit: '2',
    });
    expect(nextPageUrl('/api/seller/v1/products')('abc')).toBe('/api/seller/v1/products?cursor=abc');
  });
});
