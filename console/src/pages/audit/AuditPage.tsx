import { useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { type Filter, FilterForm, queryOf } from '../../components/FilterForm';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type AuditRow, useAuditLog } from '../../data/audit/queries';
import { formatMoney, formatNumber, formatTime } from '../../format';

/** Who acted, as the page shows it: a console user by email; an API key, the operator as stored. */
const actorShown = (actor: string) => actor.replace(/^user:/, '');
/** The stored actor of what a reader types: an email is a console user's. */
const actorQueried = (typed: string) =>
  typed.includes('@') && !typed.includes(':') ? `user:${typed}` : typed;

const FILTERS: Filter[] = [
  { name: 'actor', label: 'Who', placeholder: 'email, key:… or operator' },
  { name: 'action', label: 'Action', placeholder: 'refund.created' },
  { name: 'from', label: 'From', type: 'datetime-local' },
  { name: 'to', label: 'To', type: 'datetime-local' },
];

interface Amount {
  currencyCode: string;
  grossCents: number;
}
const isAmounts = (value: unknown): value is Amount[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null && 'grossCents' in v);

/** A detail value in words: money in its currency, numbers with separators, lists comma-separated. */
function shown(value: unknown): string {
  if (isAmounts(value)) return value.map((a) => formatMoney(a.grossCents, a.currencyCode)).join(', ') || '—';
  if (Array.isArray(value)) return value.map(shown).join(', ');
  if (typeof value === 'number') return formatNumber(value);
  if (value === null) return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A row's particulars, one per line: the field's name, then its value. */
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
  { header: 'When', className: 'nowrap', cell: (row) => formatTime(row.at) },
  { header: 'Who', className: 'id-text', cell: (row) => actorShown(row.actor) },
  { header: 'From', cell: (row) => <span className="pill">{row.source}</span> },
  { header: 'What', cell: (row) => <code>{row.action}</code> },
  { header: 'On', cell: (row) => <span className="mono small id-text">{row.target ?? '—'}</span> },
  { header: 'Details', className: 'small', cell: (row) => <AuditDetail detail={row.detail} /> },
];

/**
 * Who changed what and when, from the console, the API, the operator or its CLI; newest first,
 * narrowed by who, action and time span (kept in the URL).
 */
export function AuditPage() {
  const [params] = useSearchParams();
  const query = queryOf(params, FILTERS);
  const actor = query.get('actor');
  if (actor) query.set('actor', actorQueried(actor));
  const audit = useAuditLog(query);
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change to keys, users, webhooks and sign-in settings, every sign-in, and every money action: refunds, chargebacks, returns and replacements."
      />
      <FilterForm filters={FILTERS} />
      <ErrorNotice error={audit.error} />
      <DataTable
        columns={columns}
        rows={audit.rows}
        rowKey={(row) => row.id}
        loaded={audit.loaded}
        empty={params.toString() ? 'No entry matches.' : 'Nothing recorded yet.'}
        caption="Audit log"
        more={audit.more}
        stackOnPhones
      />
    </>
  );
}
