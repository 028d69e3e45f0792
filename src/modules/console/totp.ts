import { Secret, TOTP } from 'otpauth';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';

const ISSUER = 'Seller console';
const PERIOD_S = 30;

const totpOf = (base32: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(base32), digits: 6, period: PERIOD_S });

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

export const totpUri = (base32: string, email: string): string => totpOf(base32, email).toString();

/**
 * The 30 s step (Unix seconds / 30) the code belongs to when it matches the current step or the
 * one either side of it, else null. Whether that step was already used is the caller's check
 * (claimTotpStep in console.repo.ts): a code is good once.
 */
export function totpStepOf(ctx: AppContext, base32: string, code: string): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const now = ctx.clock.now();
  const delta = totpOf(base32, '').validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
}

/** The code a device shows now (tests and the sandbox only; never sent anywhere). */
export const currentTotp = (base32: string, timestamp: number): string =>
  totpOf(base32, '').generate({ timestamp });

export function sealTotp(ctx: AppContext, base32: string): string {
  if (!ctx.secrets) throw fail('SERVICE_UNAVAILABLE', 'Two-factor sign-in needs SDAPI_MASTER_KEY to be set.');
  return ctx.secrets.seal(base32);
}

export const openTotp = (ctx: AppContext, sealed: string): string => ctx.secrets!.open(sealed);
