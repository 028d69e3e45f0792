import { Type } from '@sinclair/typebox';
import { fail } from './errors.js';

/**
 * Opaque, versioned keyset cursors: base64url of `{v, k}` where `k` is the sort key of the last
 * row served (for example `[createdAt, id]`). A cursor of another shape, with keys this API never
 * issues, a garbled one, or an unknown version answers 422 VALIDATION_FAILED naming `cursor`.
 * The list is not part of the cursor: one from another list with the same key shape reads as a
 * position in this list (it can only page the caller's own rows).
 */
export const CURSOR_VERSION = 1;

export type CursorKey = readonly (string | number)[];

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, k: key })).toString('base64url');
}

export function decodeCursor(cursor: string, shape: readonly ('string' | 'number')[]): CursorKey {
  const invalid = () =>
    fail('VALIDATION_FAILED', 'cursor is not a cursor this list issued.', {
      issues: [{ field: 'cursor', in: 'query', message: 'invalid or expired cursor', keyword: 'format' }],
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const body = parsed as { v?: unknown; k?: unknown };
  if (body?.v !== CURSOR_VERSION || !Array.isArray(body.k) || body.k.length !== shape.length) throw invalid();
  // Keys are ids and integer stamps: a fraction or an unsafe integer is no key this API issued.
  const fits = (value: unknown, i: number) =>
    typeof value === shape[i] && (typeof value !== 'number' || Number.isSafeInteger(value));
  if (!body.k.every(fits)) throw invalid();
  return body.k as CursorKey;
}

/** `limit` of list endpoints: 1 to `max`, default `fallback`. */
export const LimitQuery = (max: number, fallback: number) =>
  Type.Integer({ minimum: 1, maximum: max, default: fallback });

/**
 * `nextUrl` of a list: the request's own path and query with `cursor` set, so the next page
 * keeps every filter, expansion and limit of this one.
 */
export const nextPageUrl =
  (requestUrl: string) =>
  (cursor: string): string => {
    const url = new URL(requestUrl, 'http://localhost');
    url.searchParams.set('cursor', cursor);
    return `${url.pathname}${url.search}`;
  };

/**
 * Takes one row more than the page to know whether another page exists, and builds the meta
 * shared by lists: `limit`, `count`, `hasMore`, `nextCursor`, `nextUrl`.
 */
export function page<T>(
  rows: T[],
  limit: number,
  keyOf: (row: T) => CursorKey,
  urlFor: (cursor: string) => string,
) {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data.at(-1);
  const nextCursor = hasMore && last !== undefined ? encodeCursor(keyOf(last)) : null;
  return {
    data,
    meta: { limit, count: data.length, hasMore, nextCursor, nextUrl: nextCursor ? urlFor(nextCursor) : null },
  };
}
