import { auditActionLabel, auditActorLabel, auditFiles } from '@vita-docs/core';
import type { AuditEntry } from '@vita-docs/core';

/**
 * The entries as CSV for a spreadsheet (csv-stringify, loaded when asked): one row each, with a
 * header; a cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@` …) is escaped, since
 * names and details are typed by people. It starts with a UTF-8 byte order mark, without which Excel
 * reads the file in the machine's legacy code page and garbles `client’s` or `Adá`.
 */
export async function auditCsv(entries: readonly AuditEntry[]): Promise<string> {
  const { stringify } = await import('csv-stringify/browser/esm/sync');
  return `\uFEFF${stringify(
    entries.map((e) => [
      e.at,
      e.actor === null ? '' : auditActorLabel(e),
      auditActionLabel(e.action),
      e.action,
      e.clientId ?? '',
      e.clientName ?? '',
      auditFiles(e.keys).join(' | '),
      e.ip ?? '',
      e.detail ?? '',
    ]),
    {
      header: true,
      columns: ['Time', 'Who', 'Action', 'Action code', 'Client', 'Client name', 'Files', 'IP', 'Detail'],
      escape_formulas: true,
      record_delimiter: 'windows',
    },
  )}`;
}
