import { Type } from '@sinclair/typebox';
import { ApiErrorRef } from '../../http/schemas.js';
import { instantOf } from '../../lib/clock.js';

const JSON_COLUMNS = new Set([
  'currency_detail',
  'marketplace_slugs',
  'region_locks',
  'short_description',
  'cover',
  'platforms',
  'regions',
  'excluded_countries',
  'activation_countries',
  'refund_policy',
  'replacement_policy',
]);
const BOOLEAN_COLUMNS = new Set([
  'invoicing_enabled',
  'self_billing',
  'shares_suspended',
  'is_archived',
  'preorder_enabled',
  'delisted',
  'hot_drop',
  'holds_enabled',
  'consumer_geo_attest_required',
  'active',
]);

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A stored row as the operator API shows it: camelCase, JSON parsed, flags as booleans, instants as ISO. */
export function adminView(row: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    let out = value;
    if (JSON_COLUMNS.has(key) && typeof value === 'string') out = JSON.parse(value);
    else if (BOOLEAN_COLUMNS.has(key)) out = value === 1;
    else if (
      (key.endsWith('_at') || key.endsWith('_start') || key.endsWith('_end') || key === 'release_date') &&
      typeof value === 'number'
    ) {
      out = new Date(value).toISOString();
    }
    view[camel(key)] = out;
  }
  return view;
}

/** The error responses every operator route declares. */
export const adminErrors = {
  401: ApiErrorRef,
  403: ApiErrorRef,
  404: ApiErrorRef,
  422: ApiErrorRef,
  500: ApiErrorRef,
};

/** Operator replies: `{data}` with the resource, and the shared error responses. */
export const adminResponses = (status = 200) => ({
  [status]: Type.Object({ data: Type.Any() }),
  400: ApiErrorRef,
  401: ApiErrorRef,
  403: ApiErrorRef,
  404: ApiErrorRef,
  422: ApiErrorRef,
  500: ApiErrorRef,
});

export const isoToMs = (iso: string | null | undefined): number | null | undefined =>
  iso === undefined ? undefined : iso === null ? null : instantOf(iso);
