import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_FILE_NAME_BYTES,
  applyRenameRule,
  buildDocKey,
  captureFileName,
  refusalBeforeUpload,
  keyOrder,
  mediaType,
  parseDocKey,
  safeFileName,
  uploadContentType,
  documentFileName,
} from './files.js';
import { fileTooLargeMessage } from './messages.js';

describe('rename rule', () => {
  it('trims, refuses empty, and re-adds the original extension case-insensitively', () => {
    expect(applyRenameRule('W2.pdf', '  ')).toBeNull();
    expect(applyRenameRule('W2.pdf', '  Employer W-2 ')).toBe('Employer W-2.pdf');
    expect(applyRenameRule('W2.pdf', 'Employer.PDF')).toBe('Employer.PDF');
    expect(applyRenameRule('scan', 'renamed')).toBe('renamed');
    expect(applyRenameRule('photo.jpeg', 'front.jpg')).toBe('front.jpg.jpeg');
  });

  it('takes a name of nothing but dots and spaces for no name', () => {
    for (const name of ['..', ' . . ', '...', '.']) expect(applyRenameRule('statement.pdf', name)).toBeNull();
    expect(applyRenameRule('statement.pdf', '.hidden')).toBe('.hidden.pdf');
  });
});

describe('media type', () => {
  it('drops parameters, white space and case', () => {
    expect(mediaType('Image/JPEG; charset=binary')).toBe('image/jpeg');
    expect(mediaType(' application/pdf ')).toBe('application/pdf');
    expect(mediaType(undefined)).toBe('');
  });
});

describe('upload content type', () => {
  it('is application/pdf for .pdf, else the own type, else image/jpeg', () => {
    expect(uploadContentType('a.PDF', 'application/octet-stream')).toBe('application/pdf');
    expect(uploadContentType('a.png', 'image/png')).toBe('image/png');
    expect(uploadContentType('a.heic', '')).toBe('image/jpeg');
  });
});

describe('storage keys', () => {
  it('round-trips category names with slashes and unicode file names', () => {
    const key = buildDocKey('abcDEF123_-xyz', 'Michigan/Locality Intake', 1700000000000, 'Ñandú 1040.pdf');
    expect(key).toBe('abcDEF123_-xyz/Michigan%2FLocality%20Intake/1700000000000_Ñandú 1040.pdf');
    expect(parseDocKey(key)).toEqual({
      clientId: 'abcDEF123_-xyz',
      docType: 'Michigan/Locality Intake',
      order: 1700000000000,
      filename: 'Ñandú 1040.pdf',
    });
  });

  it('rejects traversal and malformed keys', () => {
    for (const bad of [
      '../etc/passwd',
      'abcDEF123_-xyz/W-2/../../x',
      'abcDEF123_-xyz/W-2/1_a/b.pdf',
      'abcDEF123_-xyz/W-2/noprefix.pdf',
      'abcDEF123_-xyz/%E0%A4%A/1_a.pdf',
      'abcDEF123_-xyz/W-2/1_..',
      'short/W-2/1_a.pdf',
      'abcDEF123_-xyz/W-2/1_.hidden',
    ]) {
      expect(parseDocKey(bad), bad).toBeNull();
    }
  });

  it('orders by the numeric prefix', () => {
    const keys = ['c/t/20_b.pdf', 'c/t/3_a.pdf', 'c/t/100_c.pdf'];
    expect([...keys].sort((a, b) => keyOrder(a) - keyOrder(b))).toEqual([
      'c/t/3_a.pdf',
      'c/t/20_b.pdf',
      'c/t/100_c.pdf',
    ]);
  });
});

describe('safe file names', () => {
  it('removes separators, control characters and leading dots, and is never empty', () => {
    expect(safeFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(safeFileName('a\u0000b\nc.pdf')).toBe('abc.pdf');
    expect(safeFileName('...')).toBe('file');
    expect(safeFileName('  .env ')).toBe('env');
  });

  it('shortens long names to 200 bytes and keeps the extension', () => {
    const long = `${'é'.repeat(200)}.pdf`;
    const safe = safeFileName(long);
    expect(new TextEncoder().encode(safe).length).toBeLessThanOrEqual(200);
    expect(safe.endsWith('.pdf')).toBe(true);
  });
});

describe('document extensions', () => {
  it("keeps the stored type's own extension and appends it to anything else", () => {
    expect(documentFileName('scan.PDF', 'application/pdf')).toBe('scan.PDF');
    expect(documentFileName('IMG_1.JPEG', 'image/jpeg')).toBe('IMG_1.JPEG');
    expect(documentFileName('IMG_1.HEIC', 'image/jpeg')).toBe('IMG_1.HEIC.jpg');
    expect(documentFileName('W2fdp.cmd', 'application/pdf')).toBe('W2fdp.cmd.pdf');
    expect(documentFileName('statement.cmd', 'application/pdf')).toBe('statement.cmd.pdf');
    expect(documentFileName('a_;x=1;evil.html', 'application/pdf')).toBe('a_;x=1;evil.html.pdf');
    expect(documentFileName('page', 'image/png')).toBe('page.png');
    expect(documentFileName('pdf', 'application/pdf')).toBe('pdf.pdf');
    expect(documentFileName('x.hta', 'application/x-unknown')).toBe('x.hta.pdf');
  });

  it('refuses names of nothing but dots and spaces, and keeps the extension of long names', () => {
    expect(documentFileName('..', 'application/pdf')).toBeNull();
    expect(documentFileName(' . ', 'image/png')).toBeNull();
    const long = documentFileName(`${'é'.repeat(150)}.cmd`, 'application/pdf') ?? '';
    expect(new TextEncoder().encode(long).length).toBeLessThanOrEqual(200);
    expect(long.endsWith('.pdf')).toBe(true);
    expect(documentFileName('\u0001\u0002', 'application/pdf')).toBe('file.pdf');
  });

  it('strips bidi overrides that disguise an extension', () => {
    expect(safeFileName('W2\u202Efdp.cmd')).toBe('W2fdp.cmd');
  });
});

describe('camera capture names', () => {
  it('names a capture after its category and the next number', () => {
    expect(captureFileName('Banking Info', [])).toBe('Banking Info 1.pdf');
    expect(captureFileName('Banking Info', ['Banking Info 1.pdf', 'statement.pdf'])).toBe(
      'Banking Info 2.pdf',
    );
    // Uploaded and queued names count alike, whatever their case and extension.
    expect(
      captureFileName('Banking Info', ['Banking Info 1.pdf', 'banking info 2.PDF', 'Banking Info 3.jpg']),
    ).toBe('Banking Info 4.pdf');
    expect(captureFileName('Banking Info', new Set(['Banking Info 2.pdf']), '.jpg')).toBe(
      'Banking Info 3.jpg',
    );
  });

  it('continues after the highest number, so numbers follow the order photos were taken', () => {
    expect(captureFileName('W-2', ['W-2 1.pdf', 'W-2 3.pdf'])).toBe('W-2 4.pdf');
  });

  it('counts only names of this category', () => {
    expect(
      captureFileName('Banking', [
        'Banking Info 5.pdf',
        'Banking 1 copy.pdf',
        'Banking1.pdf',
        'Banking 2 .pdf',
      ]),
    ).toBe('Banking 1.pdf');
    expect(captureFileName('W-2 (Acme)', ['W-2 1.pdf'])).toBe('W-2 (Acme) 1.pdf');
  });

  it('turns characters a file name cannot hold into -', () => {
    expect(captureFileName('Michigan/Locality Intake', [])).toBe('Michigan-Locality Intake 1.pdf');
    expect(captureFileName('a\\b:c*d?e"f<g>h|i', [])).toBe('a-b-c-d-e-f-g-h-i 1.pdf');
    expect(captureFileName('Tab\there\u0000nul\u007fdel\u0085', [])).toBe('Tab-here-nul-del- 1.pdf');
    expect(captureFileName('Michigan/Locality Intake', ['Michigan-Locality Intake 1.pdf'])).toBe(
      'Michigan-Locality Intake 2.pdf',
    );
  });

  it('folds white space, drops leading dots and never names a file after nothing', () => {
    expect(captureFileName('  Banking   Info  ', [])).toBe('Banking Info 1.pdf');
    expect(captureFileName('..hidden', [])).toBe('hidden 1.pdf');
    expect(captureFileName(' . ', [])).toBe('Photo 1.pdf');
  });

  it('shortens a long category name so the whole name fits, and still counts those names', () => {
    const long = `Other (${'ü'.repeat(120)})`;
    const first = captureFileName(long, []);
    expect(new TextEncoder().encode(first).length).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(first.endsWith(' 1.pdf')).toBe(true);
    expect(safeFileName(first)).toBe(first);
    expect(captureFileName(long, [first]).endsWith(' 2.pdf')).toBe(true);
  });

  it('refuses an extension that is not one', () => {
    expect(() => captureFileName('W-2', [], 'pdf')).toThrow(RangeError);
    expect(() => captureFileName('W-2', [], '.p/f')).toThrow(RangeError);
  });

  it('always gives a name the server keeps as it is, shared by no other file, numbered after the others (property)', () => {
    const label = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc.constantFrom(
        'Banking Info',
        'Michigan/Locality Intake',
        'License/Other Identification',
        '13614-C',
        'W-2 (Acme & Co.)',
      ),
    );
    const names = (category: string) =>
      fc.array(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 40 }),
          fc
            .tuple(fc.nat({ max: 1000 }), fc.constantFrom('.pdf', '.PDF', '.jpg', ''))
            .map(([n, ext]) => `${category} ${n}${ext}`),
        ),
        { maxLength: 8 },
      );
    fc.assert(
      fc.property(
        label.chain((category) => fc.tuple(fc.constant(category), names(category))),
        ([category, existing]) => {
          const name = captureFileName(category, existing);
          expect(safeFileName(name)).toBe(name);
          // eslint-disable-next-line no-control-regex -- control characters must not be in the name
          expect(name).not.toMatch(/[/\\:*?"<>|\u0000-\u001f\u007f-\u009f]/);
          expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
          expect(existing.map((e) => e.normalize('NFC').toLowerCase())).not.toContain(name.toLowerCase());
          const number = Number(/ (\d+)\.pdf$/.exec(name)?.[1]);
          expect(captureFileName(category, [...existing, name]).endsWith(` ${number + 1}.pdf`)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('refusing a file before uploading it', () => {
  const limit = 25 * 1024 * 1024;
  it('refuses a file over the server limit, naming the limit in MB', () => {
    expect(refusalBeforeUpload({ size: limit + 1 }, limit)).toBe('This file is larger than the 25 MB limit.');
    expect(refusalBeforeUpload({ size: 26 * 1024 * 1024 }, limit)).toBe(fileTooLargeMessage(limit));
    expect(refusalBeforeUpload({ size: 2 * 1024 * 1024 }, 1536 * 1024)).toBe(
      'This file is larger than the 1.5 MB limit.',
    );
    expect(refusalBeforeUpload({ size: limit }, limit)).toBeNull();
    expect(refusalBeforeUpload({ size: 0 }, limit)).toBeNull();
  });

  it('leaves the decision to the server while the limit is not known', () => {
    expect(refusalBeforeUpload({ size: 10 ** 12 }, 0)).toBeNull();
    expect(refusalBeforeUpload({ size: 10 ** 12 }, Number.NaN)).toBeNull();
  });
});
