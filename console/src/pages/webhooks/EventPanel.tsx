import { useEffect, useRef, useState } from 'react';
import { ErrorNotice, OkNotice, TableHead } from '../../components/ui';
import {
  type Attempt,
  type EventDeliveries,
  type EventDelivery,
  useEventDeliveries,
  useResend,
} from '../../data/webhooks/queries';
import { formatTime } from '../../format';
import { DELIVERY_PILL, extraError, outcome } from './outcome';

type EndpointOfEvent = EventDeliveries['endpoints'][number];

interface EventRow {
  delivery: EventDelivery | null;
  attempt: Attempt | null;
}

/** The rows of one endpoint: an attempt per row, a queued delivery not tried yet, or never sent. */
function rowsOf(endpoint: EndpointOfEvent): EventRow[] {
  const rows = endpoint.deliveries.flatMap((delivery): EventRow[] =>
    delivery.attempts.length === 0
      ? [{ delivery, attempt: null }]
      : delivery.attempts.map((attempt) => ({ delivery, attempt })),
  );
  return rows.length === 0 ? [{ delivery: null, attempt: null }] : rows;
}

/**
 * One event across every endpoint of the environment: its deliveries and their attempts, oldest
 * first, Resend per endpoint, and the envelope exactly as it is sent.
 */
export function EventPanel({
  eventId,
  writable,
  onClose,
}: {
  eventId: string;
  writable: boolean;
  onClose: () => void;
}) {
  const [notice, setNotice] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const event = useEventDeliveries(eventId);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
  }, []);
  const resend = useResend((status, endpointId) => {
    const url = event.data?.endpoints.find((endpoint) => endpoint.endpointId === endpointId)?.url;
    setNotice(`Event ${eventId} queued again for ${url} (${status}).`);
  });
  const data = event.data;
  const columns = writable ? 8 : 7;
  return (
    <section className="card" aria-labelledby="event-title" data-testid="event-panel">
      <div className="card-head">
        <div>
          <h2 id="event-title" ref={heading} tabIndex={-1}>
            Event {data ? <code>{data.eventType}</code> : null}
          </h2>
          <p className="muted small mono">{eventId}</p>
          {data ? (
            <p className="muted small">
              Created {formatTime(data.createdAt)}
              {data.publishedAt ? `, published ${formatTime(data.publishedAt)}` : ', not published yet'}
            </p>
          ) : null}
        </div>
        <button type="button" className="button ghost small" onClick={onClose}>
          Close
        </button>
      </div>
      <OkNotice message={notice} />
      <ErrorNotice error={event.error ?? resend.error} />
      {data ? (
        <>
          <div className="table-card">
            <table>
              <TableHead
                columns={[
                  'Endpoint',
                  'Delivery',
                  'Attempt',
                  'Result',
                  'Duration',
                  'Attempted',
                  'Next retry',
                  writable && 'Actions',
                ]}
              />
              {data.endpoints.length === 0 ? (
                <tbody>
                  <tr>
                    <td colSpan={columns} className="muted">
                      No endpoint in this environment.
                    </td>
                  </tr>
                </tbody>
              ) : null}
              {data.endpoints.map((endpoint) => {
                const rows = rowsOf(endpoint);
                return (
                  <tbody key={endpoint.endpointId} className="event-group">
                    {rows.map(({ delivery, attempt }, index) => (
                      <tr key={`${delivery?.deliveryId ?? 'none'}-${attempt?.attempt ?? 0}`}>
                        {index === 0 ? (
                          <th scope="rowgroup" rowSpan={rows.length} className="event-endpoint">
                            <div className="mono">{endpoint.url}</div>
                            {endpoint.endpointStatus === 'disabled' ? (
                              <span className="pill pill-error">disabled</span>
                            ) : null}
                          </th>
                        ) : null}
                        {delivery ? (
                          <>
                            <td>
                              {attempt === null || attempt === delivery.attempts[0] ? (
                                <span className={`pill ${DELIVERY_PILL[delivery.status]}`}>
                                  {delivery.status}
                                </span>
                              ) : null}
                            </td>
                            {attempt ? (
                              <>
                                <td>{attempt.attempt}</td>
                                <td>
                                  <span className={`pill ${outcome(attempt)}`}>
                                    {attempt.statusCode ?? 'no answer'}
                                  </span>
                                  {extraError(attempt) ? (
                                    <div className="small">{extraError(attempt)}</div>
                                  ) : null}
                                </td>
                                <td className="nowrap">{attempt.durationMs} ms</td>
                                <td className="nowrap">{formatTime(attempt.attemptedAt)}</td>
                                <td className="nowrap">{formatTime(attempt.nextRetryAt)}</td>
                              </>
                            ) : (
                              <>
                                <td colSpan={4} className="muted">
                                  Queued, not tried yet
                                </td>
                                <td className="nowrap">{formatTime(delivery.nextAttemptAt)}</td>
                              </>
                            )}
                          </>
                        ) : (
                          <td colSpan={6} className="muted">
                            Never sent to this endpoint
                          </td>
                        )}
                        {writable && index === 0 ? (
                          <td rowSpan={rows.length}>
                            <button
                              type="button"
                              className="button ghost small"
                              aria-label={`Resend to ${endpoint.url}`}
                              onClick={() => resend.mutate({ endpointId: endpoint.endpointId, eventId })}
                              disabled={resend.isPending}
                            >
                              Resend
                            </button>
                          </td>
                        ) : null}
                      </tr>
                    ))}
                  </tbody>
                );
              })}
            </table>
          </div>
          <h3 className="event-envelope-title">Payload envelope</h3>
          <p className="muted small">
            The body every endpoint receives for this event, signed with its secret. Events carry ids, never a
            key.
          </p>
          <pre className="error-body" data-testid="event-envelope">
            {JSON.stringify(data.envelope, null, 2)}
          </pre>
        </>
      ) : null}
    </section>
  );
}
