import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { type ApiError, fail } from '../../http/errors.js';
import { SELLER_PREFIX } from '../../http/listeners.js';
import { isoOf, isoOrNull } from '../../lib/clock.js';
import { randomToken } from '../../lib/crypto.js';
import * as repo from './geo-attest.repo.js';

/** How long a checkout has to capture an attestation and place its order. */
export const ATTESTATION_TTL_MS = 60 * 60_000;
/** A captured address is kept this long after its attestation expires, then emptied. */
export const ADDRESS_RETENTION_MS = 7 * 24 * 3_600_000;

export interface AttestingSeller {
  sellerId: string;
  environment: string;
  apiKeyId: string;
}

export const capturePath = (id: string) => `${SELLER_PREFIX}/geo-attestations/${id}/capture`;

/** The attestation as its seller sees it: never the captured address. */
export function attestationView(ctx: AppContext, row: repo.AttestationRow) {
  const now = ctx.clock.now();
  const status = row.order_reference
    ? 'spent'
    : row.expires_at <= now
      ? 'expired'
      : row.captured_at !== null
        ? 'captured'
        : 'pending';
  return {
    attestId: row.id,
    status: status as 'pending' | 'captured' | 'spent' | 'expired',
    captureUrl: `${ctx.config.publicUrl}${capturePath(row.id)}`,
    expiresAt: isoOf(row.expires_at),
    capturedAt: isoOrNull(row.captured_at),
    countryCode: row.country_code,
    orderReference: row.order_reference,
  };
}

/** POST /geo-attestations: a fresh, unguessable attestation for one checkout of the caller. */
export async function createAttestation(ctx: AppContext, seller: AttestingSeller) {
  const now = ctx.clock.now();
  const row = {
    id: `gat_${randomToken(24)}`,
    company_id: seller.sellerId,
    environment: seller.environment,
    api_key_id: seller.apiKeyId,
    expires_at: now + ATTESTATION_TTL_MS,
    captured_at: null,
    country_code: null,
    address_sealed: null,
    address_cleared_at: null,
    order_reference: null,
    spent_at: null,
    created_at: now,
  };
  await repo.insertAttestation(ctx.db, row);
  return attestationView(ctx, row);
}

/** One attestation of the caller; another company's is not found. */
export async function getAttestation(ctx: AppContext, seller: AttestingSeller, id: string) {
  const row = await repo.findAttestation(ctx.db, id);
  if (!row || row.company_id !== seller.sellerId || row.environment !== seller.environment) {
    throw fail('NOT_FOUND', 'No such geo attestation.', { attestId: id });
  }
  return attestationView(ctx, row);
}

/**
 * The buyer's browser calls this directly: the service looks up the country of the address the
 * call came from (docs/geo-ip.md) and keeps it, with the address sealed until the clearing job.
 * Captured once, while live.
 */
export async function captureAttestation(ctx: AppContext, id: string, clientIp: string | null) {
  if (!clientIp) throw fail('IP_NOT_RESOLVABLE', 'The address of this call could not be determined.');
  if (!ctx.secrets) throw fail('INTERNAL_ERROR', 'No master key is configured: addresses cannot be sealed.');
  const row = await repo.findAttestation(ctx.db, id);
  if (!row) throw fail('NOT_FOUND', 'No such geo attestation.', { attestId: id });
  const now = ctx.clock.now();
  const countryCode = ctx.geoIp.countryOf(clientIp);
  const captured = await repo.captureOnce(ctx.db, id, {
    countryCode,
    addressSealed: ctx.secrets.seal(clientIp),
    now,
  });
  if (!captured) {
    const reason = row.expires_at <= now ? 'expired' : 'already_captured';
    throw fail('GEO_ATTESTATION_CLOSED', `The geo attestation is ${reason.replace('_', ' ')}.`, {
      attestId: id,
      reason,
    });
  }
  return { attestId: id, status: 'captured' as const, countryCode, expiresAt: isoOf(row.expires_at) };
}

const refuse = (why: string) =>
  fail('VALIDATION_FAILED', `consumerGeoAttestId ${why}.`, {
    issues: [{ field: 'consumerGeoAttestId', in: 'body', message: why, keyword: 'attestation' }],
  });

/**
 * The evidence an attestation gives a checkout line, judged before the order's transaction:
 * it must be the caller's, captured and live at `now`, and not spent on another reference.
 * Anything else is VALIDATION_FAILED naming the field, answered as the value (the checkout
 * judges it in its place among the gates). The spend itself is in the order's transaction.
 */
export async function attestedCountry(
  ex: Executor,
  seller: AttestingSeller,
  id: string,
  orderReference: string | undefined,
  now: number,
): Promise<{ countryCode: string | null } | ApiError> {
  const row = await repo.findAttestation(ex, id);
  if (!row || row.company_id !== seller.sellerId || row.environment !== seller.environment) {
    return refuse('is not an attestation of yours');
  }
  if (row.captured_at === null) return refuse("was not captured by the buyer's page");
  if (row.expires_at <= now) return refuse('has expired');
  if (row.order_reference !== null && row.order_reference !== orderReference) {
    return refuse('was already spent on another order');
  }
  return { countryCode: row.country_code };
}

/** Spends the attestation on the order's reference, inside the order's transaction. */
export async function spendAttestation(
  trx: Executor,
  seller: AttestingSeller,
  id: string,
  orderReference: string,
  now: number,
): Promise<void> {
  const spent = await repo.spendOnReference(trx, {
    id,
    companyId: seller.sellerId,
    environment: seller.environment,
    orderReference,
    now,
  });
  if (!spent) throw refuse('is no longer live or was spent on another order');
}

/** The clearing job: addresses of attestations expired more than 7 days ago are emptied. */
export function clearCapturedAddresses(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  return repo.clearAddresses(ctx.db, now - ADDRESS_RETENTION_MS, now);
}
