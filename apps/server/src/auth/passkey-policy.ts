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
 * Whether a PIN + code sign-in of `user` must make a passkey before anything else: the rule is on,
 * they are an admin or officer, have none, and this server can make passkeys at all (`PUBLIC_URL`).
 */
export async function passkeyDue(db: Db, config: PolicyConfig, user: UserRow): Promise<boolean> {
  if (!relyingParty(config)) return false;
  if (!user.is_admin && user.role !== 'officer') return false;
  if (!(await requireForStaff(db, config))) return false;
  return (await countPasskeys(db, user.email)) === 0;
}
