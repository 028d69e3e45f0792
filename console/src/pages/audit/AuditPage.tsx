import { useInfiniteQuery } from '@tanstack/react-query';
import { type AuditRow, call } from '../../api/client';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';

interface AuditReply {
  data: AuditRow[];
  meta: { nextCursor: string | null };
}

const shown = (value: unknown) =>
  Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** A row's particulars, one per line: the field's name, then its value (lists comma-separated). */
function AuditDetail({ detail }: { detail: Record<string, unknown> }) {
  return (
    <>
      {Object.entries(detail).map(([name, value]) => (
        <div key={name} className="audit-detail">
          <span className="muted">{name}</span> <span className="mono">{shown(value)}</span>
        </div>
      ))}
    </>
  );
}

/** Who changed what and when, from the console, the API or the operator CLI; newest first. */
export function AuditPage() {
  const audit = useInfiniteQuery({
    queryKey: ['audit'],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      call<AuditReply>('GET', `/audit${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`),
    getNextPageParam: (last) => last.meta.nextCursor,
  });
  const rows = audit.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change to keys, users and sign-in settings, and every sign-in."
      />
      <ErrorNotice error={audit.error} />
      <div className="card table-card">
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">From</th>
              <th scope="col">What</th>
              <th scope="col">On</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td className="nowrap">{formatDate(row.at)}</td>
                <td>{row.actor.replace(/^user:/, '')}</td>
                <td>
                  <span className="pill">{row.source}</span>
                </td>
                <td>
                  <code>{row.action}</code>
                </td>
                <td className="mono small">{row.target ?? '—'}</td>
                <td className="small">
                  <AuditDetail detail={row.detail} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {audit.hasNextPage ? (
        <button type="button" className="button secondary" onClick={() => audit.fetchNextPage()}>
          Older entries
        </button>
      ) : null}
    </>
  );
}
