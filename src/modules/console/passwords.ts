import { hash, verify } from '@node-rs/argon2';
import { fail } from '../../http/errors.js';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/** argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: the OWASP minimum). */
export const hashPassword = (password: string): Promise<string> => hash(password);

/** A hash of nothing anyone knows: verifying against it costs what a real check costs. */
let decoy: Promise<string> | undefined;

/** Constant work whether or not the account exists, so timing does not tell. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  decoy ??= hash('decoy password that matches no account');
  const hashed = stored ?? (await decoy);
  const ok = await verify(hashed, password).catch(() => false);
  return stored !== null && ok;
}

export function checkPasswordPolicy(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw fail(
      'VALIDATION_FAILED',
      `A password has ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
      {
        issues: [
          {
            field: 'password',
            in: 'body',
            message: `must have at least ${MIN_PASSWORD_LENGTH} characters`,
            keyword: 'minLength',
          },
        ],
      },
    );
  }
}
