/**
 * The programme's name and who is asking (docs/behaviour.md#requesting-documents-from-a-client): the
 * client's page and every link mail name the programme (Settings, `VITA Documents` until an admin sets
 * one) and the first name of the volunteer who sent the link, so a client knows the request is real.
 */
import { PROGRAMME_NAME_DEFAULT } from '@vita-docs/core/contract';
import type { Db } from '../db/database.js';

/** The programme's name as set in Settings. */
export async function programmeName(db: Db): Promise<string> {
  const row = await db.selectFrom('programme_settings').select('name').executeTakeFirst();
  return row?.name.trim() || PROGRAMME_NAME_DEFAULT;
}

export async function setProgrammeName(db: Db, name: string, by: string): Promise<string> {
  await db
    .updateTable('programme_settings')
    .set({ name: name.trim(), updated_at: new Date(), updated_by: by })
    .execute();
  return programmeName(db);
}

/**
 * Who asks through a link: the programme, and the first name of the volunteer who sent it (the client's
 * volunteer while the sender's account is gone, else the programme's name alone).
 */
export async function whoAsks(
  db: Db,
  link: { created_by: string | null },
  client: { created_by: string | null },
): Promise<{ programme: string; volunteer: string }> {
  const programme = await programmeName(db);
  for (const email of [link.created_by, client.created_by]) {
    if (!email) continue;
    const user = await db
      .selectFrom('users')
      .select('first_name')
      .where('email', '=', email)
      .executeTakeFirst();
    if (user) return { programme, volunteer: user.first_name };
  }
  return { programme, volunteer: programme };
}
