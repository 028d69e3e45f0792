import { Secret, TOTP } from 'otpauth';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';

const ISSUER = 'Seller console';

const totpOf = (base32: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(base32), digits: 6, period: 30 });

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

export const totpUri = (base32: string, email: string): string => totpOf(base32, email).toString();

/** True when the code matches the current 30 s step or the one either side of it. */
export function totpMatches(ctx: AppContext, base32: string, code: string): boolean {
  if (!/^[0-9]{6}$/.test(code)) return false;
  return totpOf(base32, '').validate({ token: code, timestamp: ctx.clock.now(), window: 1 }) !== null;
}

/** The code a device shows now (tests and the sandbox only; never sent anywhere). */
export const currentTotp = (base32: string, timestamp: number): string =>
  totpOf(base32, '').generate({ timestamp });

export function sealTotp(ctx: AppContext, base32: string): string {
  if (!ctx.secrets) throw fail('SERVICE_UNAVAILABLE', 'Two-factor sign-in needs SDAPI_MASTER_KEY to be set.');
  return ctx.secrets.seal(base32);
}

export const openTotp = (ctx: AppContext, sealed: string): string => ctx.secrets!.open(sealed);
