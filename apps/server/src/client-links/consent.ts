/**
 * The consent statement a client ticks before the first upload through a link
 * (docs/behaviour.md#requesting-documents-from-a-client): the admin may rewrite it per language in
 * Settings; an empty text means the default. Each change counts up its version, and a ticked consent
 * is audited with the version the client saw.
 */
import { consentStatement, type ConsentTextStatus } from '@vita-docs/core/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** The statement as saved ('' = default) and its version. */
export async function consentSettings(db: Db): Promise<ConsentTextStatus> {
  const row = await db
    .selectFrom('consent_text')
    .select(['text_en', 'text_es', 'version'])
    .executeTakeFirstOrThrow();
  return { en: row.text_en, es: row.text_es, version: row.version };
}

/** Saves the admin's texts; the version goes up only when a text changed. */
export async function setConsentSettings(
  db: Db,
  texts: { en: string; es: string },
  by: string,
): Promise<ConsentTextStatus> {
  const en = texts.en.trim();
  const es = texts.es.trim();
  await db
    .updateTable('consent_text')
    .set({
      version: sql`CASE WHEN text_en = ${en} AND text_es = ${es} THEN version ELSE version + 1 END`,
      text_en: en,
      text_es: es,
      updated_at: new Date(),
      updated_by: by,
    })
    .execute();
  return consentSettings(db);
}

/** What the link page shows: the statement in each language, defaults filled in, and its version. */
export async function consentForClients(db: Db): Promise<{ version: string; en: string; es: string }> {
  const saved = await consentSettings(db);
  return {
    version: String(saved.version),
    en: consentStatement(saved.en, 'en'),
    es: consentStatement(saved.es, 'es'),
  };
}
