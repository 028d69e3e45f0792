import type { AppContext } from '../../../context.js';
import { fail } from '../../../http/errors.js';
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

/** Verifies a token for this order's seller, SKU, country and currency; returns the committed price. */
export function verifyCommitment(
  ctx: AppContext,
  token: string,
  expected: Omit<PriceCommitment, 'unitPriceCents' | 'expiresAt'>,
): number {
  const [prefix, payload, mac] = token.split('.');
  if (prefix !== PREFIX || !payload || !mac || !ctx.secrets) throw invalid('malformed');
  if (!constantTimeEqual(mac, ctx.secrets.sign(`${PREFIX}.${payload}`))) throw invalid('signature');
  let fields: unknown[];
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('malformed');
  }
  const [sellerId, environment, skuId, country, currency, price, expiresAt] = fields as [
    string,
    string,
    string,
    string,
    string,
    number,
    number,
  ];
  if (sellerId !== expected.sellerId || environment !== expected.environment) throw invalid('seller');
  if (skuId !== expected.skuId) throw invalid('sku');
  if (country !== expected.country || currency !== expected.currency) throw invalid('country_or_currency');
  if (expiresAt <= ctx.clock.now()) throw invalid('expired');
  return price;
}
