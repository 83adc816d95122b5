/**
 * Whether documents are read on the device (docs/behaviour.md#reading-documents): each person's own
 * `Check documents on this device` (Account), kept with the account so it follows them to another
 * device, and the programme's `Check documents on the device` (Settings). Reading happens only while
 * both are on; both are on until turned off.
 */
import type { Db } from './db/database.js';

/** The programme's switch (Settings): off means no document is read anywhere, the client page included. */
export async function programmeReads(db: Db): Promise<boolean> {
  const row = await db.selectFrom('programme_settings').select('read_documents').executeTakeFirst();
  return row?.read_documents ?? true;
}

export async function setProgrammeReads(db: Db, on: boolean, by: string): Promise<boolean> {
  await db
    .updateTable('programme_settings')
    .set({ read_documents: on, updated_at: new Date(), updated_by: by })
    .execute();
  return programmeReads(db);
}

/** The person's own switch and the programme's, as Account shows them. */
export async function readingSwitches(db: Db, email: string): Promise<{ mine: boolean; programme: boolean }> {
  const row = await db
    .selectFrom('users')
    .select('read_documents')
    .where('email', '=', email)
    .executeTakeFirst();
  return { mine: row?.read_documents ?? true, programme: await programmeReads(db) };
}

export async function setOwnReading(
  db: Db,
  email: string,
  on: boolean,
): Promise<{ mine: boolean; programme: boolean }> {
  await db.updateTable('users').set({ read_documents: on }).where('email', '=', email).execute();
  return readingSwitches(db, email);
}
