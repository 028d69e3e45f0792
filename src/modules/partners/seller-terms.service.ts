import type { AppContext } from '../../context.js';
import * as repo from './partners.repo.js';

export interface PublisherTerms {
  connectionId: string;
  publisherCompanyId: string;
  publisherName: string;
  agreements: repo.AgreementRow[];
}

/** What a seller's agreements say, per connected publisher (whoami, partners, checkout rules). */
export async function sellerTerms(
  ctx: AppContext,
  sellerId: string,
  environment: string,
): Promise<PublisherTerms[]> {
  const connections = await repo.connectionsOfSeller(ctx.db, sellerId, environment);
  const agreements = await repo.agreementsOfConnections(
    ctx.db,
    connections.map((c) => c.id),
  );
  return connections.map((c) => ({
    connectionId: c.id,
    publisherCompanyId: c.publisher_company_id,
    publisherName: c.publisher_name,
    agreements: agreements.filter((a) => a.connection_id === c.id),
  }));
}

/** The API agreement in force with a publisher: an active BMA of type `api`. */
export const inForceApiAgreement = (terms: PublisherTerms) =>
  terms.agreements.find((a) => a.kind === 'bma' && a.bma_type === 'api' && a.status === 'active') ?? null;

/** The whoami sections derived from agreements. */
export async function whoamiTerms(
  ctx: AppContext,
  sellerId: string,
  environment: string,
  footprintCountries: string[],
) {
  const terms = await sellerTerms(ctx, sellerId, environment);
  const rated = new Set(['USD', ...(await repo.referenceRateCurrencies(ctx.db)).map((r) => r.currency_code)]);
  const permittedCurrenciesByPublisher = [];
  const geoPolicyByPublisher = [];
  const locked = new Set<string>();
  const withoutRate = new Set<string>();
  for (const t of terms) {
    const api = inForceApiAgreement(t);
    if (!api) continue;
    const currencyDetail = JSON.parse(api.currency_detail) as Record<string, string[] | 'territory'>;
    const regionLocks = JSON.parse(api.region_locks) as string[];
    permittedCurrenciesByPublisher.push({
      publisherCompanyId: t.publisherCompanyId,
      publisherName: t.publisherName,
      contractId: api.id,
      currencyMode: api.currency_mode,
      currencyDetail,
      permittedChannels: api.permitted_channels,
      marketplaceSlugs: JSON.parse(api.marketplace_slugs) as string[],
    });
    geoPolicyByPublisher.push({
      publisherCompanyId: t.publisherCompanyId,
      publisherName: t.publisherName,
      consumerGeoPolicy: api.consumer_geo_policy,
      regionLocks,
    });
    for (const country of regionLocks) locked.add(country);
    for (const [currency, countries] of Object.entries(currencyDetail)) {
      if (rated.has(currency) || countries === 'territory') continue;
      for (const country of countries) withoutRate.add(country);
    }
  }
  const relevant = (countries: Set<string>) =>
    [...countries].filter((c) => footprintCountries.length === 0 || footprintCountries.includes(c)).sort();
  return {
    hasActiveBma: terms.some((t) => t.agreements.some((a) => a.kind === 'bma' && a.status === 'active')),
    permittedCurrenciesByPublisher,
    geoPolicyByPublisher,
    regionLockedCountries: relevant(locked),
    countriesWithoutReferenceRate: relevant(withoutRate),
  };
}

const typesOf = (agreements: repo.AgreementRow[], status: string) => [
  ...new Set(
    agreements.filter((a) => a.kind === 'bma' && a.status === status).map((a) => a.bma_type ?? 'api'),
  ),
];

/** GET /partners: one row per publisher connection, with the read-only contracts summary. */
export async function listPartners(ctx: AppContext, sellerId: string, environment: string) {
  const connections = await repo.connectionsOfSeller(ctx.db, sellerId, environment);
  const agreements = await repo.agreementsOfConnections(
    ctx.db,
    connections.map((c) => c.id),
  );
  return connections.map((c) => {
    const own = agreements.filter((a) => a.connection_id === c.id);
    const mca = own.filter((a) => a.kind === 'mca' && a.status !== 'superseded').at(-1);
    return {
      id: c.id,
      publisherCompanyId: c.publisher_company_id,
      publisherCompanyName: c.publisher_name,
      website: c.publisher_website,
      country: c.publisher_country,
      description: c.publisher_description,
      logo: c.publisher_logo_url ? { url: c.publisher_logo_url } : null,
      invoicingEnabled: c.invoicing_enabled === 1,
      selfBilling: c.self_billing === 1,
      createdAt: new Date(c.created_at).toISOString(),
      updatedAt: new Date(c.updated_at).toISOString(),
      contracts: {
        activeBmaTypes: typesOf(own, 'active'),
        pausedBmaTypes: typesOf(own, 'paused'),
        pendingBmaTypes: typesOf(own, 'pending'),
        mcaStatus: mca?.status ?? 'none',
        catalogShareMode: c.catalog_share_mode,
        sharesSuspended: c.shares_suspended === 1,
      },
    };
  });
}
