import { percentToMicro } from '../../../lib/money.js';
import type { IntegrationOrderContext } from '../checkout.schemas.js';
import type { BuyerGeo } from './buyer-geo.js';

export interface Settlement {
  basis: 'declared_country' | 'fallback_store_country';
  currencyCode: string;
  appliedRatePercent: number | null;
  declaredRatePercent: number | null;
  rateReason: string;
  evidenceRank: number;
  grossMinor: number | null;
  vatMinor: number | null;
  netMinor: number | null;
}

/** A rate of 100 % in the integer unit used here (percent x 10^4). */
const WHOLE = 1_000_000;
const HALF = WHOLE / 2;

/**
 * The settlement object of a sale. The service is not a tax engine: the applied rate is
 * the seller's declared rate; without a declared sales country the store's country is the
 * basis (`fallback_store_country`). VAT and net come from the declared gross with integer
 * arithmetic on the rate as percent x 10^4 (no float enters a sum).
 */
export function settle(context: IntegrationOrderContext, currencyCode: string, geo: BuyerGeo): Settlement {
  const declared = context.salesTaxRatePercent ?? null;
  const basis = context.salesCountryCode ? 'declared_country' : 'fallback_store_country';
  const rateMicro = declared === null ? null : percentToMicro(declared);
  const gross = context.salesPriceGrossMinor ?? null;
  let net = context.salesPriceNetMinor ?? null;
  let vat = context.salesTaxAmountMinor ?? null;
  if (gross !== null && rateMicro !== null && (net === null || vat === null)) {
    if (context.priceIncludesTax === false) {
      net ??= gross;
      vat ??= Math.floor((net * rateMicro + HALF) / WHOLE);
    } else {
      net ??= Math.floor((gross * WHOLE + (WHOLE + rateMicro) / 2) / (WHOLE + rateMicro));
      vat ??= gross - net;
    }
  }
  const rateReason =
    declared === null
      ? 'no_rate_declared'
      : basis === 'fallback_store_country'
        ? 'fallback_store_country'
        : geo.countryMismatch
          ? 'declared_rate_country_mismatch'
          : 'declared_rate';
  return {
    basis,
    currencyCode,
    appliedRatePercent: declared,
    declaredRatePercent: declared,
    rateReason,
    evidenceRank: geo.evidenceRank,
    grossMinor: gross,
    vatMinor: vat,
    netMinor: net,
  };
}
