import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/auth/principal.js';
import { OPT_IN_SCOPES, SCOPES, type Scope } from '../../http/auth/scopes.js';
import { fail } from '../../http/errors.js';
import { auditActorOf, recordAudit } from '../audit/index.js';
import * as repo from './api-keys.repo.js';
import { isAllowlistSubset, mintKey, normalizeAllowedIps, rotateToken } from './api-keys.service.js';

export interface CreateChildKeyInput {
  name: string;
  allowed_ips?: string[];
  includeFinanceScope?: boolean;
}

const FINANCE: Scope = 'seller:finance:read';
const DEFAULT_CHILD_SCOPES: readonly Scope[] = SCOPES.filter((s) => !OPT_IN_SCOPES.includes(s));

/** A key of the caller's company and environment, or the right refusal. */
async function ownKey(ctx: AppContext, principal: Principal, keyId: string): Promise<repo.ApiKeyRow> {
  const row = await repo.findKeyOfCompany(ctx.db, principal.companyId, keyId);
  if (!row) throw fail('NOT_FOUND', `API key ${keyId} not found.`);
  if (row.environment !== principal.environment) {
    throw fail(
      'KEY_ENVIRONMENT_MISMATCH',
      `API key ${keyId} belongs to ${row.environment}; use a ${row.environment} key.`,
    );
  }
  return row;
}

export const keyView = (row: repo.ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  keyHint: row.token_hint,
  environment: row.environment,
  livemode: row.environment === 'production',
  scopes: JSON.parse(row.scopes) as string[],
  allowedIps: row.allowed_ips ? (JSON.parse(row.allowed_ips) as string[]) : null,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  rotatedAt: row.rotated_at,
  parentKeyId: row.parent_key_id,
  lastUsedAt: row.last_used_at,
});

export async function listKeys(ctx: AppContext, principal: Principal) {
  const rows = await repo.listLiveKeys(ctx.db, principal.companyId, principal.environment);
  return rows.map(keyView);
}

/**
 * POST /keys: a child never exceeds its creator. Scopes are the creator's intersected with the
 * default set (finance only when asked and held), expiry is inherited, and a restricted
 * creator's allowlist bounds the child's.
 */
export async function createChildKey(ctx: AppContext, principal: Principal, input: CreateChildKeyInput) {
  if (input.includeFinanceScope && !principal.scopes.has(FINANCE)) {
    throw fail('INSUFFICIENT_SCOPE', `includeFinanceScope needs the creating key to hold ${FINANCE}.`, {
      missingScope: FINANCE,
    });
  }
  const wanted = input.includeFinanceScope ? [...DEFAULT_CHILD_SCOPES, FINANCE] : DEFAULT_CHILD_SCOPES;
  const scopes = wanted.filter((scope) => principal.scopes.has(scope));
  const requested = normalizeAllowedIps(input.allowed_ips);
  const parentList = principal.allowedIps && principal.allowedIps.length > 0 ? principal.allowedIps : null;
  if (parentList && requested && !isAllowlistSubset(requested, parentList)) {
    throw fail('VALIDATION_FAILED', "allowed_ips must lie within the creating key's allowlist.", {
      issues: [
        {
          field: 'allowed_ips',
          in: 'body',
          message: "not a subset of the creator's allowlist",
          keyword: 'subset',
        },
      ],
    });
  }
  const minted = await mintKey(
    ctx,
    {
      companyId: principal.companyId,
      environment: principal.environment,
      name: input.name,
      scopes,
      allowedIps: requested ?? parentList,
      expiresAt: principal.expiresAt,
      parentKeyId: principal.keyId,
    },
    ctx.db,
  );
  await audit(ctx, principal, 'key.created', minted.id, {
    name: minted.name,
    scopes,
    allowedIps: minted.allowedIps,
  });
  return { id: minted.id, name: minted.name, key: minted.key, livemode: minted.livemode };
}

export async function replaceAllowedIps(
  ctx: AppContext,
  principal: Principal,
  keyId: string,
  list: string[],
) {
  const row = await ownKey(ctx, principal, keyId);
  const normalized = normalizeAllowedIps(list);
  if (!normalized && row.environment === 'production') {
    throw fail('VALIDATION_FAILED', 'Production keys must carry an IP allowlist.', {
      issues: [
        {
          field: 'allowed_ips',
          in: 'body',
          message: 'must not be empty for production keys',
          keyword: 'minItems',
        },
      ],
    });
  }
  const own = principal.allowedIps && principal.allowedIps.length > 0 ? principal.allowedIps : null;
  if (own && (!normalized || !isAllowlistSubset(normalized, own))) {
    throw fail('VALIDATION_FAILED', "allowed_ips must lie within the calling key's own allowlist.", {
      issues: [
        {
          field: 'allowed_ips',
          in: 'body',
          message: "not a subset of the caller's allowlist",
          keyword: 'subset',
        },
      ],
    });
  }
  await repo.setAllowedIps(ctx.db, row.id, normalized ? JSON.stringify(normalized) : null);
  ctx.authCache.invalidateKey(row.id);
  await audit(ctx, principal, 'key.allowlist_changed', row.id, { allowedIps: normalized });
}

/** In-place rotation: the old secret stops working at once; the new one is shown once. */
export async function rotateKey(ctx: AppContext, principal: Principal, keyId: string) {
  const row = await ownKey(ctx, principal, keyId);
  const missing = (JSON.parse(row.scopes) as Scope[]).filter((scope) => !principal.scopes.has(scope));
  if (missing.length > 0) {
    throw fail(
      'INSUFFICIENT_SCOPE',
      `Rotating this key would reveal a secret holding ${missing.join(', ')}, which the caller lacks.`,
      { missingScope: missing[0], missingScopes: missing },
    );
  }
  const key = await rotateToken(ctx, row);
  await audit(ctx, principal, 'key.rotated', row.id);
  return { id: row.id, name: row.name, key, livemode: row.environment === 'production' };
}

export async function revokeKey(ctx: AppContext, principal: Principal, keyId: string): Promise<void> {
  const row = await ownKey(ctx, principal, keyId);
  await repo.revokeKey(ctx.db, row.id, ctx.clock.now());
  ctx.authCache.invalidateKey(row.id);
  await audit(ctx, principal, 'key.revoked', row.id);
}

/** Every key change lands in the company's audit log, from the console or the API alike. */
const audit = (
  ctx: AppContext,
  principal: Principal,
  action: string,
  keyId: string,
  detail?: Record<string, unknown>,
) =>
  recordAudit(
    ctx,
    {
      companyId: principal.companyId,
      ...auditActorOf(principal),
      action,
      target: keyId,
      ...(detail ? { detail } : {}),
    },
    ctx.db,
  );
