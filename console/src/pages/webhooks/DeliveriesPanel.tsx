import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api/client';
import { ErrorNotice, formatDate, OkNotice, TableHead } from '../../components/ui';
import { useKeysetList } from '../../components/useKeysetList';
import { extraError, outcome } from './outcome';
import type { Attempt, Endpoint } from './types';

const NO_FILTER = new URLSearchParams();

interface Replayed {
  replayed: number;
  more: boolean;
}

/**
 * One endpoint's delivery log, newest first, with resend per event, replay of failures since a
 * time, and a way to each event's deliveries across every endpoint.
 */
export function DeliveriesPanel({
  endpoint,
  writable,
  onShowEvent,
}: {
  endpoint: Endpoint;
  writable: boolean;
  onShowEvent: (eventId: string) => void;
}) {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const [since, setSince] = useState('');
  const log = useKeysetList<Attempt>(
    'webhook-deliveries',
    `/webhooks/${endpoint.id}/deliveries`,
    NO_FILTER,
    'Older deliveries',
    { refetchInterval: 5000 },
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries'] });
  const resend = useMutation({
    mutationFn: (eventId: string) =>
      call<{ data: { status: string } }>('POST', `/webhooks/${endpoint.id}/resend`, { eventId }),
    onSuccess: async ({ data }, eventId) => {
      setNotice(`Event ${eventId} queued again (${data.status}).`);
      await refresh();
    },
  });
  const replay = useMutation({
    mutationFn: () =>
      call<{ data: Replayed }>('POST', `/webhooks/${endpoint.id}/replay`, {
        since: new Date(since).toISOString(),
      }),
    onSuccess: async ({ data }) => {
      setNotice(
        data.replayed === 0
          ? 'Nothing to replay: every event since then was delivered or is still being tried.'
          : `${data.replayed} event${data.replayed === 1 ? '' : 's'} queued again${data.more ? '; replay again for the rest' : ''}.`,
      );
      await refresh();
    },
  });
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
            replay.mutate();
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
            <button type="submit" className="button secondary" disabled={!since || replay.isPending}>
              Replay
            </button>
          </div>
        </form>
      ) : null}
      <OkNotice message={notice} />
      <ErrorNotice error={log.error ?? resend.error ?? replay.error} />
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
                  No delivery yet. Send a test event to see one here.
                </td>
              </tr>
            ) : null}
            {log.rows.map((row) => (
              <tr key={`${row.eventId}-${row.attempt}-${row.attemptedAt}`}>
                <td>{formatDate(row.attemptedAt)}</td>
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
                </td>
                <td className="nowrap">{row.durationMs} ms</td>
                <td>{formatDate(row.nextRetryAt)}</td>
                {writable ? (
                  <td>
                    <div className="row-actions">
                      <button
                        type="button"
                        className="button ghost small"
                        onClick={() => resend.mutate(row.eventId)}
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
