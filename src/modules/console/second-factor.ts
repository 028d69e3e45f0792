import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import * as repo from './console.repo.js';
import { spendRecoveryCode } from './recovery-codes.js';
import { openTotp, totpStepOf } from './totp.js';

/** What a user gives to prove the second factor: the authenticator's code or a recovery code. */
export interface SecondFactorProof {
  code?: string | undefined;
  recoveryCode?: string | undefined;
}

export type Factor = 'totp' | 'recovery_code';

/** Which factor a proof offers; refuses one that offers both (and none, unless `optional`). */
export function factorOf(proof: SecondFactorProof, codeField = 'code'): Factor | null {
  const given = [proof.code, proof.recoveryCode].filter((value) => value !== undefined).length;
  if (given === 2) {
    throw fail('VALIDATION_FAILED', `Give ${codeField} or recoveryCode, not both.`, {
      issues: [{ field: 'recoveryCode', in: 'body', message: `excludes ${codeField}`, keyword: 'oneOf' }],
    });
  }
  if (proof.code !== undefined) return 'totp';
  return proof.recoveryCode !== undefined ? 'recovery_code' : null;
}

export function requireFactor(proof: SecondFactorProof): Factor {
  const factor = factorOf(proof);
  if (!factor) {
    throw fail('VALIDATION_FAILED', 'Give code (from the authenticator app) or recoveryCode.', {
      issues: [
        { field: 'code', in: 'body', message: 'code or recoveryCode is required', keyword: 'required' },
      ],
    });
  }
  return factor;
}

/**
 * Checks and uses up one proof of the user's second factor: an authenticator code of a step
 * later than any used before (a code is good once, even inside its validity window), or an
 * unused recovery code.
 */
export async function spendSecondFactor(
  ctx: AppContext,
  user: repo.UserRow,
  proof: SecondFactorProof,
): Promise<boolean> {
  if (!user.totp_secret || user.totp_enabled_at === null) return false;
  if (proof.recoveryCode !== undefined) return spendRecoveryCode(ctx, user.id, proof.recoveryCode);
  const step = totpStepOf(ctx, openTotp(ctx, user.totp_secret), proof.code ?? '');
  return step !== null && repo.claimTotpStep(ctx.db, user.id, step);
}
