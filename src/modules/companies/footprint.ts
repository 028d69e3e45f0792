import { fail } from '../../http/errors.js';
import { isIsoCountry, isIsoCurrency } from '../../lib/iso-codes.js';

interface FootprintIssue {
  field: string;
  in: 'body';
  message: string;
  keyword: 'minItems' | 'iso3166-1' | 'iso4217';
  params?: { entry: string };
}

interface Sets {
  countries: string[];
  currencies: string[];
}

function entriesOf(
  field: keyof Sets,
  entries: readonly string[],
  known: (code: string) => boolean,
  standard: string,
  keyword: FootprintIssue['keyword'],
  noneMessage: string,
): { codes: string[]; issues: FootprintIssue[] } {
  if (entries.length === 0) {
    return { codes: [], issues: [{ field, in: 'body', message: noneMessage, keyword: 'minItems' }] };
  }
  const issues: FootprintIssue[] = [];
  entries.forEach((entry, index) => {
    const typed = entry.trim();
    if (known(typed.toUpperCase())) return;
    const named = typed === '' ? 'A blank entry' : typed;
    issues.push({
      field: `${field}[${index}]`,
      in: 'body',
      message: `${named} is not ${standard}.`,
      keyword,
      params: { entry: typed },
    });
  });
  return { codes: [...new Set(entries.map((entry) => entry.trim().toUpperCase()))].sort(), issues };
}

/**
 * One validator for every footprint write (seller API, console, operator): each set needs at
 * least one entry, every entry an assigned ISO code in any case. Returns both sets in upper
 * case, each code once, sorted; otherwise VALIDATION_FAILED naming every bad entry.
 */
export function validFootprint(input: Sets): Sets {
  const countries = entriesOf(
    'countries',
    input.countries,
    isIsoCountry,
    'an ISO 3166-1 country code',
    'iso3166-1',
    'Name at least one country you sell in.',
  );
  const currencies = entriesOf(
    'currencies',
    input.currencies,
    isIsoCurrency,
    'an ISO 4217 currency code',
    'iso4217',
    'Name at least one currency you sell in.',
  );
  const issues = [...countries.issues, ...currencies.issues];
  if (issues.length > 0) throw fail('VALIDATION_FAILED', issues[0]!.message, { issues });
  return { countries: countries.codes, currencies: currencies.codes };
}

/**
 * The footprint an order is held to: the declared sets; in sandbox, none at all while the
 * company has never declared one (any country and currency passes). In production an
 * undeclared footprint is two empty sets, so every order is refused until one is declared.
 */
export function footprintInForce<F extends Sets & { updatedAt: number | null }>(
  footprint: F,
  production: boolean,
): F | null {
  return footprint.updatedAt === null && !production ? null : footprint;
}

/** Per environment, whether orders are checked against the footprint (footprintInForce). */
export const footprintChecks = (footprint: Sets & { updatedAt: number | null }) => ({
  sandbox: footprintInForce(footprint, false) !== null,
  production: footprintInForce(footprint, true) !== null,
});
