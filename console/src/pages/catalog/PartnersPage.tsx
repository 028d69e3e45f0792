import { DataTable } from '../../components/DataTable';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type Partner, usePartners } from '../../data/catalog/queries';
import { CatalogNav } from './CatalogNav';

function contractSentence(c: Partner['contracts']): string {
  const parts = [];
  if (c.activeBmaTypes.length) parts.push(`active: ${c.activeBmaTypes.join(', ')}`);
  if (c.pausedBmaTypes.length) parts.push(`paused: ${c.pausedBmaTypes.join(', ')}`);
  if (c.pendingBmaTypes.length) parts.push(`pending: ${c.pendingBmaTypes.join(', ')}`);
  return parts.length ? parts.join('; ') : 'no agreement in force';
}

/** The publishers the company is connected to, and the state of their contracts. */
export function PartnersPage() {
  const partners = usePartners();
  return (
    <>
      <PageHeader
        title="Partners"
        description="Publishers you are connected to. A paused or missing agreement stops sales of their products."
      />
      <CatalogNav />
      <ErrorNotice error={partners.error} />
      <DataTable
        caption="Partners"
        rows={partners.data ?? []}
        rowKey={(row) => row.id}
        loaded={Boolean(partners.data)}
        empty="No publisher is connected to your company yet."
        columns={[
          {
            header: 'Publisher',
            cell: (row) => (
              <>
                <span className="strong">{row.publisherCompanyName}</span>
                <div className="small muted">{row.country ?? ''}</div>
              </>
            ),
          },
          { header: 'API agreements', cell: (row) => contractSentence(row.contracts) },
          { header: 'Master agreement', cell: (row) => row.contracts.mcaStatus },
          {
            header: 'Catalog sharing',
            cell: (row) =>
              row.contracts.sharesSuspended
                ? 'suspended'
                : row.contracts.catalogShareMode.replaceAll('_', ' '),
          },
        ]}
      />
    </>
  );
}
