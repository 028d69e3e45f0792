import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { tokenPrefixFor } from '../../http/auth/bearer.js';
import type { Principal } from '../../http/auth/principal.js';
import { isScope, SCOPES, type Scope } from '../../http/auth/scopes.js';
import { fail } from '../../http/errors.js';
import { randomSecretBase32, sha256Hex } from '../../lib/crypto.js';
import type { Environment } from '../../lib/environment.js';
import { uuidv7 } from '../../lib/ids.js';
import { entryContains, validateAllowedIps } from '../../lib/ip.js';
import { getCompany } from '../companies/index.js';
import * as repo from './api-keys.repo.js';

export interface MintKeyInput {
  companyId: string;
  environment: Environment;
  name: string;
  scopes?: readonly string[];
  allowedIps?: readonly string[] | null;
  expiresAt?: number | null;
  parentKeyId?: string | null;
}

export interface MintedKey {
  id: string;
  name: string;
  key: string;
  environment: Environment;
  livemode: boolean;
  scopes: Scope[];
  allowedIps: string[] | null;
  expiresAt: number | null;
  createdAt: number;
}

function newToken(environment: Environment) {
  const secret = randomSecretBase32(40);
  const token = `${tokenPrefixFor(environment)}${secret}`;
  return { token, hash: sha256Hex(token), hint: `${tokenPrefixFor(environment)}${secret.slice(0, 4)}` };
}

/** Validates an API key's IP allowlist into its normalized form; empty means any source. */
export function normalizeAllowedIps(
  list: readonly string[] | null | undefined,
  field = 'allowed_ips',
): string[] | null {
  if (list == null || list.length === 0) return null;
  const result = validateAllowedIps(list);
  if (result.ok) return result.normalized;
  throw fail('VALIDATION_FAILED', `${field} has entries that cannot be allowed.`, {
    issues: result.issues.map((issue) => ({
      field: issue.index >= 0 ? `${field}[${issue.index}]` : field,
      in: 'body',
      message: issue.range ? `${issue.problem} (${issue.range})` : issue.problem,
      keyword: issue.problem,
      params: issue.range ? { entry: issue.value, range: issue.range } : { entry: issue.value },
    })),
  });
}

function normalizeScopes(scopes: readonly string[] | undefined): Scope[] {
  if (scopes === undefined) return [...SCOPES];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw fail('VALIDATION_FAILED', `Unknown scope ${unknown[0]}.`, {
      issues: unknown.map((s) => ({
        field: 'scopes',
        in: 'body',
        message: `unknown scope ${s}`,
        keyword: 'enum',
      })),
    });
  }
  const unique = [...new Set(scopes as Scope[])];
  if (unique.length === 0)
    throw fail('VALIDATION_FAILED', 'A key needs at least one scope.', {
      issues: [{ field: 'scopes', in: 'body', message: 'must not be empty', keyword: 'minItems' }],
    });
  return unique;
}

/** Creates a key for a company: the operator path and the seller's POST /keys both end here. */
export async function mintKey(ctx: AppContext, input: MintKeyInput, ex: Executor): Promise<MintedKey> {
  const company = await getCompany(ctx, input.companyId, ex);
  if (!company) throw fail('NOT_FOUND', `Company ${input.companyId} does not exist.`);
  const scopes = normalizeScopes(input.scopes);
  const allowedIps = normalizeAllowedIps(input.allowedIps);
  if (input.environment === 'production') {
    if (!company.apiAgreementSigned) {
      throw fail(
        'API_MODEL_AGREEMENT_REQUIRED',
        'Production keys need signed API Revenue Share Channel Terms.',
      );
    }
    if (!allowedIps) {
      throw fail('VALIDATION_FAILED', 'Production keys must carry an IP allowlist.', {
        issues: [
          { field: 'allowed_ips', in: 'body', message: 'required for production keys', keyword: 'required' },
        ],
      });
    }
  }
  const now = ctx.clock.now();
  if (input.expiresAt != null && input.expiresAt <= now) {
    throw fail('VALIDATION_FAILED', 'expiresAt must be in the future.', {
      issues: [{ field: 'expiresAt', in: 'body', message: 'must be in the future', keyword: 'minimum' }],
    });
  }
  const { token, hash, hint } = newToken(input.environment);
  const id = uuidv7(now);
  await repo.insertKey(ex, {
    id,
    company_id: company.id,
    environment: input.environment,
    name: input.name,
    token_hash: hash,
    token_hint: hint,
    scopes: JSON.stringify(scopes),
    allowed_ips: allowedIps ? JSON.stringify(allowedIps) : null,
    expires_at: input.expiresAt ?? null,
    parent_key_id: input.parentKeyId ?? null,
    created_at: now,
    rotated_at: null,
    revoked_at: null,
  });
  return {
    id,
    name: input.name,
    key: token,
    environment: input.environment,
    livemode: input.environment === 'production',
    scopes,
    allowedIps,
    expiresAt: input.expiresAt ?? null,
    createdAt: now,
  };
}

/** The live key behind a token hash, as the auth hook sees it. */
export async function loadPrincipal(ctx: AppContext, tokenHash: string): Promise<Principal | null> {
  const row = await repo.findLiveKeyByHash(ctx.db, tokenHash);
  if (!row) return null;
  return {
    keyId: row.id,
    keyName: row.name,
    companyId: row.company_id,
    companyName: row.company_name,
    environment: row.environment,
    scopes: new Set((JSON.parse(row.scopes) as string[]).filter(isScope)),
    allowedIps: row.allowed_ips ? (JSON.parse(row.allowed_ips) as string[]) : null,
    expiresAt: row.expires_at,
    productionAccess: row.production_access === 1,
    legacy: !row.token_hint.startsWith(tokenPrefixFor(row.environment)),
  };
}

/** Every allowlist entry of the child lies inside some entry of the parent's list. */
export function isAllowlistSubset(child: readonly string[], parent: readonly string[]): boolean {
  return child.every((entry) => parent.some((outer) => entryContains(outer, entry)));
}

/** Replaces a key's secret in place and drops every cached copy of the old one. */
export async function rotateToken(ctx: AppContext, row: repo.ApiKeyRow): Promise<string> {
  const { token, hash, hint } = newToken(row.environment);
  await repo.replaceToken(ctx.db, row.id, { hash, hint }, ctx.clock.now());
  ctx.authCache.invalidateKey(row.id);
  return token;
}
