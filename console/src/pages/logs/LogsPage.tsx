import { Link, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { type Filter, FilterForm, queryOf } from '../../components/FilterForm';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type LogKey, type LogRow, useLoggedKeys, useRequestLogs } from '../../data/logs/queries';
import { formatDate } from '../../format';
import { statusPill } from './status-pill';

const filtersOf = (keys: readonly LogKey[]): Filter[] => [
  { name: 'requestId', label: 'Request id', placeholder: 'req_…', grow: true },
  { name: 'status', label: 'Status', options: ['2xx', '4xx', '5xx'] },
  { name: 'code', label: 'Error code', placeholder: 'NO_AVAILABLE_KEYS' },
  { name: 'keyId', label: 'Key', options: keys.map((key) => [key.id, key.name] as const) },
  { name: 'route', label: 'Route', placeholder: '/api/seller/v1/orders' },
  { name: 'since', label: 'From', type: 'datetime-local' },
  { name: 'until', label: 'Until', type: 'datetime-local' },
];

const columns: Column<LogRow>[] = [
  { header: 'Time', className: 'nowrap', cell: (row) => formatDate(row.at) },
  {
    header: 'Status',
    cell: (row) => (
      <>
        <span className={statusPill(row.status)}>{row.status}</span>
        {row.errorCode ? <div className="small mono log-code">{row.errorCode}</div> : null}
      </>
    ),
  },
  {
    header: 'Request',
    cell: (row) => (
      <Link to={`/logs/${encodeURIComponent(row.requestId)}`} className="log-request">
        <span className="strong mono">{row.method}</span> <span className="mono">{row.path}</span>
        <span className="small mono muted log-id">{row.requestId}</span>
      </Link>
    ),
  },
  { header: 'Key', cell: (row) => row.keyName },
  { header: 'Duration', className: 'nowrap num', cell: (row) => `${row.durationMs} ms` },
];

/** Every API request of the last 14 days in this environment; each opens on its own page. */
export function LogsPage() {
  const [params] = useSearchParams();
  const keys = useLoggedKeys();
  const filters = filtersOf(keys.data ?? []);
  const logs = useRequestLogs(queryOf(params, filters));
  return (
    <>
      <PageHeader
        title="Request log"
        description="Every API request of the last 14 days in this environment. Failures keep their error body; successful bodies, tokens and addresses are never stored. Open a request to see its error in full."
      />
      {/* Rebuilt once the key names arrive, so a key chosen in the URL shows as selected. */}
      <FilterForm key={keys.data ? 'keys' : 'no-keys'} filters={filters} />
      <ErrorNotice error={logs.error} />
      <DataTable
        columns={columns}
        rows={logs.rows}
        rowKey={(row) => row.requestId}
        loaded={logs.loaded}
        empty="No request matches."
        caption="Requests"
        more={logs.more}
        stackOnPhones
      />
    </>
  );
}
