export { ActivityPage } from './ActivityPage';
export { InvoicesPage } from './InvoicesPage';
export { SalesPage } from './SalesPage';
export { StatementsPage } from './StatementsPage';
