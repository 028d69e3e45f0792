import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/auth/principal.js';
import { fail } from '../../http/errors.js';
import { isoOrNull } from '../../lib/clock.js';
import { PLATFORM_REFUND_POLICY } from '../allocations/index.js';
import { companyFacts } from '../companies/index.js';
import { whoamiTerms } from '../partners/index.js';
import { MAGIC_SKUS } from '../sandbox/index.js';

const CHECKOUT_DECLARATIONS = [
  'integrationOrderContext.salesTaxRatePercent',
  'integrationOrderContext.salesPriceGrossMinor',
  'integrationOrderContext.salesChannel',
  'integrationOrderContext.salesCountryCode',
];

/** What a sandbox key can try: every magic SKU and its behaviour, and where the table lives. */
const sandboxNotes = (publicUrl: string) => ({
  docUrl: `${publicUrl}/docs#section/Sandbox`,
  magicSkus: MAGIC_SKUS.map((magic) => ({ skuCode: magic.code, behaviour: magic.description })),
});

/** GET /whoami: every value derived from what is stored for the key and company. */
export async function whoami(ctx: AppContext, principal: Principal) {
  const { company, footprint } = await companyFacts(ctx, principal.companyId);
  const terms = (await ctx.companyCache.getOrLoad(
    `terms:${principal.companyId}:${principal.environment}`,
    ctx.clock.now(),
    () => whoamiTerms(ctx, principal.companyId, principal.environment, footprint.countries),
  )) as Awaited<ReturnType<typeof whoamiTerms>>;
  if (!company)
    throw fail('UNAUTHORIZED', 'The company of this key no longer exists.', { reason: 'company_missing' });
  const production = principal.environment === 'production';
  const blockers: { code: string; action: string; countries?: string[] }[] = [];
  if (!company.country) blockers.push({ code: 'STORE_COUNTRY_MISSING', action: 'register_company_country' });
  if (terms.regionLockedCountries.length > 0) {
    blockers.push({
      code: 'REGION_LOCKED',
      countries: terms.regionLockedCountries,
      action: 'review_publisher_region_locks',
    });
  }
  return {
    companyId: company.id,
    companyName: company.name,
    environment: principal.environment,
    scopes: [...principal.scopes],
    hasActiveBma: terms.hasActiveBma,
    capabilities: {
      checkoutHoldEnabled: company.checkoutHoldEnabled,
      keylessEnabled: company.keylessEnabled,
      capabilityDetails: { preorder: { verifiedAt: isoOrNull(company.preorderVerifiedAt) } },
    },
    key: {
      id: principal.keyId,
      name: principal.keyName,
      rateLimited: !production,
      expiresAt: isoOrNull(principal.expiresAt),
      ipRestricted: (principal.allowedIps?.length ?? 0) > 0,
    },
    footprint: {
      countries: footprint.countries,
      currencies: footprint.currencies,
      countriesWithoutReferenceRate: terms.countriesWithoutReferenceRate,
    },
    permittedCurrenciesByPublisher: terms.permittedCurrenciesByPublisher,
    geoPolicyByPublisher: terms.geoPolicyByPublisher,
    requiredDeclarations: production
      ? [...CHECKOUT_DECLARATIONS, 'integrationOrderContext.consumerIp']
      : CHECKOUT_DECLARATIONS,
    requiredDeclarationsNote:
      'POST /orders, /orders/commit and /keys/pull refuse before any key moves when a required declaration is missing. consumerIp is required on production checkout; it is resolved to a country and never stored.',
    integrationReadiness: { blockers },
    settlement: { invoiceWithinDays: null },
    refundPolicy: PLATFORM_REFUND_POLICY,
    sandboxNotes: production ? null : sandboxNotes(ctx.config.publicUrl),
  };
}
