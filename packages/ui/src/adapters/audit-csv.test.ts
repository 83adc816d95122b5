import { createTestAuditEntry } from '@vita-docs/core/testing';
import { describe, expect, it } from 'vitest';
import { auditCsv } from './audit-csv';

describe('audit CSV', () => {
  it('writes CSV a spreadsheet opens as text: BOM, quoted where needed, formulas escaped, files by name', async () => {
    const csv = await auditCsv([
      createTestAuditEntry(2, {
        action: 'client.delete',
        detail: '=HYPERLINK("http://evil","Dora") <dora@example.org>',
      }),
      createTestAuditEntry(1, {
        actor: null,
        clientId: 'client0001',
        clientName: 'Adá Lovelace',
        keys: ['client0001/Banking%20Info/1_a,b.pdf', 'not/a key'],
        detail: '+1 555, "home"',
      }),
    ]);
    // Excel reads a UTF-8 file as such only with the byte order mark.
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Time,Who,Action,Action code,Client,Client name,Files,IP,Detail',
      `2026-11-25T10:00:00.000Z,vera@example.org,Deleted a client,client.delete,c1,,,127.0.0.1,"'=HYPERLINK(""http://evil"",""Dora"") <dora@example.org>"`,
      `2026-11-25T10:00:00.000Z,,Viewed a file,doc.view,client0001,Adá Lovelace,"Banking Info / a,b.pdf | not/a key",127.0.0.1,"'+1 555, ""home"""`,
      '',
    ]);
  });
});
