import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { type ApiKey, call, type SecretOnce } from '../../api/client';
import { useEnvironmentLink } from '../../components/EnvironmentInAddress';
import { can, useSession } from '../../components/session';
import { Dialog, EmptyState, ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import { AllowlistEditor, parseEntries } from './AllowlistEditor';
import { CreateKeyDialog } from './CreateKeyDialog';
import { SecretReveal } from './SecretReveal';

interface KeysReply {
  data: ApiKey[];
  meta: { grantableScopes: string[]; optInScopes: string[] };
}

type Pending =
  | { kind: 'rotate' | 'roll' | 'revoke'; key: ApiKey }
  | { kind: 'allowlist'; key: ApiKey }
  | null;

const CONFIRM = {
  rotate: {
    title: 'Rotate the secret?',
    text: 'The current secret stops working at once; the new one is shown once.',
    action: 'Rotate now',
  },
  roll: {
    title: 'Roll with overlap?',
    text: 'A new key with the same name, scopes and allowlist is created; the old one keeps working until you revoke it.',
    action: 'Create the new key',
  },
  revoke: {
    title: 'Revoke this key?',
    text: 'Calls with it are refused from now on. This cannot be undone.',
    action: 'Revoke',
  },
} as const;

export function KeysPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<SecretOnce | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [allowlist, setAllowlist] = useState('');
  const keys = useQuery({
    queryKey: ['keys', session.environment],
    queryFn: () => call<KeysReply>('GET', '/keys'),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['keys'] });
  const act = useMutation({
    mutationFn: async (next: NonNullable<Pending>) => {
      const path = `/keys/${next.key.id}`;
      if (next.kind === 'revoke') return call<undefined>('DELETE', path);
      if (next.kind === 'allowlist')
        return call<undefined>('PUT', `${path}/allowed-ips`, { allowedIps: parseEntries(allowlist) });
      return (await call<{ data: SecretOnce }>('POST', `${path}/${next.kind}`)).data;
    },
    onSuccess: async (result) => {
      setPending(null);
      if (result) setSecret(result);
      await refresh();
    },
  });
  const writable = can(session, 'keys:write');
  // Production keys need the company's production access: said before any form, not as its error.
  const awaitingAccess = session.environment === 'production' && !session.company.productionAccess;
  const link = useEnvironmentLink();
  const list = keys.data?.data ?? [];
  const grantable = new Set(keys.data?.meta.grantableScopes ?? []);
  // Rotating or rolling hands out the key's scopes again: only offered within the role's own.
  const renewable = (key: ApiKey) => key.scopes.every((scope) => grantable.has(scope));
  return (
    <>
      <PageHeader
        title="API keys"
        description={`Keys of the ${session.environment} environment. Only the prefix of a secret is ever shown again.`}
        actions={
          writable && keys.data && !awaitingAccess ? (
            <CreateKeyDialog
              environment={session.environment}
              grantable={keys.data.meta.grantableScopes}
              optIn={keys.data.meta.optInScopes}
              onCreated={async (created) => {
                setSecret(created);
                await refresh();
              }}
            />
          ) : null
        }
      />
      {writable && awaitingAccess ? (
        <div className="notice" role="status">
          <strong>Production keys need production access for your company.</strong> The platform grants it
          after review; until then, build and test with sandbox keys.{' '}
          <Link to={link('/settings')}>See where your company stands in Settings</Link>.
        </div>
      ) : null}
      <ErrorNotice error={keys.error} />
      {keys.data && list.length === 0 ? (
        <EmptyState title={`No ${session.environment} keys yet`}>
          <p className="muted">Create one to call the API from your servers.</p>
        </EmptyState>
      ) : null}
      {list.length > 0 ? (
        <div className="card table-card">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Allowed IPs</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                {writable ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.map((key) => (
                <tr key={key.id}>
                  <td>
                    <div className="strong">{key.name}</div>
                    <div className="muted small mono">{key.id}</div>
                  </td>
                  <td>
                    <code>{key.keyHint}…</code>
                  </td>
                  <td>
                    <span title={key.scopes.join('\n')}>{key.scopes.length} scopes</span>
                  </td>
                  <td>
                    {key.allowedIps?.length ? key.allowedIps.join(', ') : <span className="muted">any</span>}
                  </td>
                  <td>{formatDate(key.createdAt)}</td>
                  <td>{formatDate(key.expiresAt)}</td>
                  <td>
                    {key.lastUsedAt ? formatDate(key.lastUsedAt) : <span className="muted">never</span>}
                  </td>
                  {writable ? (
                    <td className="row-actions">
                      <button
                        type="button"
                        className="button ghost small"
                        onClick={() => {
                          setAllowlist((key.allowedIps ?? []).join('\n'));
                          setPending({ kind: 'allowlist', key });
                        }}
                      >
                        Allowlist
                      </button>
                      {renewable(key) ? (
                        <>
                          <button
                            type="button"
                            className="button ghost small"
                            onClick={() => setPending({ kind: 'rotate', key })}
                          >
                            Rotate
                          </button>
                          <button
                            type="button"
                            className="button ghost small"
                            onClick={() => setPending({ kind: 'roll', key })}
                          >
                            Roll
                          </button>
                        </>
                      ) : (
                        <span className="muted small" title="It holds scopes your role cannot hand out.">
                          Rotate or roll: owners only
                        </span>
                      )}
                      <button
                        type="button"
                        className="button danger small"
                        onClick={() => setPending({ kind: 'revoke', key })}
                      >
                        Revoke
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {pending && pending.kind !== 'allowlist' ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : setPending(null))}
          title={CONFIRM[pending.kind].title}
          description={`${pending.key.name} (${pending.key.keyHint}…): ${CONFIRM[pending.kind].text}`}
        >
          <ErrorNotice error={act.error} />
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={() => setPending(null)}>
              Cancel
            </button>
            <button
              type="button"
              className={`button ${pending.kind === 'revoke' ? 'danger' : 'primary'}`}
              onClick={() => act.mutate(pending)}
              disabled={act.isPending}
            >
              {CONFIRM[pending.kind].action}
            </button>
          </div>
        </Dialog>
      ) : null}
      {pending?.kind === 'allowlist' ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : setPending(null))}
          title={`Allowlist of ${pending.key.name}`}
          description="Takes effect on every server within about a minute."
        >
          <ErrorNotice error={act.error} />
          <AllowlistEditor id="edit-allowlist" value={allowlist} onChange={setAllowlist} />
          <div className="dialog-actions">
            <button
              type="button"
              className="button primary"
              onClick={() => act.mutate(pending)}
              disabled={act.isPending}
            >
              Save allowlist
            </button>
          </div>
        </Dialog>
      ) : null}
      <SecretReveal secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
