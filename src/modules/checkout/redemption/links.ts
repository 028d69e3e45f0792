import type { AppContext } from '../../../context.js';
import { fail } from '../../../http/errors.js';
import { randomToken, sha256Hex } from '../../../lib/crypto.js';

/** Where the hosted redemption page lives on the seller listener. */
export const REDEEM_PATH = '/redeem';

export interface IssuedLink {
  token: string;
  token_hash: string;
  token_sealed: string;
}

/**
 * A fresh redemption link token: 256 random bits, found again by its SHA-256 (the page's
 * lookup), kept sealed under the master key so the order's replay can show the same link.
 * The token is a bearer credential for the buyer's keys: it travels only in the order's
 * answer (and a regenerate's), never in events, logs or the order aggregate.
 */
export function issueLink(ctx: AppContext): IssuedLink {
  if (!ctx.secrets) throw fail('INTERNAL_ERROR', 'No master key is configured: links cannot be sealed.');
  const token = randomToken(32);
  return { token, token_hash: tokenHash(token), token_sealed: ctx.secrets.seal(token) };
}

export const tokenHash = (token: string) => sha256Hex(token);

export const linkUrl = (ctx: AppContext, token: string) => `${ctx.config.publicUrl}${REDEEM_PATH}/${token}`;

/** The live link of a record, or null when it was revoked (or never had one). */
export function liveLinkOf(
  ctx: AppContext,
  row: { token_sealed: string | null; revoked_at: number | null },
): string | null {
  if (!row.token_sealed || row.revoked_at !== null || !ctx.secrets) return null;
  return linkUrl(ctx, ctx.secrets.open(row.token_sealed));
}
