import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Role } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { can, useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import {
  type TeamChange,
  type TeamInvite,
  type TeamUser,
  useRequireTotp,
  useSecurity,
  useTeam,
  useTeamChange,
} from '../../data/team/queries';
import { formatDate } from '../../format';
import { SettingsNav } from '../settings/SettingsNav';
import { InviteDialog } from './InviteDialog';
import { ROLE_DUTIES, ROLES } from './role-duties';
import { TeamChangeDialog } from './TeamChangeDialog';

type Row = { user: TeamUser; invite: null } | { user: null; invite: TeamInvite };

/**
 * The company's console users, open invites, roles and two-factor rule. Every role reads it;
 * only an owner sees the controls (invite, role, remove, reset, the rule), and each change that
 * ends someone's sessions is confirmed first.
 */
export function TeamPage() {
  const session = useSession();
  const manage = can(session, 'users:manage');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<TeamChange | null>(null);
  const team = useTeam();
  const security = useSecurity();
  const apply = useTeamChange(async (change) => {
    setPending(null);
    // A change to one's own role or removal ends this very session.
    if (change.user.id !== session.user.id) return 'refresh';
    queryClient.clear();
    navigate('/sign-in');
    return 'stop';
  });
  const requireTotp = useRequireTotp();
  const required = security.data?.requireTotp ?? false;
  const columns: Column<Row>[] = [
    {
      header: 'Email',
      cell: (row) => <span className="strong">{row.user?.email ?? row.invite?.email}</span>,
    },
    {
      header: 'Role',
      cell: ({ user, invite }) =>
        user && manage ? (
          <select
            aria-label={`Role of ${user.email}`}
            value={user.role}
            onChange={(event) => setPending({ kind: 'role', user, role: event.target.value as Role })}
          >
            {ROLES.map((role) => (
              <option key={role}>{role}</option>
            ))}
          </select>
        ) : (
          <span title={ROLE_DUTIES[(user ?? invite).role]}>{(user ?? invite).role}</span>
        ),
    },
    {
      header: 'Two-factor',
      cell: ({ user }) =>
        user ? (
          <span className={`pill ${user.totpEnabled ? 'pill-done' : ''}`}>
            {user.totpEnabled ? 'on' : 'off'}
          </span>
        ) : (
          '—'
        ),
    },
    {
      header: 'Joined',
      cell: ({ user, invite }) =>
        user ? formatDate(user.createdAt) : `invited, until ${formatDate(invite.expiresAt)}`,
    },
  ];
  if (manage) {
    columns.push({
      header: 'Actions',
      className: 'nowrap',
      cell: ({ user }) =>
        !user ? null : user.id === session.user.id ? (
          <span className="muted">you</span>
        ) : (
          <div className="row-actions">
            {user.totpEnabled ? (
              <button
                type="button"
                className="button ghost small"
                aria-label={`Reset two-factor of ${user.email}`}
                onClick={() => setPending({ kind: 'reset', user })}
              >
                Reset two-factor
              </button>
            ) : null}
            <button
              type="button"
              className="button danger small"
              aria-label={`Remove ${user.email}`}
              onClick={() => setPending({ kind: 'remove', user })}
            >
              Remove
            </button>
          </div>
        ),
    });
  }
  return (
    <>
      <PageHeader
        title="Team"
        description={
          manage
            ? 'Who can use this console, and with which role. A company keeps at least one owner.'
            : `Who can use this console, and with which role. You are ${session.user.role}: only an owner changes the team.`
        }
        actions={manage ? <InviteDialog /> : undefined}
      />
      <SettingsNav />
      <ErrorNotice error={team.error ?? requireTotp.error} />
      <section className="card">
        <div className="card-head">
          <h2>Two-factor sign-in</h2>
        </div>
        {manage ? (
          <label className="check-row">
            <input
              type="checkbox"
              checked={required}
              onChange={(event) => requireTotp.mutate(event.target.checked)}
            />
            Require an authenticator code for everyone in {session.company.name}
          </label>
        ) : (
          <p data-testid="totp-rule">
            {security.data
              ? required
                ? `${session.company.name} requires an authenticator code from everyone.`
                : `${session.company.name} leaves two-factor sign-in to each user.`
              : '…'}{' '}
            <span className="muted">An owner sets this.</span>
          </p>
        )}
      </section>
      <DataTable
        caption="Users and open invites"
        loaded={Boolean(team.data)}
        empty="No user yet."
        rows={[
          ...(team.data?.users ?? []).map((user): Row => ({ user, invite: null })),
          ...(team.data?.invites ?? []).map((invite): Row => ({ user: null, invite })),
        ]}
        rowKey={(row) => row.user?.id ?? row.invite?.id ?? ''}
        columns={columns}
      />
      <TeamChangeDialog
        change={pending}
        selfId={session.user.id}
        apply={apply}
        onClose={() => {
          setPending(null);
          apply.reset();
        }}
      />
    </>
  );
}
