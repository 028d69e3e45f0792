import { SectionTabs } from '../../components/SectionTabs';

/** The settings section's tabs: company, team (every role reads it; owners change it), notices. */
export function SettingsNav() {
  return (
    <SectionTabs
      label="Settings"
      tabs={[
        { to: '/settings', label: 'Company', end: true },
        { to: '/settings/team', label: 'Team' },
        { to: '/settings/notices', label: 'Notices' },
      ]}
    />
  );
}
