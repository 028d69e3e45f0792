import { Suspense, useEffect } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { ConsoleError, type Environment } from '../api/client';
import { useSessionQuery, useSignOut, useSwitchEnvironment } from '../data/session/queries';
import { useWebhookEndpoints } from '../data/webhooks/queries';
import { TotpEnrolment } from '../pages/account/TotpEnrolment';
import { can, type Session, SessionContext } from './session';

function EnvironmentSwitch({ session }: { session: Session }) {
  const change = useSwitchEnvironment();
  const options: Environment[] = ['sandbox', 'production'];
  return (
    <fieldset className="env-switch" aria-label="Environment">
      <legend className="visually-hidden">Environment</legend>
      {options.map((environment) => (
        <label key={environment} className={session.environment === environment ? 'active' : ''}>
          <input
            type="radio"
            name="environment"
            value={environment}
            checked={session.environment === environment}
            onChange={() => change.mutate(environment)}
          />
          {environment === 'sandbox' ? 'Sandbox' : 'Production'}
        </label>
      ))}
    </fieldset>
  );
}

/** `system.webhook_endpoint_disabled` as the console shows it: a notice on every page until enabled. */
function DisabledEndpointsNotice() {
  const endpoints = useWebhookEndpoints({ staleTime: 60_000 });
  const onWebhooksPage = useLocation().pathname.startsWith('/webhooks');
  // A paused endpoint is the seller's own choice, not something to act on.
  const disabled = (endpoints.data?.data ?? []).filter(
    (endpoint) => endpoint.disabledBy === 'breaker',
  ).length;
  // The Webhooks page names each disabled endpoint itself.
  if (disabled === 0 || onWebhooksPage) return null;
  return (
    <div className="notice notice-error" role="status">
      <strong>
        {disabled === 1 ? 'A webhook endpoint is disabled' : `${disabled} webhook endpoints are disabled`}
      </strong>{' '}
      after repeated failed deliveries; its events are held. <Link to="/webhooks">Review and enable it</Link>.
    </div>
  );
}

/** The signed-in frame: sidebar navigation, environment switch, the user menu; the page in the middle. */
export function Layout() {
  const navigate = useNavigate();
  const { data: session, error, isPending } = useSessionQuery();
  const signOut = useSignOut(() => navigate('/sign-in'));

  useEffect(() => {
    if (error instanceof ConsoleError && error.status === 401) navigate('/sign-in', { replace: true });
  }, [error, navigate]);

  if (isPending)
    return (
      <div className="loading-screen" aria-busy="true">
        Loading the console…
      </div>
    );
  if (!session) {
    return (
      <main className="loading-screen">
        <p role="alert">{error?.message ?? 'Could not load your session.'}</p>
      </main>
    );
  }
  if (session.mustEnrolTotp) {
    return (
      <SessionContext.Provider value={session}>
        <main className="auth-page">
          <div className="auth-card wide">
            <h1>Set up two-factor sign-in</h1>
            <p className="muted">{session.company.name} requires a second factor for every console user.</p>
            <TotpEnrolment />
          </div>
        </main>
      </SessionContext.Provider>
    );
  }
  const links = [
    { to: '/', label: 'Home', end: true },
    { to: '/keys', label: 'API keys' },
    { to: '/webhooks', label: 'Webhooks' },
    { to: '/logs', label: 'Request log' },
    { to: '/orders', label: 'Orders' },
    ...(can(session, 'finance:read') ? [{ to: '/finance', label: 'Finance' }] : []),
    { to: '/catalog', label: 'Catalog' },
    { to: '/usage', label: 'Usage' },
    { to: '/settings', label: 'Settings' },
    ...(can(session, 'audit:read') ? [{ to: '/audit', label: 'Audit log' }] : []),
    { to: '/account', label: 'Your account' },
  ];
  return (
    <SessionContext.Provider value={session}>
      <div className={`shell env-${session.environment}`}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <aside className="sidebar">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">
              S
            </span>
            <div>
              <div className="brand-name">{session.company.name}</div>
              <div className="brand-sub">Seller console</div>
            </div>
          </div>
          <nav aria-label="Console">
            <ul>
              {links.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} end={link.end}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="sidebar-foot">
            <a href="/docs">API reference</a>
          </div>
        </aside>
        <div className="main-column">
          <header className="topbar">
            <EnvironmentSwitch session={session} />
            {session.environment === 'production' ? (
              <span className="badge badge-live">Live data</span>
            ) : (
              <span className="badge badge-test">Test data</span>
            )}
            <div className="topbar-user">
              <span className="muted">
                {session.user.email} · {session.user.role}
              </span>
              <button type="button" className="button ghost" onClick={() => signOut.mutate()}>
                Sign out
              </button>
            </div>
          </header>
          <main id="main" className="content">
            <DisabledEndpointsNotice />
            <Suspense fallback={<p aria-busy="true">Loading…</p>}>
              <Outlet />
            </Suspense>
          </main>
        </div>
      </div>
    </SessionContext.Provider>
  );
}
