/**
 * `npm run backup -- <folder>` / `npm run restore -- <folder>` (README, "Backups"): reads the same
 * settings as the server (DATA_DIR, DATABASE_URL, S3_*, the storage key, SESSION_SECRET), so it runs
 * with the server's environment.
 */
import path from 'node:path';
import { ConfigError, invocationDir, loadConfig } from '../env.js';
import { backUp } from './backup.js';
import { restore } from './restore.js';

const KEY_NOTE =
  'The storage key (STORAGE_KEY / STORAGE_KEY_FILE) is NOT in the backup: the stored files stay encrypted under it, and the backup is authenticated with it (a restore without it refuses the backup). Keep it, separately.';

const [command, folderArg] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !folderArg) {
  console.error('Usage: npm run backup -- <folder>   |   npm run restore -- <folder>');
  process.exit(2);
}
const folder = path.resolve(invocationDir(), folderArg);
const say = (line: string) => console.log(line);

try {
  const config = loadConfig();
  const began = Date.now();
  if (command === 'backup') {
    const manifest = await backUp(config, folder, say);
    const bytes = manifest.documents.reduce((sum, doc) => sum + (doc.stored?.bytes ?? 0), 0);
    say(
      `Backed up ${manifest.documents.length} documents (${(bytes / 1024 / 1024).toFixed(1)} MB of stored files) to ${folder} in ${((Date.now() - began) / 1000).toFixed(1)} s.`,
    );
    if (manifest.storage === 's3') {
      say(
        'Files are in S3: this backup holds the database and the manifest only; back the bucket up with S3 versioning or replication.',
      );
      say(
        'The backup is authenticated with a key derived from SESSION_SECRET: restore it with the same SESSION_SECRET.',
      );
    }
    say(KEY_NOTE);
  } else {
    const manifest = await restore(config, folder, say);
    say(
      `Restored ${manifest.documents.length} documents into ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir} in ${((Date.now() - began) / 1000).toFixed(1)} s. Sessions are not restored: everyone signs in again.`,
    );
    say(`Start the server with the storage key it had when the backup was taken. ${KEY_NOTE}`);
  }
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
  process.exit(1);
}
