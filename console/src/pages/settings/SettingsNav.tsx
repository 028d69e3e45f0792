import { SectionTabs } from '../../components/SectionTabs';
import { can, useSession } from '../../components/session';

/** The settings section's tabs: company, team (owners), notices. */
export function SettingsNav() {
  const session = useSession();
  return (
    <SectionTabs
      label="Settings"
      tabs={[
        { to: '/settings', label: 'Company', end: true },
        ...(can(session, 'users:manage') ? [{ to: '/settings/team', label: 'Team' }] : []),
        { to: '/settings/notices', label: 'Notices' },
      ]}
    />
  );
}
