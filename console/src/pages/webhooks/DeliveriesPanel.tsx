import { useMemo, useState } from 'react';
import { Dialog, ErrorNotice, OkNotice, TableHead } from '../../components/ui';
import {
  type Endpoint,
  type ReplayPreview,
  useDeliveries,
  useReplay,
  useReplayPreview,
  useResend,
} from '../../data/webhooks/queries';
import { countOf, formatNumber, formatTime } from '../../format';
import { extraError, outcome } from './outcome';

/**
 * One endpoint's delivery log, newest first, with resend per event, replay of failures since a
 * time, and a way to each event's deliveries across every endpoint.
 */
export function DeliveriesPanel({
  endpoint,
  eventTypes,
  writable,
  onShowEvent,
}: {
  endpoint: Endpoint;
  eventTypes: string[];
  writable: boolean;
  onShowEvent: (eventId: string) => void;
}) {
  const [notice, setNotice] = useState<string | null>(null);
  const [since, setSince] = useState('');
  const [status, setStatus] = useState('');
  const [eventType, setEventType] = useState('');
  const [preview, setPreview] = useState<ReplayPreview | null>(null);
  const filter = useMemo(() => {
    const query = new URLSearchParams();
    if (status) query.set('status', status);
    if (eventType) query.set('eventType', eventType);
    return query;
  }, [status, eventType]);
  const log = useDeliveries(endpoint.id, filter);
  const resend = useResend((status, _, eventId) => setNotice(`Event ${eventId} queued again (${status}).`));
  const count = useReplayPreview(endpoint.id, setPreview);
  const replay = useReplay(endpoint.id, (replayed) => {
    setPreview(null);
    setNotice(
      replayed.replayed === 0
        ? 'Nothing to replay: every event since then was delivered or is still being tried.'
        : `${countOf(replayed.replayed, 'event')} queued again${replayed.more ? '; replay again for the rest' : ''}.`,
    );
  });
  const sinceIso = () => new Date(since).toISOString();
  return (
    <section className="card" aria-labelledby="deliveries-title">
      <div className="card-head">
        <div>
          <h2 id="deliveries-title">Deliveries</h2>
          <p className="muted small mono">{endpoint.url}</p>
        </div>
      </div>
      {writable ? (
        <form
          className="filters replay-form"
          onSubmit={(event) => {
            event.preventDefault();
            count.mutate(sinceIso());
          }}
        >
          <label className="field grow">
            <span>Replay failed and undelivered events since</span>
            <input
              type="datetime-local"
              required
              value={since}
              onChange={(event) => setSince(event.target.value)}
            />
          </label>
          <div className="filter-actions">
            <button type="submit" className="button secondary" disabled={!since || count.isPending}>
              Replay…
            </button>
          </div>
        </form>
      ) : null}
      {preview ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : setPreview(null))}
          title={preview.count === 0 ? 'Nothing to replay' : `Replay ${countOf(preview.count, 'event')}?`}
          description={
            preview.count === 0
              ? 'Every event since then was delivered or is still being tried.'
              : `${countOf(preview.count, 'event')} since ${formatTime(preview.from)} failed or never reached ${endpoint.url}; they are queued again, oldest first${preview.count > preview.perCall ? `, ${formatNumber(preview.perCall)} per replay` : ''}. Events from before the endpoint existed are never replayed.`
          }
        >
          <ErrorNotice error={replay.error} />
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={() => setPreview(null)}>
              {preview.count === 0 ? 'Close' : 'Cancel'}
            </button>
            {preview.count > 0 ? (
              <button
                type="button"
                className="button primary"
                onClick={() => replay.mutate(sinceIso())}
                disabled={replay.isPending}
              >
                Replay {countOf(Math.min(preview.count, preview.perCall), 'event')}
              </button>
            ) : null}
          </div>
        </Dialog>
      ) : null}
      <form className="filters" aria-label="Filter deliveries" onSubmit={(event) => event.preventDefault()}>
        <label className="field">
          <span>Result</span>
          <select value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="">Any</option>
            <option value="succeeded">Succeeded (2xx)</option>
            <option value="failed">Failed</option>
          </select>
        </label>
        <label className="field">
          <span>Event type</span>
          <select value={eventType} onChange={(event) => setEventType(event.target.value)}>
            <option value="">Any</option>
            {['test.ping', ...eventTypes].map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
      </form>
      <OkNotice message={notice} />
      <ErrorNotice error={log.error ?? resend.error ?? count.error} />
      <div className="table-card">
        <table>
          <TableHead
            columns={[
              'Attempted',
              'Event',
              'Attempt',
              'Result',
              'Duration',
              'Next retry',
              writable && 'Actions',
            ]}
          />
          <tbody>
            {log.loaded && log.rows.length === 0 ? (
              <tr>
                <td colSpan={writable ? 7 : 6} className="muted">
                  {filter.size > 0
                    ? 'No delivery matches these filters.'
                    : 'No delivery yet. Send a test event to see one here.'}
                </td>
              </tr>
            ) : null}
            {log.rows.map((row) => (
              <tr key={`${row.eventId}-${row.attempt}-${row.attemptedAt}`}>
                <td className="nowrap">{formatTime(row.attemptedAt)}</td>
                <td>
                  <code>{row.eventType}</code>
                  <div>
                    <button
                      type="button"
                      className="event-link small mono"
                      title="This event's deliveries to every endpoint"
                      onClick={() => onShowEvent(row.eventId)}
                    >
                      {row.eventId}
                    </button>
                  </div>
                </td>
                <td>{row.attempt}</td>
                <td>
                  <span className={`pill ${outcome(row)}`}>{row.statusCode ?? 'no answer'}</span>
                  {extraError(row) ? <div className="small">{extraError(row)}</div> : null}
                  {row.responseBody ? (
                    <details className="small response-body">
                      <summary>Response body</summary>
                      <pre className="error-body">{row.responseBody}</pre>
                    </details>
                  ) : null}
                </td>
                <td className="nowrap">{row.durationMs} ms</td>
                <td className="nowrap">{formatTime(row.nextRetryAt)}</td>
                {writable ? (
                  <td>
                    <div className="row-actions">
                      <button
                        type="button"
                        className="button ghost small"
                        onClick={() => resend.mutate({ endpointId: endpoint.id, eventId: row.eventId })}
                        disabled={resend.isPending}
                      >
                        Resend
                      </button>
                    </div>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {log.more.hasMore ? (
        <button
          type="button"
          className="button secondary"
          disabled={log.more.loading}
          onClick={log.more.onMore}
        >
          {log.more.label}
        </button>
      ) : null}
    </section>
  );
}
