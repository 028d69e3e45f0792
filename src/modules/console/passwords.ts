import { hash, verify } from '@node-rs/argon2';

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
