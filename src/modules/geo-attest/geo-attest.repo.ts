import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { GeoAttestationsTable } from './geo-attest.table.js';

export type AttestationRow = Selectable<GeoAttestationsTable>;

export async function insertAttestation(ex: Executor, row: Insertable<GeoAttestationsTable>): Promise<void> {
  await ex.insertInto('geo_attestations').values(row).execute();
}

export function findAttestation(ex: Executor, id: string) {
  return ex.selectFrom('geo_attestations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records the capture once, while the attestation is live; false when it was not (any more) capturable. */
export async function captureOnce(
  ex: Executor,
  id: string,
  capture: { countryCode: string | null; addressSealed: string; now: number },
): Promise<boolean> {
  const result = await ex
    .updateTable('geo_attestations')
    .set({
      captured_at: capture.now,
      country_code: capture.countryCode,
      address_sealed: capture.addressSealed,
    })
    .where('id', '=', id)
    .where('captured_at', 'is', null)
    .where('expires_at', '>', capture.now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Spends a captured, live attestation of the company on one reference (the same reference may
 * spend it again: a retry). False when any of that does not hold; the caller's transaction
 * then refuses the order.
 */
export async function spendOnReference(
  ex: Executor,
  s: { id: string; companyId: string; environment: string; orderReference: string; now: number },
): Promise<boolean> {
  const result = await ex
    .updateTable('geo_attestations')
    .set({ order_reference: s.orderReference, spent_at: s.now })
    .where('id', '=', s.id)
    .where('company_id', '=', s.companyId)
    .where('environment', '=', s.environment)
    .where('captured_at', 'is not', null)
    .where('expires_at', '>', s.now)
    .where((eb) => eb.or([eb('order_reference', 'is', null), eb('order_reference', '=', s.orderReference)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Empties the sealed addresses of attestations that expired before `expiredBefore`; returns how many. */
export async function clearAddresses(ex: Executor, expiredBefore: number, now: number): Promise<number> {
  const result = await ex
    .updateTable('geo_attestations')
    .set({ address_sealed: null, address_cleared_at: now })
    .where('address_sealed', 'is not', null)
    .where('expires_at', '<=', expiredBefore)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
