import { useInfiniteQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { useSession } from '../../components/session';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';

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

const FILTERS = ['requestId', 'status', 'code', 'keyId', 'route', 'since'] as const;

/** Every API request of the last 14 days in this environment; search by the requestId of any error body. */
export function LogsPage() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState<string | null>(null);
  const query = new URLSearchParams();
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) query.set(name, name === 'since' ? new Date(value).toISOString() : value);
  }
  const logs = useInfiniteQuery({
    queryKey: ['logs', session.environment, query.toString()],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const page = new URLSearchParams(query);
      if (pageParam) page.set('cursor', pageParam);
      return call<{ data: LogRow[]; meta: { nextCursor: string | null } }>('GET', `/request-logs?${page}`);
    },
    getNextPageParam: (last) => last.meta.nextCursor,
  });
  const rows = logs.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      <PageHeader
        title="Request log"
        description="Every API request of the last 14 days in this environment. Failures keep their error body; successful bodies, tokens and addresses are never stored."
      />
      <form
        className="card filters"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const next = new URLSearchParams();
          for (const name of FILTERS) {
            const value = String(form.get(name) ?? '').trim();
            if (value) next.set(name, value);
          }
          setParams(next);
        }}
      >
        <label className="field grow">
          <span>Request id</span>
          <input name="requestId" defaultValue={params.get('requestId') ?? ''} placeholder="req_…" />
        </label>
        <label className="field">
          <span>Status</span>
          <select name="status" defaultValue={params.get('status') ?? ''}>
            <option value="">any</option>
            <option value="2xx">2xx</option>
            <option value="4xx">4xx</option>
            <option value="5xx">5xx</option>
          </select>
        </label>
        <label className="field">
          <span>Error code</span>
          <input name="code" defaultValue={params.get('code') ?? ''} placeholder="NO_AVAILABLE_KEYS" />
        </label>
        <label className="field">
          <span>Key id</span>
          <input name="keyId" defaultValue={params.get('keyId') ?? ''} />
        </label>
        <label className="field">
          <span>Route</span>
          <input name="route" defaultValue={params.get('route') ?? ''} placeholder="/api/seller/v1/orders" />
        </label>
        <label className="field">
          <span>Since</span>
          <input name="since" type="datetime-local" defaultValue={params.get('since') ?? ''} />
        </label>
        <div className="filter-actions">
          <button type="submit" className="button primary">
            Search
          </button>
          <button type="button" className="button ghost" onClick={() => setParams(new URLSearchParams())}>
            Clear
          </button>
        </div>
      </form>
      <ErrorNotice error={logs.error} />
      <div className="card table-card">
        <table>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Status</th>
              <th scope="col">Request</th>
              <th scope="col">Key</th>
              <th scope="col">Duration</th>
              <th scope="col">Request id</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && logs.data ? (
              <tr>
                <td colSpan={6} className="muted">
                  No request matches.
                </td>
              </tr>
            ) : null}
            {rows.map((row) => (
              <Fragment key={row.requestId}>
                <tr>
                  <td className="nowrap">{formatDate(row.at)}</td>
                  <td>
                    <span className={`pill ${row.status >= 400 ? 'pill-error' : 'pill-done'}`}>
                      {row.status}
                    </span>
                    {row.errorCode ? <div className="small mono">{row.errorCode}</div> : null}
                  </td>
                  <td>
                    <span className="strong mono">{row.method}</span> <span className="mono">{row.path}</span>
                    {row.error ? (
                      <div>
                        <button
                          type="button"
                          className="button ghost small"
                          aria-expanded={open === row.requestId}
                          aria-controls={`error-${row.requestId}`}
                          onClick={() => setOpen(open === row.requestId ? null : row.requestId)}
                        >
                          {open === row.requestId ? 'Hide error' : 'Show error'}
                        </button>
                      </div>
                    ) : null}
                  </td>
                  <td>{row.keyName}</td>
                  <td className="nowrap">{row.durationMs} ms</td>
                  <td className="mono small">{row.requestId}</td>
                </tr>
                {row.error && open === row.requestId ? (
                  <tr id={`error-${row.requestId}`}>
                    <td colSpan={6}>
                      <pre className="error-body error-body-wide">{JSON.stringify(row.error, null, 2)}</pre>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      {logs.hasNextPage ? (
        <button type="button" className="button secondary" onClick={() => logs.fetchNextPage()}>
          Older requests
        </button>
      ) : null}
    </>
  );
}
