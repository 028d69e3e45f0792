import { NavLink } from 'react-router';

/** The catalog section's tabs: products, allocations, partners. */
export function CatalogNav() {
  return (
    <nav className="sub-nav" aria-label="Catalog">
      <NavLink to="/catalog" end>
        Products
      </NavLink>
      <NavLink to="/catalog/allocations">Allocations</NavLink>
      <NavLink to="/catalog/partners">Partners</NavLink>
    </nav>
  );
}
