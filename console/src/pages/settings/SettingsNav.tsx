import { NavLink } from 'react-router';
import { can, useSession } from '../../components/session';

/** The settings section's tabs: company, team (owners), notices. */
export function SettingsNav() {
  const session = useSession();
  return (
    <nav className="sub-nav" aria-label="Settings">
      <NavLink to="/settings" end>
        Company
      </NavLink>
      {can(session, 'users:manage') ? <NavLink to="/settings/team">Team</NavLink> : null}
      <NavLink to="/settings/notices">Notices</NavLink>
    </nav>
  );
}
