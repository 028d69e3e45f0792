import { type TLiteral, type TSchema, type TUnion, Type } from '@sinclair/typebox';
import { DATE_TIME_PATTERN } from '../lib/clock.js';

/** The flat ApiError envelope every error answers with (docs/errors.md). */
export const ApiErrorSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    recoverable: Type.Boolean(),
    hint: Type.String(),
    doc_url: Type.String(),
    requestId: Type.String(),
    details: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'ApiError', title: 'ApiError' },
);

export const ApiErrorRef = Type.Ref('ApiError');

/**
 * A UUID in its 36-character form, either case; it reaches the handler lower-cased (`x-lowercase`,
 * http/validation.ts), as ids are stored and compared. A `urn:uuid:` prefix is refused.
 */
export const Uuid = Type.String({ format: 'uuid', 'x-lowercase': true });
/** RFC 3339 date-time (`DATE_TIME_PATTERN`, lib/clock.ts); read values with `instantOf`. */
export const DateTime = Type.String({ format: 'date-time', pattern: DATE_TIME_PATTERN });
/** A UTC calendar day, `YYYY-MM-DD`. */
export const DateOnly = Type.String({ format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
export const CountryCode = Type.String({ pattern: '^[A-Z]{2}$' });
export const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const dataEnvelope = <T extends TSchema>(data: T) => Type.Object({ data });

/** Error responses every authenticated seller route can give, plus the route's own. */
export function errorResponses(...statuses: number[]): Record<number, typeof ApiErrorRef> {
  const all = new Set([400, 401, 403, 422, 429, 500, ...statuses]);
  return Object.fromEntries([...all].sort().map((s) => [s, ApiErrorRef]));
}

export const NoContent = Type.Null({ description: 'No content' });

/** A string enum as a union of literals, typed as the union of its values. */
export const OneOf = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<TLiteral<T[number]>[]>;

/** `meta` of every keyset-paged list (see http/pagination.ts). */
export const PageMeta = Type.Object({
  limit: Type.Integer(),
  count: Type.Integer(),
  hasMore: Type.Boolean(),
  nextCursor: Nullable(Type.String()),
  nextUrl: Nullable(Type.String()),
});

export const Warnings = Type.Array(Type.Object({ code: Type.String(), message: Type.String() }));

/** A seller's own order reference: 1 to 200 printable ASCII characters, no spaces. */
export const OrderReference = Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' });
