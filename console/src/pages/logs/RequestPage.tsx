import { Link, useParams } from 'react-router';
import { ConsoleError } from '../../api/client';
import { useSession } from '../../components/session';
import { CopyButton, ErrorNotice, PageHeader } from '../../components/ui';
import { type LogRow, useRequestLogEntry } from '../../data/logs/queries';
import { formatDate } from '../../format';
import { statusPill } from './status-pill';

/** An error body's documentation link, when it carries one on this service's documentation. */
function docUrlOf(error: Record<string, unknown>): string | null {
  const url = error.doc_url;
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url : null;
}

function Facts({ row }: { row: LogRow }) {
  return (
    <dl className="facts card">
      <dt>Time</dt>
      <dd>{formatDate(row.at)}</dd>
      <dt>Request</dt>
      <dd className="mono wrap-anywhere">
        <span className="strong">{row.method}</span> {row.path}
      </dd>
      <dt>Route</dt>
      <dd className="mono wrap-anywhere">{row.route}</dd>
      <dt>Status</dt>
      <dd>
        <span className={statusPill(row.status)}>{row.status}</span>
      </dd>
      <dt>Error code</dt>
      <dd className="mono">{row.errorCode ?? '—'}</dd>
      <dt>Duration</dt>
      <dd>{row.durationMs} ms</dd>
      <dt>Key</dt>
      <dd>
        {row.keyName} <span className="muted small mono wrap-anywhere">({row.keyId})</span>
      </dd>
      <dt>Contract date</dt>
      <dd className="mono">{row.contractDate}</dd>
      <dt>Request id</dt>
      <dd className="copy-row">
        <code className="wrap-anywhere">{row.requestId}</code>
        <CopyButton text={row.requestId} label="Copy request id" />
      </dd>
    </dl>
  );
}

function ErrorBody({ error }: { error: Record<string, unknown> }) {
  const text = JSON.stringify(error, null, 2);
  const docUrl = docUrlOf(error);
  return (
    <section className="card" aria-labelledby="error-body-title">
      <div className="card-head">
        <h2 id="error-body-title">Error body</h2>
        <CopyButton text={text} label="Copy error body" />
      </div>
      {docUrl ? (
        <p>
          <a href={docUrl}>Documentation of {String(error.code ?? 'this error')}</a>
        </p>
      ) : null}
      <pre className="error-body full" data-testid="error-body">
        {text}
      </pre>
    </section>
  );
}

/** One request of the log on its own page, linkable by its request id. */
export function RequestPage() {
  const { requestId = '' } = useParams();
  const { environment } = useSession();
  const entry = useRequestLogEntry(requestId);
  const back = (
    <Link to="/logs" className="button ghost">
      Back to the request log
    </Link>
  );
  if (entry.error instanceof ConsoleError && entry.error.status === 404) {
    return (
      <>
        <PageHeader title="Request not found" actions={back} />
        <p>
          No request <code className="wrap-anywhere">{requestId}</code> in the {environment} log of the last
          14 days. Requests of the other environment are in its own log.
        </p>
      </>
    );
  }
  const row = entry.data;
  return (
    <>
      <PageHeader title="Request" actions={back} />
      <ErrorNotice error={entry.error} />
      {row ? (
        <>
          <Facts row={row} />
          {row.error ? (
            <ErrorBody error={row.error} />
          ) : (
            <p className="muted">A successful request: its body is never stored.</p>
          )}
        </>
      ) : null}
    </>
  );
}
