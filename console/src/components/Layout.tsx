import { Suspense, useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { ConsoleError, type Environment } from '../api/client';
import { useSessionQuery, useSignOut, useSwitchEnvironment } from '../data/session/queries';
import { useWebhookEndpoints } from '../data/webhooks/queries';
import { countOf } from '../format';
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
        {disabled === 1
          ? 'A webhook endpoint is disabled'
          : `${countOf(disabled, 'webhook endpoint')} are disabled`}
      </strong>{' '}
      after repeated failed deliveries; its events are held. <Link to="/webhooks">Review and enable it</Link>.
    </div>
  );
}

/**
 * On a phone the navigation is a menu behind one button (on a wider screen the button is hidden
 * and the list always shows): open while expanded, closed again by any navigation or Escape.
 */
function useNavigationMenu() {
  const [open, setOpen] = useState(false);
  const { pathname, search } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new location is the reason to close
  useEffect(() => setOpen(false), [pathname, search]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return { open, toggle: () => setOpen((was) => !was) };
}

/** The signed-in frame: sidebar navigation, environment switch, the user menu; the page in the middle. */
export function Layout() {
  const navigate = useNavigate();
  const menu = useNavigationMenu();
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
      <div className={`shell env-${session.environment}${menu.open ? ' nav-open' : ''}`}>
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
            <button
              type="button"
              className="menu-button"
              aria-expanded={menu.open}
              aria-controls="console-nav"
              onClick={menu.toggle}
            >
              <span className="menu-icon" aria-hidden="true" />
              Menu
            </button>
          </div>
          <nav id="console-nav" aria-label="Console">
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
