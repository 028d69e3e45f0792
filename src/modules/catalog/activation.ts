import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas.js';

/** Where a SKU's keys activate: worldwide, in listed countries, or not known. */
export const ActivationSchema = Type.Object({
  type: Type.String({ description: 'worldwide, countries or unknown' }),
  countries: Nullable(Type.Array(Type.String())),
});

/** A SKU row's activation as answers show it. */
export function activationOf(row: { activation_type: string; activation_countries: string | null }) {
  return {
    type: row.activation_type,
    countries: row.activation_countries ? (JSON.parse(row.activation_countries) as string[]) : null,
  };
}
