import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { call, type Role, type TeamUser } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { useSession } from '../../components/session';
import { CopyButton, Dialog, ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import { SettingsNav } from '../settings/SettingsNav';

const ROLES: Role[] = ['owner', 'developer', 'finance', 'viewer'];
interface Team {
  users: TeamUser[];
  invites: { id: string; email: string; role: Role; expiresAt: string }[];
}

function InviteDialog({ onInvited }: { onInvited: () => void }) {
  const [open, setOpen] = useState(false);
  const { register, handleSubmit, reset } = useForm<{ email: string; role: Role }>({
    defaultValues: { role: 'developer' },
  });
  const invite = useMutation({
    mutationFn: (form: { email: string; role: Role }) =>
      call<{ data: { link: string; email: string; emailed: boolean } }>('POST', '/team/invites', form),
    onSuccess: () => onInvited(),
  });
  return (
    <>
      <button type="button" className="button primary" onClick={() => setOpen(true)}>
        Invite a teammate
      </button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) {
            invite.reset();
            reset();
          }
        }}
        title="Invite a teammate"
        description="The link works once, for 72 hours."
      >
        {invite.data ? (
          <div className="secret-box">
            <div className="muted small">Invite link for {invite.data.data.email}</div>
            <code className="secret" data-testid="invite-link">
              {invite.data.data.link}
            </code>
            <p className="muted small" data-testid="invite-delivery">
              {invite.data.data.emailed
                ? `It is also on its way to ${invite.data.data.email} by e-mail.`
                : 'Send it to them yourself: this server sends no e-mail.'}
            </p>
            <div className="dialog-actions">
              <CopyButton text={invite.data.data.link} label="Copy link" />
            </div>
          </div>
        ) : (
          <form onSubmit={handleSubmit((form) => invite.mutate(form))} noValidate>
            <ErrorNotice error={invite.error} />
            <label className="field">
              <span>Email</span>
              <input type="email" {...register('email', { required: true })} />
            </label>
            <label className="field">
              <span>Role</span>
              <select {...register('role')}>
                {ROLES.map((role) => (
                  <option key={role}>{role}</option>
                ))}
              </select>
            </label>
            <div className="dialog-actions">
              <button type="submit" className="button primary" disabled={invite.isPending}>
                Create invite link
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}

/** The owner's view of the company's console users, open invites, roles and the two-factor rule. */
export function TeamPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const team = useQuery({ queryKey: ['team'], queryFn: () => call<{ data: Team }>('GET', '/team') });
  const security = useQuery({
    queryKey: ['security'],
    queryFn: () => call<{ data: { requireTotp: boolean } }>('GET', '/security'),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['team'] });
  const setRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) => call('PUT', `/team/users/${id}/role`, { role }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => call('DELETE', `/team/users/${id}`),
    onSettled: refresh,
  });
  const requireTotp = useMutation({
    mutationFn: (required: boolean) => call('PUT', '/team/require-totp', { required }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['security'] }),
  });
  return (
    <>
      <PageHeader
        title="Team"
        description="Who can use this console, and with which role. A company keeps at least one owner."
        actions={<InviteDialog onInvited={refresh} />}
      />
      <SettingsNav />
      <ErrorNotice error={team.error ?? setRole.error ?? remove.error ?? requireTotp.error} />
      <section className="card">
        <div className="card-head">
          <h2>Two-factor sign-in</h2>
        </div>
        <label className="check-row">
          <input
            type="checkbox"
            checked={security.data?.data.requireTotp ?? false}
            onChange={(event) => requireTotp.mutate(event.target.checked)}
          />
          Require an authenticator code for everyone in {session.company.name}
        </label>
      </section>
      <DataTable
        caption="Users and open invites"
        loaded={Boolean(team.data)}
        empty="No user yet."
        rows={[
          ...(team.data?.data.users ?? []).map((user) => ({ user, invite: null })),
          ...(team.data?.data.invites ?? []).map((invite) => ({ user: null, invite })),
        ]}
        rowKey={(row) => row.user?.id ?? row.invite?.id ?? ''}
        columns={[
          {
            header: 'Email',
            cell: (row) => <span className="strong">{row.user?.email ?? row.invite?.email}</span>,
          },
          {
            header: 'Role',
            cell: ({ user, invite }) =>
              user ? (
                <select
                  aria-label={`Role of ${user.email}`}
                  value={user.role}
                  onChange={(event) => setRole.mutate({ id: user.id, role: event.target.value as Role })}
                >
                  {ROLES.map((role) => (
                    <option key={role}>{role}</option>
                  ))}
                </select>
              ) : (
                invite?.role
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
              user ? formatDate(user.createdAt) : `invited, until ${formatDate(invite?.expiresAt)}`,
          },
          {
            header: 'Actions',
            cell: ({ user }) =>
              !user ? null : user.id === session.user.id ? (
                <span className="muted">you</span>
              ) : (
                <button type="button" className="button danger small" onClick={() => remove.mutate(user.id)}>
                  Remove
                </button>
              ),
          },
        ]}
      />
    </>
  );
}
