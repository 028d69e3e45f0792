import { Type } from '@sinclair/typebox';
import { fail } from '../../http/errors.js';
import { decodeCursor, LimitQuery } from '../../http/pagination.js';
import { DateTime, OneOf } from '../../http/schemas.js';
import { instantOf, isDateTime } from '../../lib/clock.js';
import { isUuid } from '../../lib/ids.js';
import { localeChain } from './locale.js';
import { FILTER_FIELDS, type ProductFilter, type ProductListQuery } from './products-read.service.js';

const PartnerId = Type.String({
  maxLength: 32,
  pattern: '^[a-zA-Z0-9_-]+$',
  description: 'publisher company id without hyphens (32 hex characters)',
});

export const PartnerFilter = Type.Object({
  partner: Type.Optional(PartnerId),
  publisherCompanyId: Type.Optional(PartnerId),
});

export const ProductListQuerystring = Type.Object({
  limit: LimitQuery(100, 50),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  partner: Type.Optional(PartnerId),
  publisherCompanyId: Type.Optional(PartnerId),
  status: Type.Optional(OneOf(['draft', 'active', 'discontinued', 'archived'])),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  locale: Type.Optional(Type.String({ pattern: '^[a-zA-Z]{2}(-[a-zA-Z]{2})?$' })),
  updatedSince: Type.Optional(DateTime),
  expand: Type.Optional(Type.String({ pattern: '^(availability|pricing)(,(availability|pricing))*$' })),
  filters: Type.Optional(Type.String({ maxLength: 4000 })),
});

type Querystring = {
  limit: number;
  cursor?: string;
  q?: string;
  partner?: string;
  publisherCompanyId?: string;
  status?: string;
  slug?: string;
  locale?: string;
  updatedSince?: string;
  expand?: string;
  filters?: string;
};

const invalid = (field: string, message: string) =>
  fail('VALIDATION_FAILED', `${field}: ${message}`, {
    issues: [{ field, in: 'query', message, keyword: 'format' }],
  });

/** `partner` and `publisherCompanyId` are aliases: conflicting values are refused. */
export function publisherFilter(query: {
  partner?: string;
  publisherCompanyId?: string;
}): string | undefined {
  const { partner, publisherCompanyId } = query;
  if (partner && publisherCompanyId && partner.toLowerCase() !== publisherCompanyId.toLowerCase()) {
    throw invalid('publisherCompanyId', 'conflicts with partner (they are aliases)');
  }
  const given = partner ?? publisherCompanyId;
  return given ? publisherIdFrom(given) : undefined;
}

/**
 * A publisher company id as sellers write it (32 hex characters without hyphens, or the uuid
 * itself) as stored; anything else names no company.
 */
function publisherIdFrom(given: string): string {
  const compact = given.toLowerCase().replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/.test(compact) || (given.includes('-') && !isUuid(given))) {
    return '00000000-0000-0000-0000-000000000000';
  }
  return `${compact.slice(0, 8)}-${compact.slice(8, 12)}-${compact.slice(12, 16)}-${compact.slice(16, 20)}-${compact.slice(20)}`;
}

/** What is wrong with a filter's value for its operator, or null: `in` takes strings, the rest one. */
function filterValueProblem(op: string, value: unknown): string | null {
  if (op === 'in') {
    const strings = Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string');
    return strings ? null : 'in takes a non-empty array of strings';
  }
  if (typeof value !== 'string' || value === '') return `${op} takes a non-empty string`;
  if (op === 'gte' && !isDateTime(value)) {
    return 'gte takes an RFC 3339 date-time';
  }
  return null;
}

function parseFilters(raw: string | undefined): ProductFilter[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('filters', 'must be a JSON array of {field, op, value}');
  }
  if (!Array.isArray(parsed)) throw invalid('filters', 'must be a JSON array of {field, op, value}');
  return parsed.map((f, i) => {
    const item = f as Partial<ProductFilter> | null;
    if (!item || typeof item.field !== 'string' || typeof item.op !== 'string' || item.value === undefined) {
      throw invalid(`filters[${i}]`, 'needs field, op and value');
    }
    const ops = Object.hasOwn(FILTER_FIELDS, item.field) ? FILTER_FIELDS[item.field] : undefined;
    if (!ops)
      throw invalid(
        `filters[${i}].field`,
        `unknown field ${item.field}; known: ${Object.keys(FILTER_FIELDS).join(', ')}`,
      );
    if (!ops.includes(item.op)) throw invalid(`filters[${i}].op`, `${item.field} takes ${ops.join(', ')}`);
    const problem = filterValueProblem(item.op, item.value);
    if (problem) throw invalid(`filters[${i}].value`, problem);
    if (item.field === 'publisherCompanyId')
      return { ...item, value: publisherIdFrom(String(item.value)) } as ProductFilter;
    return item as ProductFilter;
  });
}

/** Reads GET /products' query into a list query; the legacy id-only cursor is resolved by the caller. */
export function parseProductQuery(query: Querystring, acceptLanguage: string | undefined) {
  let before: readonly [number, string] | undefined;
  let legacyCursorId: string | undefined;
  if (query.cursor) {
    if (isUuid(query.cursor)) legacyCursorId = query.cursor;
    else before = decodeCursor(query.cursor, ['number', 'string']) as [number, string];
  }
  const chain = localeChain(query.locale, acceptLanguage);
  const list: ProductListQuery & { statusFilter?: string } = {
    limit: query.limit,
    before,
    q: query.q,
    publisherId: publisherFilter(query),
    slug: query.slug,
    updatedSince: query.updatedSince ? instantOf(query.updatedSince) : undefined,
    expand: new Set(query.expand?.split(',') ?? []),
    chain,
    filters: parseFilters(query.filters),
  };
  const deprecatedStatus = query.status
    ? {
        code: 'DEPRECATED_STATUS_FILTER',
        message:
          'status is deprecated: visible products are always active; use launchPhase and tradingState.',
      }
    : undefined;
  return {
    list,
    legacyCursorId,
    statusExcludesAll: query.status !== undefined && query.status !== 'active',
    deprecatedStatus,
  };
}
