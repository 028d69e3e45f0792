import { NavLink } from 'react-router';

const TABS = [
  { to: '/finance', label: 'Statements', end: true },
  { to: '/finance/sales', label: 'API sales' },
  { to: '/finance/activity', label: 'Activity' },
  { to: '/finance/invoices', label: 'Invoices' },
];

/** The finance pages' own tabs (the sidebar has one Finance entry). */
export function FinanceNav() {
  return (
    <nav aria-label="Finance" className="tabs">
      {TABS.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end}>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
