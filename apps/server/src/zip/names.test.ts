import { describe, expect, it } from 'vitest';
import { createZipNamer, safeSegment } from './names.js';
import { isSafeEntryName } from './writer.js';

/** Entry names for a list of documents, in order, as one download names them. */
function zipEntryNames(documents: readonly { docType: string; filename: string }[]): string[] {
  const namer = createZipNamer();
  return documents.map((doc) => namer.name(doc.docType, doc.filename));
}

describe('ZIP entry names', () => {
  it('are {docType}/{filename}, with slashes in a category replaced', () => {
    expect(
      zipEntryNames([
        { docType: '13614-C', filename: 'intake.pdf' },
        { docType: 'Michigan/Locality Intake', filename: 'MI-1040.pdf' },
        { docType: 'W-2 (Zoë’s 2nd job)', filename: 'Ünïcödé 📄.jpg' },
      ]),
    ).toEqual([
      '13614-C/intake.pdf',
      'Michigan-Locality Intake/MI-1040.pdf',
      'W-2 (Zoë’s 2nd job)/Ünïcödé 📄.jpg',
    ]);
  });

  it('de-duplicate case-insensitively as name (2).pdf, name (3).pdf', () => {
    expect(
      zipEntryNames([
        { docType: 'W-2', filename: 'scan.pdf' },
        { docType: 'W-2', filename: 'scan.pdf' },
        { docType: 'W-2', filename: 'SCAN.PDF' },
        { docType: 'W-2', filename: 'scan (2).pdf' },
        { docType: 'W-2', filename: 'notes' },
        { docType: 'W-2', filename: 'notes' },
        { docType: 'Banking Info', filename: 'scan.pdf' },
      ]),
    ).toEqual([
      'W-2/scan.pdf',
      'W-2/scan (2).pdf',
      'W-2/SCAN (3).PDF',
      'W-2/scan (2) (2).pdf',
      'W-2/notes',
      'W-2/notes (2)',
      'Banking Info/scan.pdf',
    ]);
  });

  it('keep two categories that clean up to the same folder apart by file name', () => {
    const namer = createZipNamer();
    expect([namer.name('A/B', 'x.pdf'), namer.name('A-B', 'x.pdf'), namer.name('A\\B', 'x.pdf')]).toEqual([
      'A-B/x.pdf',
      'A-B/x (2).pdf',
      'A-B/x (3).pdf',
    ]);
  });

  it('turn hostile names into safe relative paths', () => {
    const hostile = [
      ['..', '..'],
      ['.', '.'],
      ['../../etc', 'passwd'],
      ['/abs', '/etc/passwd'],
      ['C:', 'C:\\Windows\\system32\\evil.dll'],
      ['\u0000\u001f', '\u0007bell\r\n.pdf'],
      ['   ', '   '],
      ['...', '....pdf'],
      ['CON', 'nul.txt'],
      ['a'.repeat(500), `${'é'.repeat(300)}.pdf`],
      ['<script>', 'a:b*c?d"e<f>g|h.pdf'],
      ['trailing. . ', 'file. . '],
    ] as const;
    const names = zipEntryNames(hostile.map(([docType, filename]) => ({ docType, filename })));
    for (const name of names) {
      expect(isSafeEntryName(name), name).toBe(true);
      expect(name.split('/')).toHaveLength(2);
      for (const segment of name.split('/')) {
        expect(segment).not.toMatch(/^[.\s]|[. ]$|[\\:*?"<>|]/);
        expect(Buffer.byteLength(segment)).toBeLessThanOrEqual(200);
      }
    }
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    expect(names.slice(0, 2)).toEqual(['Documents/file', 'Documents/file (2)']);
    expect(names[8]).toBe('_CON/_nul.txt');
  });

  it('fall back when nothing meaningful is left', () => {
    expect(safeSegment('', 'Documents')).toBe('Documents');
    expect(safeSegment(' . . ', 'file')).toBe('file');
    expect(safeSegment('//', 'Documents')).toBe('-');
  });
});
