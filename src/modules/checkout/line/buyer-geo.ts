import { createHmac } from 'node:crypto';
import type { AppContext } from '../../../context.js';
import { type ApiError, fail } from '../../../http/errors.js';
import { normalizeIp } from '../../../lib/ip.js';

/**
 * Peppered, truncated hash of a buyer IP (SDAPI_IP_PEPPER): 96 bits of HMAC-SHA256. Joins equal
 * addresses; without the pepper nobody can reverse it by enumerating the address space.
 */
export const consumerIpHash = (pepper: string, ip: string): string =>
  createHmac('sha256', pepper).update(ip).digest().subarray(0, 12).toString('base64url');

export interface BuyerGeo {
  declaredCountry: string;
  detectedCountryCode: string | null;
  countryMismatch: boolean;
  consumerIpHash: string | null;
  /** Strongest first: 1 checkout attestation, 2 IP agrees with the declaration, 3 declaration alone. */
  evidenceRank: 1 | 2 | 3;
  /** The detected country is the one a checkout-page attestation observed. */
  attested: boolean;
}

/**
 * Resolves the buyer's IP to a country at request time (docs/geo-ip.md) and keeps only the
 * country, whether it disagrees with the declaration, and a peppered truncated hash: the
 * address itself never leaves this function. A checkout-page attestation (already checked:
 * the caller's, captured, live, unspent) that observed a country is the stronger evidence: its
 * country is the detected one, and it ranks 1 when it agrees with the declaration. One that
 * observed no country (a private address) leaves the evidence to the declared IP. A declared
 * IP that is not an address is refused (the refusal is the answer).
 */
export function resolveBuyerGeo(
  ctx: AppContext,
  declaredCountry: string,
  consumerIp: string | undefined,
  attestation: { countryCode: string | null } | null,
): BuyerGeo | ApiError {
  let detected: string | null = null;
  let hash: string | null = null;
  if (consumerIp !== undefined) {
    const ip = normalizeIp(consumerIp);
    if (!ip) {
      return fail('VALIDATION_FAILED', 'integrationOrderContext.consumerIp is not an IP address.', {
        issues: [
          {
            field: 'integrationOrderContext.consumerIp',
            in: 'body',
            message: 'must be an IPv4 or IPv6 address',
            keyword: 'format',
          },
        ],
      });
    }
    detected = ctx.geoIp.countryOf(ip);
    hash = ctx.config.ipPepper ? consumerIpHash(ctx.config.ipPepper, ip) : null;
  }
  const attested = attestation?.countryCode != null;
  if (attested) detected = attestation!.countryCode;
  const countryMismatch = detected !== null && detected !== declaredCountry;
  const agrees = detected !== null && !countryMismatch;
  const evidenceRank = agrees ? (attested ? 1 : 2) : 3;
  return {
    declaredCountry,
    detectedCountryCode: detected,
    countryMismatch,
    consumerIpHash: hash,
    evidenceRank,
    attested,
  };
}
