import { createRequire } from 'node:module';
import { iso31661Alpha2ToAlpha3 } from 'iso-3166/1-a2-to-1-a3.js';

/**
 * The ISO 3166-1 alpha-2 country codes and ISO 4217 currency codes, from maintained data
 * packages installed with the service (no network at run time). Only the codes are kept.
 */
const COUNTRIES: ReadonlySet<string> = new Set(Object.keys(iso31661Alpha2ToAlpha3));

// The package's data file alone: its index pulls helpers this service has no use for.
const currencyRows = createRequire(import.meta.url)('currency-codes/data.js') as { code: string }[];
const CURRENCIES: ReadonlySet<string> = new Set(currencyRows.map((row) => row.code));

/** An upper-case code assigned in ISO 3166-1 (alpha-2). */
export const isIsoCountry = (code: string) => COUNTRIES.has(code);
/** An upper-case code in ISO 4217's current list. */
export const isIsoCurrency = (code: string) => CURRENCIES.has(code);
