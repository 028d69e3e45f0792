import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { setNonce } from 'get-nonce';
import { lazy, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { ConsoleError } from './api/client';
import { catalogUsageSettingsRoutes } from './catalog-usage-settings-routes';
import { EnvironmentInAddress } from './components/EnvironmentInAddress';
import { Layout } from './components/Layout';
import { AccountPage } from './pages/account/AccountPage';
import { AuditPage } from './pages/audit/AuditPage';
import { HomePage } from './pages/home/HomePage';
import { InvitePage } from './pages/invite/InvitePage';
import { KeysPage } from './pages/keys/KeysPage';
import { LogsPage } from './pages/logs/LogsPage';
import { RequestPage } from './pages/logs/RequestPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SignInPage } from './pages/sign-in/SignInPage';
import { TeamPage } from './pages/team/TeamPage';
import { WebhooksPage } from './pages/webhooks/WebhooksPage';
import './styles.css';

// Orders and finance load on first visit (finance pages carry the chart).
const OrdersPage = lazy(() => import('./pages/orders/OrdersPage').then((m) => ({ default: m.OrdersPage })));
const OrderPage = lazy(() => import('./pages/orders/OrderPage').then((m) => ({ default: m.OrderPage })));
const finance = () => import('./pages/finance');
const StatementsPage = lazy(() => finance().then((m) => ({ default: m.StatementsPage })));
const SalesPage = lazy(() => finance().then((m) => ({ default: m.SalesPage })));
const ActivityPage = lazy(() => finance().then((m) => ({ default: m.ActivityPage })));
const InvoicesPage = lazy(() => finance().then((m) => ({ default: m.InvoicesPage })));

// The dialog library's run-time <style> carries the page's CSP nonce (served in a meta tag).
setNonce(document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '');

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      retry: (count, error) => !(error instanceof ConsoleError && error.status < 500) && count < 2,
    },
  },
});

const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    { path: '/invite', element: <InvitePage /> },
    {
      path: '/',
      element: (
        <EnvironmentInAddress>
          <Layout />
        </EnvironmentInAddress>
      ),
      children: [
        { index: true, element: <HomePage /> },
        { path: 'keys', element: <KeysPage /> },
        { path: 'webhooks', element: <WebhooksPage /> },
        { path: 'logs', element: <LogsPage /> },
        { path: 'logs/:requestId', element: <RequestPage /> },
        { path: 'orders', element: <OrdersPage /> },
        { path: 'orders/:id', element: <OrderPage /> },
        { path: 'finance', element: <StatementsPage /> },
        { path: 'finance/sales', element: <SalesPage /> },
        { path: 'finance/activity', element: <ActivityPage /> },
        { path: 'finance/invoices', element: <InvoicesPage /> },
        { path: 'team', element: <Navigate to="/settings/team" replace /> },
        { path: 'settings/team', element: <TeamPage /> },
        ...catalogUsageSettingsRoutes,
        { path: 'audit', element: <AuditPage /> },
        { path: 'account', element: <AccountPage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: '/console' },
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
