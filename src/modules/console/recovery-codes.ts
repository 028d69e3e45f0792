import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { randomSecretBase32, sha256Hex } from '../../lib/crypto.js';
import { uuidv7 } from '../../lib/ids.js';
import * as repo from './console.repo.js';

/** How many one-time recovery codes a user holds after enrolment or a regeneration. */
export const RECOVERY_CODE_COUNT = 10;
/** 16 base32 characters: 80 random bits, so a plain SHA-256 of one cannot be searched back. */
const CODE_LENGTH = 16;

/**
 * As typed: case, spaces and hyphens do not matter, and the letters the Crockford alphabet leaves
 * out for looking like digits (i, l, o) read as the digits.
 */
export const normalizeRecoveryCode = (code: string): string =>
  code.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');

const hashOf = (code: string) => sha256Hex(`console-recovery-code:${normalizeRecoveryCode(code)}`);

/** Groups of four for reading aloud and typing: `abcd-efgh-jkmn-pqrs`. */
const formatted = (raw: string) => raw.match(/.{4}/g)!.join('-');

/**
 * A fresh set of codes for the user, replacing every earlier one (used or not). Only hashes are
 * stored; the codes themselves are returned for the one answer that shows them.
 */
export async function issueRecoveryCodes(ctx: AppContext, ex: Executor, userId: string): Promise<string[]> {
  const now = ctx.clock.now();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => formatted(randomSecretBase32(CODE_LENGTH)));
  await repo.deleteRecoveryCodesOfUser(ex, userId);
  await repo.insertRecoveryCodes(
    ex,
    codes.map((code) => ({
      id: uuidv7(now),
      user_id: userId,
      code_hash: hashOf(code),
      created_at: now,
      used_at: null,
    })),
  );
  return codes;
}

/** Spends one of the user's unused codes; false for a wrong, used or malformed one. */
export function spendRecoveryCode(ctx: AppContext, userId: string, code: string): Promise<boolean> {
  if (normalizeRecoveryCode(code).length !== CODE_LENGTH) return Promise.resolve(false);
  return repo.useRecoveryCode(ctx.db, userId, hashOf(code), ctx.clock.now());
}

export const recoveryCodesLeft = (ctx: AppContext, userId: string) =>
  repo.countRecoveryCodesLeft(ctx.db, userId);
