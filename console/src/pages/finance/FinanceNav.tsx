import { SectionTabs } from '../../components/SectionTabs';

const TABS = [
  { to: '/finance', label: 'Statements', end: true },
  { to: '/finance/sales', label: 'API sales' },
  { to: '/finance/activity', label: 'Activity' },
  { to: '/finance/invoices', label: 'Invoices' },
];

/** The finance pages' own tabs (the sidebar has one Finance entry). */
export function FinanceNav() {
  return <SectionTabs label="Finance" tabs={TABS} />;
}
