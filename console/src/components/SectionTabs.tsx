import { NavLink } from 'react-router';

export interface SectionTab {
  to: string;
  label: string;
  /** Active on this exact address only (the section's first tab). */
  end?: boolean;
}

/** The tabs of a section with one sidebar entry (catalog, finance, settings). */
export function SectionTabs({ label, tabs }: { label: string; tabs: SectionTab[] }) {
  return (
    <nav aria-label={label} className="tabs">
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end}>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
