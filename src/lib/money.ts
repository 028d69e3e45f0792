/**
 * Money helpers: amounts are integers in minor units; rates are decimal strings, converted
 * with integer (BigInt) arithmetic so that no float ever enters a sum.
 */
const EXPONENT_EXCEPTIONS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

/** ISO 4217 minor-unit exponent (2 unless the currency is one of the exceptions). */
export const minorExponent = (currency: string): number => EXPONENT_EXCEPTIONS[currency.toUpperCase()] ?? 2;

const SCALE = 10n ** 12n;

/** A non-negative decimal string as an integer scaled by 10^12. */
function scaled(decimal: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,12}))?$/.exec(decimal.trim());
  if (!match) throw new Error(`not a decimal rate: ${decimal}`);
  return BigInt(match[1]!) * SCALE + BigInt((match[2] ?? '').padEnd(12, '0'));
}

/**
 * Converts minor units between currencies through reference rates given as units per US dollar
 * (USD itself is 1). Rounds up: used for floors, which must never come out below the truth.
 */
export function convertMinorCeil(
  amountMinor: number,
  from: string,
  to: string,
  unitsPerUsd: (currency: string) => string | undefined,
): number | null {
  if (from === to) return amountMinor;
  const fromRate = from === 'USD' ? '1' : unitsPerUsd(from);
  const toRate = to === 'USD' ? '1' : unitsPerUsd(to);
  if (!fromRate || !toRate) return null;
  const numerator = BigInt(amountMinor) * scaled(toRate) * 10n ** BigInt(minorExponent(to));
  const denominator = scaled(fromRate) * 10n ** BigInt(minorExponent(from));
  return Number((numerator + denominator - 1n) / denominator);
}

/** A percentage (at most 4 decimals) as an integer, percent x 10^4: 19.5 -> 195000, 100 -> 1000000. */
export const percentToMicro = (percent: number): number => Math.round(percent * 10_000);

/** `amount` less `percent` off, rounded half up to the minor unit. */
export function discounted(amountMinor: number, percent: number): number {
  const keepMicro = 1_000_000 - percentToMicro(percent);
  return Math.floor((amountMinor * keepMicro + 500_000) / 1_000_000);
}
