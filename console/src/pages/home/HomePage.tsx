import { Link } from 'react-router';
import { useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { useChecklist } from '../../data/home/queries';

const STATE_LABEL = { done: 'Done', todo: 'To do', waiting: 'Waiting on the platform' } as const;

function ItemLink({ href }: { href: string }) {
  if (href.startsWith('/console/')) return <Link to={href.slice('/console'.length)}>Open</Link>;
  return <a href={href}>Open</a>;
}

/** Home: how far the integration is in the chosen environment, each item with the page that completes it. */
export function HomePage() {
  const session = useSession();
  const home = useChecklist();
  const items = home.data?.items ?? [];
  const done = items.filter((item) => item.state === 'done').length;
  return (
    <>
      <PageHeader
        title="Integration readiness"
        description={`What is left before ${session.company.name} sells through the API (${session.environment}).`}
      />
      <ErrorNotice error={home.error} />
      {home.data ? (
        <section className="card" aria-labelledby="checklist-title">
          <div className="card-head">
            <h2 id="checklist-title">Checklist</h2>
            <div className="progress">
              <progress max={items.length} value={done} aria-label={`${done} of ${items.length} done`} />
              <span className="muted">
                {done} / {items.length}
              </span>
            </div>
          </div>
          <ol className="checklist">
            {items.map((item) => (
              <li key={item.id} className={`check check-${item.state}`}>
                <span className="check-icon" aria-hidden="true">
                  {item.state === 'done' ? '✓' : item.state === 'waiting' ? '…' : '○'}
                </span>
                <div className="check-body">
                  <div className="check-title">{item.title}</div>
                  <div className="muted small">{item.detail}</div>
                </div>
                <span className={`pill pill-${item.state}`}>{STATE_LABEL[item.state]}</span>
                <span className="check-link">
                  {item.href && item.state !== 'done' ? <ItemLink href={item.href} /> : null}
                </span>
              </li>
            ))}
          </ol>
        </section>
      ) : (
        <p aria-busy="true">Loading…</p>
      )}
    </>
  );
}
