import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/auth/principal.js';
import { isScope } from '../../http/auth/scopes.js';
import { fail } from '../../http/errors.js';
import { listKeys, mintKey, normalizeAllowedIps } from '../api-keys/index.js';
import { auditActorOf, recordAudit } from '../audit/index.js';

export interface ConsoleKeyInput {
  name: string;
  scopes: string[];
  allowedIps: string[];
  expiresAt?: string;
}

/**
 * A key created in the console: the same mintKey as the operator path (scopes, allowlist rules,
 * production gates), with the scopes picked by the user and bounded by the role's: a user never
 * hands a key a scope their role may not use in the console. Unknown scopes are left to
 * mintKey's validation.
 */
export async function createConsoleKey(ctx: AppContext, principal: Principal, input: ConsoleKeyInput) {
  const beyond = input.scopes.filter((scope) => isScope(scope) && !principal.scopes.has(scope));
  if (beyond.length > 0) {
    throw fail('INSUFFICIENT_SCOPE', `Your role cannot hand out ${beyond.join(', ')}.`, {
      missingScope: beyond[0],
      missingScopes: beyond,
    });
  }
  if (principal.environment === 'production' && !principal.productionAccess) {
    throw fail('PRODUCTION_ACCESS_NOT_APPROVED', 'Production keys need production access for your company.');
  }
  const expiresAt = input.expiresAt ? Date.parse(input.expiresAt) : null;
  const minted = await mintKey(
    ctx,
    {
      companyId: principal.companyId,
      environment: principal.environment,
      name: input.name,
      scopes: input.scopes,
      allowedIps: input.allowedIps,
      expiresAt,
      parentKeyId: null,
    },
    ctx.db,
  );
  await recordAudit(
    ctx,
    {
      companyId: principal.companyId,
      ...auditActorOf(principal),
      action: 'key.created',
      target: minted.id,
      detail: {
        name: minted.name,
        environment: minted.environment,
        scopes: minted.scopes,
        allowedIps: minted.allowedIps,
      },
    },
    ctx.db,
  );
  return { id: minted.id, name: minted.name, key: minted.key, livemode: minted.livemode };
}

/**
 * Roll with overlap: a new key with the old one's name, scopes, allowlist and expiry; the old key
 * keeps working until it is revoked, so the new secret can be deployed first.
 */
export async function rollConsoleKey(ctx: AppContext, principal: Principal, keyId: string) {
  const old = (await listKeys(ctx, principal)).find((key) => key.id === keyId);
  if (!old) throw fail('NOT_FOUND', `API key ${keyId} not found.`);
  return createConsoleKey(ctx, principal, {
    name: old.name,
    scopes: old.scopes,
    allowedIps: old.allowedIps ?? [],
    ...(old.expiresAt ? { expiresAt: new Date(old.expiresAt).toISOString() } : {}),
  });
}

/** One refused entry, as the API's validation names it. */
interface EntryIssue {
  field: string;
  in: string;
  message: string;
  keyword: string;
}

/** The allowlist editor's check: the API's own validation, entry by entry, without saving. */
export function checkAllowlist(entries: string[]) {
  try {
    return { valid: true, normalized: normalizeAllowedIps(entries) ?? [], issues: [] as EntryIssue[] };
  } catch (error) {
    const details = (error as { details?: { issues?: EntryIssue[] } }).details;
    if (!details?.issues) throw error;
    return { valid: false, normalized: [], issues: details.issues };
  }
}
