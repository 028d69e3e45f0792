import { useState } from 'react';
import { Link } from 'react-router';
import { useEnvironmentLink } from '../../components/EnvironmentInAddress';
import { FormErrorNotice } from '../../components/FieldError';
import { formErrorsOf } from '../../components/field-errors';
import { can, useSession } from '../../components/session';
import { Dialog, EmptyState, ErrorNotice, PageHeader } from '../../components/ui';
import { type ApiKey, type SecretOnce, useApiKeys, useKeyAction } from '../../data/keys/queries';
import { countOf, formatDate } from '../../format';
import { ALLOWLIST_FIELD, AllowlistEditor, parseEntries } from './AllowlistEditor';
import { CreateKeyDialog } from './CreateKeyDialog';
import { SecretReveal } from './SecretReveal';

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
  const [secret, setSecret] = useState<SecretOnce | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [allowlist, setAllowlist] = useState('');
  const keys = useApiKeys();
  const act = useKeyAction((result) => {
    setPending(null);
    if (result) setSecret(result);
  });
  const allowlistErrors = formErrorsOf(act.error, { allowlist: ALLOWLIST_FIELD });
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
              onCreated={setSecret}
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
        <div className="card table-card stack-on-phones">
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
                  <td data-label="Name">
                    <div className="strong">{key.name}</div>
                    <div className="muted small mono">{key.id}</div>
                  </td>
                  <td data-label="Prefix">
                    <code>{key.keyHint}…</code>
                  </td>
                  <td data-label="Scopes">
                    <span title={key.scopes.join('\n')}>{countOf(key.scopes.length, 'scope')}</span>
                  </td>
                  <td data-label="Allowed IPs">
                    {key.allowedIps?.length ? key.allowedIps.join(', ') : <span className="muted">any</span>}
                  </td>
                  <td data-label="Created">{formatDate(key.createdAt)}</td>
                  <td data-label="Expires">{formatDate(key.expiresAt)}</td>
                  <td data-label="Last used">
                    {key.lastUsedAt ? formatDate(key.lastUsedAt) : <span className="muted">never</span>}
                  </td>
                  {writable ? (
                    <td data-label="Actions" className="row-actions">
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
          <FormErrorNotice error={act.error} elsewhere={allowlistErrors.elsewhere} />
          <AllowlistEditor
            id="edit-allowlist"
            value={allowlist}
            onChange={setAllowlist}
            refused={act.error}
          />
          <div className="dialog-actions">
            <button
              type="button"
              className="button primary"
              onClick={() => act.mutate({ ...pending, allowedIps: parseEntries(allowlist) })}
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
