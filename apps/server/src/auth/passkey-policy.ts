/**
 * The admin's rule "require passkeys for admins and officers" (docs/behaviour.md#passkeys): a
 * setting kept in the database, with `PASSKEYS_REQUIRED_FOR_STAFF` as its value until an admin sets it.
 */
import type { Db } from '../db/database.js';
import type { Config } from '../env.js';
import { relyingParty } from './passkeys.js';
import type { UserRow } from './sessions.js';

type PolicyConfig = Pick<Config, 'publicUrl' | 'passkeysRequiredForStaff'>;

/** How many passkeys a person has. */
export async function countPasskeys(db: Db, email: string): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_email', '=', email)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the rule is on: the admin's setting, else the environment's default. */
export async function requireForStaff(db: Db, config: PolicyConfig): Promise<boolean> {
  const row = await db.selectFrom('passkey_policy').select('require_for_staff').executeTakeFirst();
  return row?.require_for_staff ?? config.passkeysRequiredForStaff;
}

export async function setRequireForStaff(db: Db, on: boolean, by: string): Promise<void> {
  await db
    .insertInto('passkey_policy')
    .values({ require_for_staff: on, updated_by: by })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({ require_for_staff: on, updated_by: by, updated_at: new Date() }),
    )
    .execute();
}

/**
 * What the rule asks of a PIN + code sign-in of `user`: nothing (`none`: the rule is off, they are
 * neither admin nor officer, or this server cannot make passkeys at all without `PUBLIC_URL`);
 * `passkey` when they own one (only a passkey sign-in gives them a session: PIN + code is refused);
 * `enrol` when they own none (a held-back session that makes one, after a mailed confirmation).
 */
export async function passkeyRule(
  db: Db,
  config: PolicyConfig,
  user: UserRow,
): Promise<'none' | 'enrol' | 'passkey'> {
  if ((await staffRule(db, config, user)) === 'none') return 'none';
  return (await countPasskeys(db, user.email)) === 0 ? 'enrol' : 'passkey';
}

/**
 * Whether the rule applies to `user` at all (`staff`: it is on, passkeys can be made, and they are an
 * admin or officer): their passkeys are then removed only by an admin, never by themselves.
 */
export async function staffRule(
  db: Db,
  config: PolicyConfig,
  user: Pick<UserRow, 'is_admin' | 'role'>,
): Promise<'none' | 'staff'> {
  if (!relyingParty(config)) return 'none';
  if (!user.is_admin && user.role !== 'officer') return 'none';
  return (await requireForStaff(db, config)) ? 'staff' : 'none';
}
