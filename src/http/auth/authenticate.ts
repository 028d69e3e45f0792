import type { AppContext } from '../../context.js';
import { sha256Hex } from '../../lib/crypto.js';
import { ipMatchesAny, parseIpEntry } from '../../lib/ip.js';
import { loadPrincipal } from '../../modules/api-keys/index.js';
import { fail } from '../errors.js';
import { parseBearer } from './bearer.js';
import type { Principal } from './principal.js';
import type { Scope } from './scopes.js';

const UNKNOWN_KEY = 'This API key is unknown, revoked or was rotated away.';

const BEARER_MESSAGES = {
  missing_authorization: 'Send Authorization: Bearer <API key>.',
  malformed_authorization:
    'The Authorization header must be exactly "Bearer <API key>": one space, no quotes, ASCII only.',
  not_a_seller_api_key: 'The bearer token is not a Seller API key (they start with service_sk_).',
  key_not_live: UNKNOWN_KEY,
} as const;

/**
 * The hash of the last token each connection sent: a kept-alive client sends the same one with
 * every request, hashed once. The token stays referenced while its connection lives, as the
 * headers of a request in flight reference it.
 */
const lastTokenOf = new WeakMap<object, { token: string; hash: string }>();

function tokenHashOf(token: string, connection: object): string {
  const last = lastTokenOf.get(connection);
  if (last?.token === token) return last.hash;
  const hash = sha256Hex(token);
  lastTokenOf.set(connection, { token, hash });
  return hash;
}

/**
 * Resolves the caller of a seller route. The principal may come from the
 * ~60 s cache; expiry, the allowlist and production access are checked on every request.
 */
export async function authenticateSeller(
  ctx: AppContext,
  authorization: string | undefined,
  clientIp: string | null,
  connection: object,
): Promise<Principal> {
  const bearer = parseBearer(authorization);
  if (!bearer.ok) throw fail('UNAUTHORIZED', BEARER_MESSAGES[bearer.reason], { reason: bearer.reason });
  const now = ctx.clock.now();
  const tokenHash = tokenHashOf(bearer.token, connection);
  let principal = ctx.authCache.get(tokenHash, now);
  if (!principal) {
    const loaded = await loadPrincipal(ctx, tokenHash);
    if (!loaded) {
      throw fail('UNAUTHORIZED', UNKNOWN_KEY, { reason: 'key_not_live' });
    }
    ctx.authCache.set(tokenHash, loaded, now);
    principal = loaded;
  }
  if (bearer.declaredEnvironment && bearer.declaredEnvironment !== principal.environment) {
    throw fail(
      'KEY_ENVIRONMENT_MISMATCH',
      `The key prefix says ${bearer.declaredEnvironment}; the key is ${principal.environment}.`,
    );
  }
  if (principal.expiresAt !== null && principal.expiresAt <= now) {
    throw fail('UNAUTHORIZED', 'This API key has expired.', { reason: 'key_expired' });
  }
  if (principal.scopes.size === 0) {
    throw fail('UNAUTHORIZED', 'This API key holds no scopes and cannot be used.', {
      reason: 'empty_scope_set',
    });
  }
  const onThisMachine =
    ctx.config.devLoopbackAllowlist &&
    isLoopback((connection as { remoteAddress?: string }).remoteAddress) &&
    isLoopback(clientIp ?? undefined);
  if (!onThisMachine) checkAllowlist(principal, clientIp, ctx.config.publicUrl);
  if (principal.environment === 'production' && !principal.productionAccess) {
    throw fail('PRODUCTION_ACCESS_NOT_APPROVED', 'Production access is not enabled for your company yet.', {
      consoleAction: 'complete_kyb',
    });
  }
  return principal;
}

const isLoopback = (address: string | undefined) =>
  address !== undefined && /^(127\.|::1$|::ffff:127\.)/.test(address);

/**
 * What can really fix an IP_NOT_ALLOWED: the refused key cannot edit its own list from here,
 * and an allowlist holds public addresses only, so a caller on this machine needs the
 * development allowance instead.
 */
function allowlistHint(principal: Principal, clientIp: string): string {
  if (!parseIpEntry(clientIp).ok) {
    return `${clientIp} is not a public address and no allowlist can hold it. On a development machine start the service with SDAPI_DEV_LOOPBACK_ALLOWLIST=1 (callers on that machine pass allowlists; refused with PostgreSQL or NODE_ENV=production); otherwise call from an allowed address.`;
  }
  return `Add ${clientIp} with PATCH /keys/${principal.keyId}/allowed-ips, sent from an allowed address or with another ${principal.environment} key of your company (scope seller:keys:write) whose own allowlist includes ${clientIp}; or have an operator create a key for it: sdapi key create --company ${principal.companyId} --environment ${principal.environment} --allowed-ips ${clientIp}.`;
}

function checkAllowlist(principal: Principal, clientIp: string | null, publicUrl: string): void {
  const list = principal.allowedIps;
  if (!list || list.length === 0) return;
  if (clientIp === null) {
    throw fail('IP_NOT_RESOLVABLE', 'The client address could not be determined for the allowlist check.');
  }
  if (!ipMatchesAny(clientIp, list)) {
    throw fail('IP_NOT_ALLOWED', `${clientIp} is not in this key's IP allowlist.`, {
      clientIp,
      keyId: principal.keyId,
      allowedIpsCount: list.length,
      docsUrl: `${publicUrl}/docs#section/IP-allowlists`,
      consoleAction: 'manage_api_keys',
    }).withHint(allowlistHint(principal, clientIp));
  }
}

/** Any one of the route's scopes admits the key; the message names what is missing. */
export function requireScopes(principal: Principal, anyOf: readonly Scope[] | undefined): void {
  if (!anyOf || anyOf.length === 0 || anyOf.some((scope) => principal.scopes.has(scope))) return;
  const named = anyOf.length === 1 ? anyOf[0] : `one of ${anyOf.join(', ')}`;
  throw fail('INSUFFICIENT_SCOPE', `This API key lacks the scope ${named}.`, { requiredScopes: [...anyOf] });
}
