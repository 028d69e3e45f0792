import type { Executor } from '../../db/database.js';
import type {
  ConsoleInvitesTable,
  ConsoleRecoveryCodesTable,
  ConsoleSessionsTable,
  ConsoleUsersTable,
} from './console.table.js';

export type UserRow = ConsoleUsersTable;
export type SessionRow = ConsoleSessionsTable;
export type InviteRow = ConsoleInvitesTable;
export type RecoveryCodeRow = ConsoleRecoveryCodesTable;

export const findUserByEmail = (db: Executor, email: string) =>
  db.selectFrom('console_users').selectAll().where('email', '=', email).executeTakeFirst();

export const findUser = (db: Executor, id: string) =>
  db.selectFrom('console_users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserOfCompany = (db: Executor, companyId: string, id: string) =>
  db
    .selectFrom('console_users')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();

export const listUsers = (db: Executor, companyId: string) =>
  db
    .selectFrom('console_users')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('removed_at', 'is', null)
    .orderBy('created_at')
    .execute();

export const insertUser = (db: Executor, row: UserRow) =>
  db.insertInto('console_users').values(row).execute();

export const deleteUser = (db: Executor, id: string) =>
  db.deleteFrom('console_users').where('id', '=', id).execute();

export const updateUser = (db: Executor, id: string, patch: Partial<UserRow>) =>
  db.updateTable('console_users').set(patch).where('id', '=', id).execute();

export const insertInvite = (db: Executor, row: InviteRow) =>
  db.insertInto('console_invites').values(row).execute();

export const findInvite = (db: Executor, tokenHash: string) =>
  db.selectFrom('console_invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

/** Marks an invite used; false when another request used it first. */
export async function useInvite(db: Executor, tokenHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('console_invites')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export const listOpenInvites = (db: Executor, companyId: string, now: number) =>
  db
    .selectFrom('console_invites')
    .select(['id', 'email', 'role', 'created_at', 'expires_at'])
    .where('company_id', '=', companyId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();

/** A session with its user, company and the company's console settings, by the id's hash. */
export const findSessionWithUser = (db: Executor, idHash: string) =>
  db
    .selectFrom('console_sessions as s')
    .innerJoin('console_users as u', 'u.id', 's.user_id')
    .innerJoin('companies as c', 'c.id', 'u.company_id')
    .leftJoin('console_settings as cs', 'cs.company_id', 'u.company_id')
    .select([
      's.csrf_token',
      's.environment',
      's.last_seen_at',
      's.expires_at',
      'u.id as user_id',
      'u.email',
      'u.role',
      'u.totp_enabled_at',
      'u.removed_at',
      'c.id as company_id',
      'c.name as company_name',
      'c.production_access',
      'cs.require_totp',
    ])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst();

export const insertSession = (db: Executor, row: SessionRow) =>
  db.insertInto('console_sessions').values(row).execute();

export const findSession = (db: Executor, idHash: string) =>
  db.selectFrom('console_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();

export const touchSession = (db: Executor, idHash: string, now: number) =>
  db.updateTable('console_sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();

export const setSessionEnvironment = (db: Executor, idHash: string, environment: SessionRow['environment']) =>
  db.updateTable('console_sessions').set({ environment }).where('id_hash', '=', idHash).execute();

export const deleteSession = (db: Executor, idHash: string) =>
  db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();

export const deleteSessionsOfUser = (db: Executor, userId: string) =>
  db.deleteFrom('console_sessions').where('user_id', '=', userId).execute();

export const requireTotpOf = async (db: Executor, companyId: string): Promise<boolean> => {
  const row = await db
    .selectFrom('console_settings')
    .select('require_totp')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row?.require_totp === 1;
};

export async function setRequireTotp(db: Executor, companyId: string, required: boolean, now: number) {
  const value = required ? 1 : 0;
  await db
    .insertInto('console_settings')
    .values({ company_id: companyId, require_totp: value, updated_at: now })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ require_totp: value, updated_at: now }))
    .execute();
}

/**
 * Takes a TOTP step for the user: true only when it is later than every step taken before. One
 * conditional UPDATE, so of two processes taking the same step at once exactly one wins.
 */
export async function claimTotpStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('console_users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where('totp_last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Counts a failed check inside a session; the session's failures so far. */
export async function addSessionFailure(db: Executor, idHash: string): Promise<number> {
  const row = await db
    .updateTable('console_sessions')
    .set((eb) => ({ failed_checks: eb('failed_checks', '+', 1) }))
    .where('id_hash', '=', idHash)
    .returning('failed_checks')
    .executeTakeFirst();
  return row?.failed_checks ?? 0;
}

export const insertRecoveryCodes = (db: Executor, rows: RecoveryCodeRow[]) =>
  db.insertInto('console_recovery_codes').values(rows).execute();

export const deleteRecoveryCodesOfUser = (db: Executor, userId: string) =>
  db.deleteFrom('console_recovery_codes').where('user_id', '=', userId).execute();

/** Two-factor sign-in off for a user: the secret and every recovery code go. */
export async function clearSecondFactor(db: Executor, userId: string): Promise<void> {
  await updateUser(db, userId, { totp_enabled_at: null, totp_secret: null });
  await deleteRecoveryCodesOfUser(db, userId);
}

/** Spends an unused recovery code of the user; false when it is unknown or was used (by anyone, first). */
export async function useRecoveryCode(db: Executor, userId: string, codeHash: string, now: number) {
  const result = await db
    .updateTable('console_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countRecoveryCodesLeft(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('console_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('left'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}
