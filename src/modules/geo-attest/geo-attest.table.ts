/**
 * A checkout-page geo attestation (docs/checkout.md): created by the seller for one checkout,
 * captured by the buyer's browser calling the service directly, spent on one order reference.
 */
export interface GeoAttestationsTable {
  id: string;
  company_id: string;
  environment: string;
  api_key_id: string;
  expires_at: number;
  captured_at: number | null;
  /** The country of the address the capture came from; null when it resolves to none. */
  country_code: string | null;
  /** The captured address, sealed under the master key; emptied by the clearing job. */
  address_sealed: string | null;
  address_cleared_at: number | null;
  /** The order reference it was spent on (a retry of that reference may use it again). */
  order_reference: string | null;
  spent_at: number | null;
  created_at: number;
}
