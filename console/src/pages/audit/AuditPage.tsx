import { type Column, DataTable } from '../../components/DataTable';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import { type AuditRow, useAuditLog } from '../../data/audit/queries';

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

const columns: Column<AuditRow>[] = [
  { header: 'When', className: 'nowrap', cell: (row) => formatDate(row.at) },
  { header: 'Who', cell: (row) => row.actor.replace(/^user:/, '') },
  { header: 'From', cell: (row) => <span className="pill">{row.source}</span> },
  { header: 'What', cell: (row) => <code>{row.action}</code> },
  { header: 'On', className: 'mono small', cell: (row) => row.target ?? '—' },
  { header: 'Details', className: 'small', cell: (row) => <AuditDetail detail={row.detail} /> },
];

/** Who changed what and when, from the console, the API or the operator CLI; newest first. */
export function AuditPage() {
  const audit = useAuditLog();
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change to keys, users and sign-in settings, and every sign-in."
      />
      <ErrorNotice error={audit.error} />
      <DataTable
        columns={columns}
        rows={audit.rows}
        rowKey={(row) => row.id}
        loaded={audit.loaded}
        empty="Nothing recorded yet."
        caption="Audit log"
        more={audit.more}
      />
    </>
  );
}
