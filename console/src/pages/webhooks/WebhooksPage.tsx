import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { can, useSession } from '../../components/session';
import { Dialog, EmptyState, ErrorNotice, OkNotice, PageHeader } from '../../components/ui';
import {
  type Endpoint,
  useEndpointStep,
  useSaveEndpoint,
  useWebhookEndpoints,
} from '../../data/webhooks/queries';
import { countOf, formatDate } from '../../format';
import { SecretReveal } from '../keys/SecretReveal';
import { DeliveriesPanel } from './DeliveriesPanel';
import { EndpointDialog } from './EndpointDialog';
import { EventPanel } from './EventPanel';

type Editing = { endpoint: Endpoint | null } | null;

/** Webhook endpoints of this environment, their delivery logs, resend and replay. */
export function WebhooksPage() {
  const session = useSession();
  const [editing, setEditing] = useState<Editing>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ name: string; key: string } | null>(null);
  const [rotating, setRotating] = useState<Endpoint | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [testing, setTesting] = useState<Endpoint | null>(null);
  const [testType, setTestType] = useState('test.ping');
  const [notice, setNotice] = useState<string | null>(null);
  const [params, setParams] = useSearchParams();
  const shownEvent = params.get('event');
  const showEvent = (eventId: string | null) => setParams(eventId ? { event: eventId } : {});
  const endpoints = useWebhookEndpoints();
  const act = useEndpointStep(({ kind, endpoint, eventType }) => {
    if (kind === 'delete') {
      setDeleting(null);
      if (selected === endpoint.id) setSelected(null);
      return setNotice(`${endpoint.url} is deleted, with its delivery log.`);
    }
    setSelected(endpoint.id);
    if (kind === 'test') {
      setTesting(null);
      return setNotice(
        `A ${eventType} event is on its way (a test, to this endpoint alone); it appears in the deliveries below.`,
      );
    }
    setNotice(
      kind === 'disable'
        ? `${endpoint.url} is paused: its events wait until you resume it.`
        : 'Endpoint enabled: the events held meanwhile are being delivered, oldest first.',
    );
  });
  const rotate = useSaveEndpoint((saved) => {
    if (saved.secret) setSecret({ name: saved.url, key: saved.secret });
    setRotating(null);
    setNotice('The new secret signs from now on; the old one keeps signing beside it for 24 hours.');
  });
  const writable = can(session, 'webhooks:write');
  const list = endpoints.data?.data ?? [];
  const catalog = endpoints.data?.meta.eventTypes ?? [];
  const disabled = list.filter((endpoint) => endpoint.disabledBy === 'breaker');
  const testExample =
    testType === 'test.ping' ? null : catalog.find((entry) => entry.type === testType)?.example;
  const current = list.find((endpoint) => endpoint.id === selected) ?? null;
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Endpoints that receive the ${session.environment} events of your company, and what was delivered to them.`}
        actions={
          writable && endpoints.data ? (
            <button type="button" className="button primary" onClick={() => setEditing({ endpoint: null })}>
              Add endpoint
            </button>
          ) : null
        }
      />
      {list
        .filter((endpoint) => endpoint.disabledBy === 'seller')
        .map((endpoint) => (
          <div key={endpoint.id} className="notice" role="status">
            <strong>{endpoint.url} is paused</strong> since {formatDate(endpoint.disabledAt)}. Its events wait
            until you resume it, then go out oldest first.
          </div>
        ))}
      {disabled.map((endpoint) => (
        <div key={endpoint.id} className="notice notice-error" role="alert">
          <strong>{endpoint.url} is disabled</strong> since {formatDate(endpoint.disabledAt)}:{' '}
          {endpoint.disabledReason ?? 'too many failed deliveries'}. Events are held for it until you enable
          it.
        </div>
      ))}
      <OkNotice message={notice} />
      <ErrorNotice error={endpoints.error ?? act.error} />
      {endpoints.data && list.length === 0 ? (
        <EmptyState title={`No ${session.environment} endpoints yet`}>
          <p className="muted">
            Add the URL of your server to receive order, key and catalog events as they happen.
          </p>
        </EmptyState>
      ) : null}
      {list.length > 0 ? (
        <div className="card table-card stack-on-phones">
          <table>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td data-label="URL">
                    <div className="strong mono">{endpoint.url}</div>
                    {endpoint.description ? <div className="muted small">{endpoint.description}</div> : null}
                  </td>
                  <td data-label="Events">
                    {endpoint.eventTypes.includes('*') ? (
                      <span>every type</span>
                    ) : (
                      <span title={endpoint.eventTypes.join('\n')}>
                        {endpoint.eventTypes.length === 1
                          ? endpoint.eventTypes[0]
                          : countOf(endpoint.eventTypes.length, 'type')}
                      </span>
                    )}
                  </td>
                  <td data-label="Status">
                    {endpoint.disabledBy === 'seller' ? (
                      <span className="pill pill-todo">paused</span>
                    ) : (
                      <span className={`pill ${endpoint.status === 'active' ? 'pill-done' : 'pill-error'}`}>
                        {endpoint.status}
                      </span>
                    )}
                  </td>
                  <td data-label="Created" className="nowrap">
                    {formatDate(endpoint.createdAt)}
                  </td>
                  <td data-label="Actions">
                    <div className="row-actions">
                      <button
                        type="button"
                        className="button ghost small"
                        aria-pressed={selected === endpoint.id}
                        onClick={() => setSelected(endpoint.id)}
                      >
                        Deliveries
                      </button>
                      {writable ? (
                        <>
                          <button
                            type="button"
                            className="button ghost small"
                            onClick={() => setTesting(endpoint)}
                          >
                            Send test
                          </button>
                          <button
                            type="button"
                            className="button ghost small"
                            onClick={() => setEditing({ endpoint })}
                          >
                            Edit
                          </button>
                          <button
                            type="button"
                            className="button ghost small"
                            onClick={() => setRotating(endpoint)}
                          >
                            Rotate secret
                          </button>
                          {endpoint.status === 'disabled' ? (
                            <button
                              type="button"
                              className="button primary small"
                              onClick={() => act.mutate({ kind: 'enable', endpoint })}
                            >
                              {endpoint.disabledBy === 'seller' ? 'Resume' : 'Enable'}
                            </button>
                          ) : (
                            <button
                              type="button"
                              className="button ghost small"
                              onClick={() => act.mutate({ kind: 'disable', endpoint })}
                            >
                              Pause
                            </button>
                          )}
                          <button
                            type="button"
                            className="button ghost small danger"
                            onClick={() => setDeleting(endpoint)}
                          >
                            Delete
                          </button>
                        </>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {list.length > 0 ? (
        <form
          className="card filters"
          aria-label="Find an event"
          onSubmit={(event) => {
            event.preventDefault();
            const value = String(new FormData(event.currentTarget).get('event') ?? '').trim();
            if (value) showEvent(value);
          }}
        >
          <label className="field grow">
            <span>Event id</span>
            <input name="event" defaultValue={shownEvent ?? ''} placeholder="evt_…" />
          </label>
          <div className="filter-actions">
            <button type="submit" className="button secondary">
              Show its deliveries
            </button>
          </div>
        </form>
      ) : null}
      {shownEvent ? (
        <EventPanel
          key={shownEvent}
          eventId={shownEvent}
          writable={writable}
          onClose={() => showEvent(null)}
        />
      ) : null}
      {current ? (
        <DeliveriesPanel
          key={current.id}
          endpoint={current}
          eventTypes={catalog.map((entry) => entry.type)}
          writable={writable}
          onShowEvent={showEvent}
        />
      ) : null}
      {editing ? (
        <EndpointDialog
          endpoint={editing.endpoint}
          catalog={catalog}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setSelected(saved.id);
            if (saved.secret) setSecret({ name: saved.url, key: saved.secret });
          }}
        />
      ) : null}
      {rotating ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : setRotating(null))}
          title="Rotate the signing secret?"
          description={`${rotating.url}: a new secret signs every delivery from now on; the old one keeps signing beside it for 24 hours, so you can switch without losing events.`}
        >
          <ErrorNotice error={rotate.error} />
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={() => setRotating(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="button primary"
              onClick={() => rotate.mutate({ id: rotating.id, rotateSecret: true })}
              disabled={rotate.isPending}
            >
              Rotate now
            </button>
          </div>
        </Dialog>
      ) : null}
      {deleting ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : setDeleting(null))}
          title="Delete this endpoint?"
          description={`${deleting.url}: nothing more is sent to it, and its delivery log is deleted with it. This cannot be undone; to stop deliveries for a while, pause it instead.`}
        >
          <ErrorNotice error={act.error} />
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={() => setDeleting(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="button danger"
              onClick={() => act.mutate({ kind: 'delete', endpoint: deleting })}
              disabled={act.isPending}
            >
              Delete endpoint
            </button>
          </div>
        </Dialog>
      ) : null}
      {testing ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : setTesting(null))}
          title="Send a test event"
          description={`${testing.url} alone receives it. Test events do not count toward disabling the endpoint and are not listed by GET /events.${testing.status === 'disabled' ? ' The endpoint is not active: the test waits until it is.' : ''}`}
        >
          <ErrorNotice error={act.error} />
          <label className="field">
            <span>Event type</span>
            <select value={testType} onChange={(event) => setTestType(event.target.value)}>
              <option value="test.ping">test.ping</option>
              {catalog.map((entry) => (
                <option key={entry.type} value={entry.type}>
                  {entry.type}
                </option>
              ))}
            </select>
          </label>
          {testExample ? (
            <pre
              className="error-body example-payload"
              data-testid="test-payload"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
              tabIndex={0}
            >
              {JSON.stringify(testExample, null, 2)}
            </pre>
          ) : null}
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={() => setTesting(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="button primary"
              onClick={() => act.mutate({ kind: 'test', endpoint: testing, eventType: testType })}
              disabled={act.isPending}
            >
              Send test
            </button>
          </div>
        </Dialog>
      ) : null}
      <SecretReveal
        secret={secret}
        onClose={() => setSecret(null)}
        description="This is the only time it is shown. Verify every webhook's signature with it; if it is lost, rotate it."
      />
    </>
  );
}
