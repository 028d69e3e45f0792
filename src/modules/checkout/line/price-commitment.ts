import type { AppContext } from '../../../context.js';
import { type ApiError, fail } from '../../../http/errors.js';
import { constantTimeEqual } from '../../../lib/crypto.js';

/** How long a preview's price commitment can be committed. */
export const COMMITMENT_TTL_MS = 15 * 60 * 1000;
const PREFIX = 'pct1';

export interface PriceCommitment {
  sellerId: string;
  environment: string;
  skuId: string;
  country: string;
  currency: string;
  unitPriceCents: number;
  expiresAt: number;
}

/**
 * `pct1.<payload>.<mac>`: the preview's price, bound to seller, SKU, country and currency,
 * signed with a key derived from the master key. The token proves a price came from a preview;
 * the order still fails closed when the catalog price moved since (CATALOG_PRICE_MISMATCH).
 */
export function issueCommitment(ctx: AppContext, c: Omit<PriceCommitment, 'expiresAt'>): string | undefined {
  if (!ctx.secrets) return undefined;
  const payload = Buffer.from(
    JSON.stringify([
      c.sellerId,
      c.environment,
      c.skuId,
      c.country,
      c.currency,
      c.unitPriceCents,
      ctx.clock.now() + COMMITMENT_TTL_MS,
    ]),
  ).toString('base64url');
  return `${PREFIX}.${payload}.${ctx.secrets.sign(`${PREFIX}.${payload}`)}`;
}

const invalid = (reason: string) =>
  fail('PRICE_COMMITMENT_INVALID', 'priceCommitmentToken is not a valid commitment for this order.', {
    reason,
  });

/**
 * Verifies a token for this order's seller, SKU, country and currency at `now`: the committed
 * price, or the refusal.
 */
export function verifyCommitment(
  secrets: AppContext['secrets'],
  token: string,
  expected: Omit<PriceCommitment, 'unitPriceCents' | 'expiresAt'>,
  now: number,
): number | ApiError {
  const [prefix, payload, mac] = token.split('.');
  if (prefix !== PREFIX || !payload || !mac || !secrets) return invalid('malformed');
  if (!constantTimeEqual(mac, secrets.sign(`${PREFIX}.${payload}`))) return invalid('signature');
  const fields = parsedPayload(payload);
  if (!fields) return invalid('malformed');
  const [sellerId, environment, skuId, country, currency, price, expiresAt] = fields as [
    string,
    string,
    string,
    string,
    string,
    number,
    number,
  ];
  if (sellerId !== expected.sellerId || environment !== expected.environment) return invalid('seller');
  if (skuId !== expected.skuId) return invalid('sku');
  if (country !== expected.country || currency !== expected.currency) return invalid('country_or_currency');
  if (expiresAt <= now) return invalid('expired');
  return price;
}

/** The signed payload's fields; null when it is not the JSON array a commitment signs. */
function parsedPayload(payload: string): unknown[] | null {
  try {
    const fields: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return Array.isArray(fields) ? fields : null;
  } catch {
    return null;
  }
}
