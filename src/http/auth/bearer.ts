import type { Environment } from '../../lib/environment.js';

export const TOKEN_PREFIX = 'service_sk_';
const ENV_PREFIXES: Record<Environment, string> = {
  production: 'service_sk_live_',
  sandbox: 'service_sk_sbx_',
};
const TOKEN_BODY = /^[A-Za-z0-9]{16,128}$/;

export type BearerResult =
  | { ok: true; token: string; declaredEnvironment: Environment | null }
  | {
      ok: false;
      reason: 'missing_authorization' | 'malformed_authorization' | 'not_a_seller_api_key' | 'key_not_live';
    };

/**
 * Strict `Authorization: Bearer <token>`: one scheme word, one space, the raw token.
 * No doubled `Bearer`, no quotes, no surrounding whitespace, ASCII only. A header of that shape
 * whose `service_sk_` token no key could have (wrong length or characters) names a key that does
 * not exist: `key_not_live`, as an unknown key of the right form, not a malformed header.
 */
export function parseBearer(header: string | undefined): BearerResult {
  if (header === undefined || header === '') return { ok: false, reason: 'missing_authorization' };
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') {
    return { ok: false, reason: 'malformed_authorization' };
  }
  const token = header.slice(space + 1);
  if (!token.startsWith(TOKEN_PREFIX)) {
    return {
      ok: false,
      reason: /^[\x21-\x7e]+$/.test(token) ? 'not_a_seller_api_key' : 'malformed_authorization',
    };
  }
  const declaredEnvironment = declaredEnvironmentOf(token);
  const body = token.slice(
    declaredEnvironment ? ENV_PREFIXES[declaredEnvironment].length : TOKEN_PREFIX.length,
  );
  if (TOKEN_BODY.test(body)) return { ok: true, token, declaredEnvironment };
  return { ok: false, reason: /^[\x21-\x7e]+$/.test(token) ? 'key_not_live' : 'malformed_authorization' };
}

function declaredEnvironmentOf(token: string): Environment | null {
  if (token.startsWith(ENV_PREFIXES.production)) return 'production';
  if (token.startsWith(ENV_PREFIXES.sandbox)) return 'sandbox';
  return null;
}

export const tokenPrefixFor = (environment: Environment): string => ENV_PREFIXES[environment];
