import { describe, expect, it } from 'vitest';
import { CATEGORY_TEMPLATES, FIXED_CATEGORIES } from '../domain/categories.js';
import { recogniseForm } from './forms.js';
import { aamvaExpiry, mrzExpiry } from './ids.js';
import { readingFromText, readWith, type ReadingEngine } from './reader.js';
import { READING_TEXTS, verdictText } from './texts.js';
import { readingVerdict } from './verdict.js';
import { taxYearOf } from './year.js';

/** Text as forms print it (and as OCR returns it: line breaks anywhere, hyphens lost). */
const PAGES: Record<string, string> = {
  'W-2':
    'a Employee’s social security number\nb Employer identification number (EIN)\n1 Wages, tips, other compensation\nForm W-2 Wage and Tax Statement 2025\nDepartment of the Treasury',
  '1099-NEC':
    'PAYER’S TIN RECIPIENT’S TIN\n1 Nonemployee compensation\nForm 1099-NEC (Rev. January 2024) For calendar year 2025',
  '1099-INT':
    'Interest Income\nFORM 1099INT\nFor calendar year 2025\n1 Interest income 2 Early withdrawal penalty',
  '1099-DIV':
    'Dividends and Distributions\nForm 1099-DIV 2025\n1a Total ordinary dividends 1b Qualified dividends',
  '1099-B':
    'Proceeds From Broker and Barter Exchange Transactions\nForm 1099-B 2025\n1d Proceeds 1e Cost or other basis',
  '1095-A': 'Form 1095-A Health Insurance Marketplace Statement 2025\nCovered Individuals',
  '1095-B': 'Form 1095-B Health Coverage 2025\nResponsible individual\nOrigin of the health coverage',
  '1095-C': 'Form 1095-C Employer-Provided Health Insurance Offer and Coverage 2025\nOffer of Coverage',
  '1098-T':
    'Tuition Statement\nForm 1098-T 2025\n1 Payments received for qualified tuition and related expenses\n5 Scholarships or grants',
  'SSA-1099': 'FORM SSA-1099 - SOCIAL SECURITY BENEFIT STATEMENT\n2025\nBox 3. Benefits paid in 2025',
  'Schedule C Info':
    'Schedule C (Form 1040) Profit or Loss From Business 2025\nA Principal business or profession\n1 Gross receipts or sales',
  '1040-NR Intake':
    'Form 13614-NR Nonresident Alien Intake and Interview Sheet\nVisa type\nDate of first entry',
  'Identity Protection PIN':
    'Notice CP01A\nYour Identity Protection Personal Identification Number (IP PIN)\nYour new IP PIN is 123456',
  'Student Intake Form':
    'Student Intake Form\nSchool name: Lakeside Community College\nEnrollment status: full-time student',
  '13614-C': 'Form 13614-C Intake/Interview & Quality Review Sheet\nYou will need: Tax information',
  'Michigan/Locality Intake': 'Michigan Intake Sheet\nHomestead Property Tax Credit\nRenter or homeowner',
  'License/Other Identification':
    'MICHIGAN DRIVER LICENSE\nDL 123 456 789\nDOB 01/02/1980 EXP 03/15/2026 SEX F HGT 5-06',
  'Digital Consent Form':
    'Form 15080 Consent to Disclose Tax Return Information to VITA/TCE Sites\nFederal law requires this consent form',
  'Banking Info': 'Pay to the order of ____ VOID\nRouting number 021000021 Account number 1234567',
};

describe('the rule table', () => {
  it('names a form for every template with a form of its own and every fixed category', () => {
    const named = [...CATEGORY_TEMPLATES, ...FIXED_CATEGORIES].filter(
      (c) => c !== 'Other' && c !== 'Important Notes',
    );
    for (const form of named) expect(recogniseForm(PAGES[form] ?? ''), form).toBe(form);
  });

  it('says nothing for a receipt, a letter, a blank page or a mere mention', () => {
    expect(recogniseForm('FRESH MART\nMILK 3.49\nBREAD 2.99\nTOTAL 6.48\nVISA ****1234')).toBeUndefined();
    expect(
      recogniseForm('Dear Maria,\nThank you for your letter of March 3.\nSincerely, Tom'),
    ).toBeUndefined();
    expect(recogniseForm('')).toBeUndefined();
    expect(recogniseForm('Please bring your W-2 to the appointment.')).toBeUndefined();
  });

  it('is unsure when two forms are equally likely', () => {
    expect(recogniseForm('Form W-2 Wage and Tax Statement / Form 1099-INT Interest Income')).toBeUndefined();
  });
});

describe('the tax year', () => {
  it('reads the year printed beside the title, not revision dates', () => {
    expect(taxYearOf(PAGES['W-2'] ?? '')).toBe(2025);
    expect(taxYearOf(PAGES['1099-NEC'] ?? '')).toBe(2025);
    expect(taxYearOf('Form W-2 Wage and Tax Statement 2024')).toBe(2024);
  });
  it('says nothing when there is none or the places disagree', () => {
    expect(taxYearOf('Wage and Tax Statement')).toBeUndefined();
    expect(taxYearOf('Form W-2 2024 … For calendar year 2025')).toBeUndefined();
  });
});

describe('IDs', () => {
  const aamva = (expiry: string) =>
    `@\n\x1e\rANSI 636032080002DL00410278ZM03190008DLDAQ123456789\nDCSDOE\nDACJANE\nDBB01021980\nDBA${expiry}\nDBD03152018\nDAJMI\n`;
  it('keeps only the expiry of a license barcode', () => {
    expect(aamvaExpiry(aamva('03152026'))).toBe('2026-03-15');
    expect(aamvaExpiry('not a license')).toBeUndefined();
  });
  it('reads a passport MRZ only when its expiry check digit holds', () => {
    const mrz = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10';
    expect(mrzExpiry(`PASSPORT\n${mrz}`)).toBe('2012-04-15');
    expect(mrzExpiry(mrz.replace('1204159', '1204158'))).toBeUndefined();
  });
  it('reads a passport MRZ through the stray marks OCR puts among its fillers', () => {
    const read =
      'P<USAGONZALEZ<<MARIA<ELENA«<<<<<<<<<<<<<<<<<\nA401234567USA8001025F2503158<<<<<<<<<<<<<<0?2';
    expect(mrzExpiry(`PASSPORT\n${read}`)).toBe('2025-03-15');
    // A misread date fails its check digit: nothing is said.
    expect(mrzExpiry(read.replace('2503158', '2508158'))).toBeUndefined();
  });
});

describe('the verdict and its texts', () => {
  const now = new Date('2026-02-10T12:00:00Z');
  const en = READING_TEXTS.en;
  const es = READING_TEXTS.es;
  it('another form in a category', () => {
    const v = readingVerdict(readingFromText(PAGES['1099-INT'] ?? ''), 'W-2', now);
    expect(v).toEqual({ kind: 'other-form', form: '1099-INT' });
    expect(verdictText(en, v!, 'W-2')).toBe('This looks like a 1099-INT, not a W-2.');
    expect(verdictText(es, v!, 'W-2')).toBe('Parece un 1099-INT, no un W-2.');
    expect(en.move('1099-INT')).toBe('Move to 1099-INT');
    expect(es.move('1099-INT')).toBe('Mover a 1099-INT');
    expect([en.keep, es.keep]).toEqual(['Keep here', 'Dejar aquí']);
  });
  it('the right form (also in a noted category) and the season’s year: nothing', () => {
    expect(readingVerdict(readingFromText(PAGES['W-2'] ?? ''), 'W-2', now)).toBeUndefined();
    expect(readingVerdict(readingFromText(PAGES['W-2'] ?? ''), 'W-2 (Acme)', now)).toBeUndefined();
    expect(readingVerdict(readingFromText(PAGES['W-2'] ?? ''), 'Other', now)).toBeUndefined();
    expect(readingVerdict({}, 'W-2', now)).toBeUndefined();
  });
  it('last year’s form', () => {
    const v = readingVerdict({ form: 'W-2', year: 2024 }, 'W-2', now);
    expect(verdictText(en, v!, 'W-2')).toBe('This form is for 2024.');
    expect(verdictText(es, v!, 'W-2')).toBe('Este formulario es de 2024.');
  });
  it('an expired ID, only in the ID category', () => {
    const reading = { form: 'License/Other Identification', idExpiry: '2026-01-05' } as const;
    const v = readingVerdict(reading, 'License/Other Identification', now);
    expect(verdictText(en, v!, '')).toBe('This ID expired on Jan 5, 2026.');
    expect(verdictText(es, v!, '')).toBe('Esta identificación venció el 5 de enero de 2026.');
    expect(
      readingVerdict({ ...reading, idExpiry: '2030-01-05' }, 'License/Other Identification', now),
    ).toBeUndefined();
  });
});

describe('images too large to read', () => {
  /** An engine that counts what it is asked to do. */
  function countingEngine() {
    const asked: string[] = [];
    const engine: ReadingEngine = {
      pdfText: async () => undefined,
      ocr: async () => {
        asked.push('ocr');
        return 'Form W-2 Wage and Tax Statement 2025';
      },
      barcodes: async () => {
        asked.push('barcodes');
        return [];
      },
    };
    return { asked, engine };
  }
  /** A PNG's signature and header declaring `width` × `height` (no image data follows). */
  const pngHeader = (width: number, height: number) => {
    const bytes = new Uint8Array(33);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 0);
    bytes.set([0x49, 0x48, 0x44, 0x52], 12); // IHDR
    const view = new DataView(bytes.buffer);
    view.setUint32(16, width);
    view.setUint32(20, height);
    return bytes;
  };

  it('leaves an image declaring more pixels than any page photo unread, and decodes nothing of it', async () => {
    const { asked, engine } = countingEngine();
    expect(await readWith(engine, pngHeader(20_000, 20_000))).toEqual({});
    expect(asked).toEqual([]);
  });

  it('reads a 50 MP phone photo as it reads any', async () => {
    const { asked, engine } = countingEngine();
    expect(await readWith(engine, pngHeader(8_160, 6_120))).toEqual({ form: 'W-2', year: 2025 });
    expect(asked).toEqual(['barcodes', 'ocr']);
  });
});
