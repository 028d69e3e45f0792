import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { type Filter, FilterForm, queryOf } from '../../components/FilterForm';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import { useKeysetList } from '../../components/useKeysetList';

interface LogRow {
  requestId: string;
  at: string;
  keyId: string;
  keyName: string;
  method: string;
  route: string;
  path: string;
  status: number;
  errorCode: string | null;
  error: Record<string, unknown> | null;
  durationMs: number;
  contractDate: string;
}

const FILTERS: Filter[] = [
  { name: 'requestId', label: 'Request id', placeholder: 'req_…', grow: true },
  { name: 'status', label: 'Status', options: ['2xx', '4xx', '5xx'] },
  { name: 'code', label: 'Error code', placeholder: 'NO_AVAILABLE_KEYS' },
  { name: 'keyId', label: 'Key id' },
  { name: 'route', label: 'Route', placeholder: '/api/seller/v1/orders' },
  { name: 'since', label: 'Since', type: 'datetime-local' },
];

/** Every API request of the last 14 days in this environment; search by the requestId of any error body. */
export function LogsPage() {
  const [params] = useSearchParams();
  const [open, setOpen] = useState<string | null>(null);
  const logs = useKeysetList<LogRow>('logs', '/request-logs', queryOf(params, FILTERS), 'Older requests');
  return (
    <>
      <PageHeader
        title="Request log"
        description="Every API request of the last 14 days in this environment. Failures keep their error body; successful bodies, tokens and addresses are never stored."
      />
      <FilterForm filters={FILTERS} />
      <ErrorNotice error={logs.error} />
      <DataTable
        columns={columns(open, setOpen)}
        rows={logs.rows}
        rowKey={(row) => row.requestId}
        loaded={logs.loaded}
        empty="No request matches."
        caption="Requests"
        more={logs.more}
      />
    </>
  );
}

function columns(open: string | null, setOpen: (requestId: string | null) => void): Column<LogRow>[] {
  return [
    { header: 'Time', className: 'nowrap', cell: (row) => formatDate(row.at) },
    {
      header: 'Status',
      cell: (row) => (
        <>
          <span className={`pill ${row.status >= 400 ? 'pill-error' : 'pill-done'}`}>{row.status}</span>
          {row.errorCode ? <div className="small mono">{row.errorCode}</div> : null}
        </>
      ),
    },
    {
      header: 'Request',
      cell: (row) => (
        <>
          <span className="strong mono">{row.method}</span> <span className="mono">{row.path}</span>
          {row.error ? (
            <div>
              <button
                type="button"
                className="button ghost small"
                aria-expanded={open === row.requestId}
                onClick={() => setOpen(open === row.requestId ? null : row.requestId)}
              >
                {open === row.requestId ? 'Hide error' : 'Show error'}
              </button>
              {open === row.requestId ? (
                <pre className="error-body">{JSON.stringify(row.error, null, 2)}</pre>
              ) : null}
            </div>
          ) : null}
        </>
      ),
    },
    { header: 'Key', cell: (row) => row.keyName },
    { header: 'Duration', className: 'nowrap', cell: (row) => `${row.durationMs} ms` },
    { header: 'Request id', className: 'mono small nowrap', cell: (row) => row.requestId },
  ];
}
