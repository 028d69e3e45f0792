import { Link, useLocation } from 'react-router';

export interface SectionTab {
  to: string;
  label: string;
  /** Active on this exact address, not on those under it (the section's first tab). */
  end?: boolean;
  /** Active as well on the addresses under these paths (a product's own page under Products). */
  also?: string[];
}

const under = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

function isActive(pathname: string, tab: SectionTab): boolean {
  const path = pathname.replace(/(.)\/+$/, '$1');
  const own = tab.end ? path === tab.to : under(path, tab.to);
  return own || (tab.also ?? []).some((p) => under(path, p));
}

/** The tabs of a section with one sidebar entry (catalog, finance, settings). */
export function SectionTabs({ label, tabs }: { label: string; tabs: SectionTab[] }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label={label} className="tabs">
      {tabs.map((tab) => {
        const active = isActive(pathname, tab);
        return (
          <Link
            key={tab.to}
            to={tab.to}
            className={active ? 'active' : undefined}
            aria-current={active ? 'page' : undefined}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
