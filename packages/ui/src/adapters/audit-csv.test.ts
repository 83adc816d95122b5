import { createTestAuditEntry } from '@vita-docs/core/testing';
import { describe, expect, it } from 'vitest';
import { auditCsv } from './audit-csv';

describe('audit CSV', () => {
  it('writes CSV a spreadsheet opens as text: quoted where needed, formulas escaped', async () => {
    const csv = await auditCsv([
      createTestAuditEntry(2, {
        action: 'client.delete',
        detail: '=HYPERLINK("http://evil","Dora") <dora@example.org>',
      }),
      createTestAuditEntry(1, {
        actor: null,
        keys: ['c1/Banking%20Info/1_a,b.pdf'],
        detail: '+1 555, "home"',
      }),
    ]);
    expect(csv.split('\r\n')).toEqual([
      'Time,Who,Action,Action code,Client,Files,IP,Detail',
      `2026-11-25T10:00:00.000Z,vera@example.org,Deleted a client,client.delete,c1,,127.0.0.1,"'=HYPERLINK(""http://evil"",""Dora"") <dora@example.org>"`,
      `2026-11-25T10:00:00.000Z,,Viewed a file,doc.view,c1,"c1/Banking%20Info/1_a,b.pdf",127.0.0.1,"'+1 555, ""home"""`,
      '',
    ]);
  });
});
