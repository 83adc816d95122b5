/**
 * The labelled set the reading benchmark measures (docs/benchmarks.md): made by this script, so anyone
 * can make it again (the reading benchmark makes it afresh in test-results/reading-set at each run).
 * Every document is invented:
 * - each form the reader names (the sixteen templates' forms and the fixed categories'), rendered
 *   from HTML in four layouts (an IRS-style box grid, a bank's plain statement, two columns, small
 *   print) and photographed in Chromium with CSS 3-D transforms (tilted, turned, in perspective, on a
 *   desk);
 * - the same forms as born-digital PDFs (Chromium's print: a text layer);
 * - last year's W-2 and 1099-INT (the year check);
 * - blank pages and unrelated ones (a grocery receipt, a letter, a note) that must name nothing;
 * - ID cards: fronts, and backs whose PDF417 barcode (bwip-js) holds AAMVA data, half expired;
 * - passports' data pages whose machine-readable zone has valid check digits, half expired.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import bwipjs from 'bwip-js';
import { chromium, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '@vita-docs/test-server';

/** One document of the set and what it is. */
export interface Labelled {
  file: string;
  kind: 'photo' | 'pdf' | 'blank' | 'unrelated' | 'id-front' | 'id-back' | 'passport';
  /** The form the reader should name; null: none. */
  form: string | null;
  year?: number;
  /** An ID back's or passport's expiry (`YYYY-MM-DD`) and whether it is past on `today`. */
  idExpiry?: string;
  expired?: boolean;
}

const TAX_YEAR = 2025;
const PEOPLE = ['Maria Gonzalez', 'Tom Becker', 'Aisha Rahman', 'Li Wei'];
const PAYERS = [
  'Lakeside Credit Union',
  'Great Lakes Manufacturing Co',
  'Northwind Health Plan',
  'Riverside College',
];

/** Each form: its number line, title, and tell-tale labels with invented values. */
const FORMS: Record<string, { number: string; title: string; labels: string[] }> = {
  'W-2': {
    number: 'Form W-2',
    title: 'Wage and Tax Statement',
    labels: [
      "a Employee's social security number  XXX-XX-4821",
      'b Employer identification number (EIN)  38-1234567',
      '1 Wages, tips, other compensation  41,250.00',
      '2 Federal income tax withheld  3,912.00',
      '3 Social security wages  41,250.00',
    ],
  },
  '1099-NEC': {
    number: 'Form 1099-NEC',
    title: 'Nonemployee Compensation',
    labels: [
      "PAYER'S TIN  38-7654321",
      "RECIPIENT'S TIN  XXX-XX-1234",
      '1 Nonemployee compensation  6,800.00',
      '4 Federal income tax withheld  0.00',
    ],
  },
  '1099-INT': {
    number: 'Form 1099-INT',
    title: 'Interest Income',
    labels: [
      '1 Interest income  31.20',
      '2 Early withdrawal penalty  0.00',
      '3 Interest on U.S. Savings Bonds and Treasury obligations  0.00',
    ],
  },
  '1099-DIV': {
    number: 'Form 1099-DIV',
    title: 'Dividends and Distributions',
    labels: [
      '1a Total ordinary dividends  212.44',
      '1b Qualified dividends  180.10',
      '2a Total capital gain distr.  55.00',
    ],
  },
  '1099-B': {
    number: 'Form 1099-B',
    title: 'Proceeds From Broker and Barter Exchange Transactions',
    labels: ['1c Date sold or disposed  06/14', '1d Proceeds  2,450.00', '1e Cost or other basis  2,100.00'],
  },
  '1095-A': {
    number: 'Form 1095-A',
    title: 'Health Insurance Marketplace Statement',
    labels: [
      '2 Marketplace-assigned policy number  MI-99812',
      'Part II Covered Individuals',
      'C Monthly advance payment of premium tax credit  310.00',
    ],
  },
  '1095-B': {
    number: 'Form 1095-B',
    title: 'Health Coverage',
    labels: [
      'Part I Responsible Individual',
      '8 Enter letter identifying Origin of the Health Coverage  C',
      'Part III Issuer or Other Coverage Provider',
    ],
  },
  '1095-C': {
    number: 'Form 1095-C',
    title: 'Employer-Provided Health Insurance Offer and Coverage',
    labels: [
      'Part II Employee Offer of Coverage',
      '15 Employee Required Contribution  95.00',
      'Applicable Large Employer Member (Employer)',
    ],
  },
  '1098-T': {
    number: 'Form 1098-T',
    title: 'Tuition Statement',
    labels: [
      "FILER'S name  Riverside College",
      '1 Payments received for qualified tuition and related expenses  4,300.00',
      '5 Scholarships or grants  1,500.00',
    ],
  },
  'SSA-1099': {
    number: 'FORM SSA-1099',
    title: 'SOCIAL SECURITY BENEFIT STATEMENT',
    labels: [
      `Box 3. Benefits Paid in ${TAX_YEAR}  14,220.00`,
      `Box 4. Benefits Repaid to SSA in ${TAX_YEAR}  0.00`,
      `Box 5. Net Benefits for ${TAX_YEAR}  14,220.00`,
    ],
  },
  'Schedule C Info': {
    number: 'SCHEDULE C (Form 1040)',
    title: 'Profit or Loss From Business',
    labels: [
      'A Principal business or profession  House cleaning',
      '1 Gross receipts or sales  9,800.00',
      'Business expenses  2,150.00',
    ],
  },
  '1040-NR Intake': {
    number: 'Form 13614-NR',
    title: 'Nonresident Alien Intake and Interview Sheet',
    labels: ['Visa type  F-1', 'Date of first entry  08/20/2023', 'Country of citizenship  India'],
  },
  'Identity Protection PIN': {
    number: 'Notice CP01A',
    title: 'Your Identity Protection Personal Identification Number (IP PIN)',
    labels: [
      'We assigned you a new six-digit IP PIN.',
      'Your new IP PIN is 482913',
      'Use it on your return this year only.',
    ],
  },
  'Student Intake Form': {
    number: 'Student Intake Form',
    title: 'International Student Tax Clinic',
    labels: [
      'School name  Riverside College',
      'Student ID  R0042117',
      'Enrollment status  Full-time student',
    ],
  },
  '13614-C': {
    number: 'Form 13614-C',
    title: 'Intake/Interview & Quality Review Sheet',
    labels: [
      'You will need: Tax information such as Forms W-2, 1099',
      'Part I - Your Personal Information',
      'Volunteer Income Tax Assistance',
    ],
  },
  'Michigan/Locality Intake': {
    number: 'Michigan Intake Sheet',
    title: 'Homestead Property Tax Credit (MI-1040CR)',
    labels: ['Renter or homeowner  Renter', 'Rent paid this year  9,600.00', 'City of residence  Ypsilanti'],
  },
  'Digital Consent Form': {
    number: 'Form 15080',
    title: 'Consent to Disclose Tax Return Information to VITA/TCE Sites',
    labels: [
      'Federal law requires this consent form be provided to you.',
      'You are not required to sign this consent.',
      'Taxpayer signature ____________',
    ],
  },
  'Banking Info': {
    number: 'VOID',
    title: 'PAY TO THE ORDER OF ______________________',
    labels: ['Lakeside Credit Union', 'Routing number 021000021', 'Account number 000123456789'],
  },
  'License/Other Identification': {
    number: 'MICHIGAN',
    title: 'DRIVER LICENSE',
    labels: ['DL S 123 456 789 012', 'DOB 01/02/1980   EXP 03/15/2029', 'SEX F   HGT 5-06   EYES BRN'],
  },
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A form's page in one of four layouts. */
function formHtml(form: string, layout: number, year: number, n: number): string {
  const f = FORMS[form] ?? { number: form, title: '', labels: [] };
  const who = PEOPLE[n % PEOPLE.length] ?? '';
  const payer = PAYERS[n % PAYERS.length] ?? '';
  const yearLine = form === 'Banking Info' || form === 'License/Other Identification' ? '' : String(year);
  const head = `<div class="num">${esc(f.number)}</div><div class="title">${esc(f.title)}</div><div class="year">${yearLine}</div>`;
  const labels = f.labels.map((l) => `<div class="box">${esc(l)}</div>`).join('');
  const party = `<div class="box">PAYER / FILER: ${esc(payer)}<br/>RECIPIENT: ${esc(who)}<br/>${100 + n} Elm Street, Ann Arbor, MI 48104</div>`;
  const styles = [
    '.page{font:20px "DejaVu Sans",sans-serif}.box{border:2px solid #222;padding:10px;margin:6px 0}.num{font-size:30px;font-weight:bold}.title{font-size:28px}.year{font-size:34px;font-weight:bold}',
    '.page{font:19px "DejaVu Serif",serif}.box{padding:6px 0;border-bottom:1px solid #999}.num{font-size:24px}.title{font-size:26px;font-weight:bold}.year{font-size:24px}',
    '.page{font:18px "DejaVu Sans",sans-serif;columns:2;column-gap:30px}.box{border:1px solid #444;padding:8px;margin:4px 0;break-inside:avoid}.num,.title,.year{column-span:all;font-size:26px;font-weight:bold}',
    '.page{font:15px "DejaVu Sans Mono",monospace}.box{border:1px dashed #333;padding:5px;margin:3px 0}.num{font-size:20px;font-weight:bold}.title{font-size:20px}.year{font-size:22px}',
  ][layout % 4];
  const body = layout % 4 === 1 ? `${head}${party}${labels}` : `${head}${labels}${party}`;
  return `<style>${styles}</style><div class="page">${body}</div>`;
}

const UNRELATED = [
  '<div class="page" style="font:22px monospace;width:420px">FRESH MART #0412<br/>1200 Washtenaw Ave<br/><br/>MILK 2% GAL    3.49<br/>BREAD WHEAT    2.99<br/>BANANAS 2.1LB  1.21<br/>EGGS LARGE DZ  4.19<br/><br/>SUBTOTAL      11.88<br/>TAX            0.00<br/>TOTAL         11.88<br/>VISA ****4821<br/>THANK YOU FOR SHOPPING</div>',
  '<div class="page" style="font:21px serif">March 3<br/><br/>Dear Maria,<br/><br/>Thank you for your letter about the garden club meeting. We will meet at the library on Thursday at six. Please bring the seed catalogue and the list of volunteers for the spring planting.<br/><br/>Sincerely,<br/>Tom</div>',
  '<div class="page" style="font:24px cursive">Important notes<br/>- client moved in June<br/>- ask about daycare receipts<br/>- call back after 3 pm</div>',
  '<div class="page" style="font:20px sans-serif">CITY LIBRARY<br/>Items due: The Hobbit (04/02), Gardening Basics (04/02)<br/>Renew online or by phone.</div>',
];

function aamva(expiry: string, n: number): string {
  const mmddyyyy = `${expiry.slice(5, 7)}${expiry.slice(8, 10)}${expiry.slice(0, 4)}`;
  return `@\n\x1e\rANSI 636032080002DL00410278ZM03190008DLDAQS${String(123456789012 + n)}\nDCSDOE\nDACJANE\nDADQ\nDBB0102198${n % 10}\nDBA${mmddyyyy}\nDBD03152019\nDBC2\nDAYBRN\nDAU066 in\nDAG${100 + n} ELM ST\nDAIANN ARBOR\nDAJMI\nDAK481040000\nDCF${n}X\nDCGUSA\nDDEN\nDDFN\nDDGN\n`;
}

/** ICAO 9303 check digit: weights 7, 3, 1 over digits, letters A=10…Z=35 and `<`=0, modulo 10. */
function checkDigit(field: string): string {
  const value = (c: string) => (c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);
  return String([...field].reduce((sum, c, i) => sum + value(c) * ([7, 3, 1][i % 3] ?? 1), 0) % 10);
}

/** A US passport's two 44-character MRZ lines (ICAO 9303 TD3) with valid check digits. */
function passportMrz(p: {
  surname: string;
  given: string;
  number: string;
  birth: string;
  sex: 'F' | 'M';
  expiry: string;
}): [string, string] {
  const yymmdd = (iso: string) => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
  const first = `P<USA${p.surname}<<${p.given.replace(/ /g, '<')}`.padEnd(44, '<').slice(0, 44);
  const number = p.number.padEnd(9, '<');
  const birth = yymmdd(p.birth);
  const expiry = yymmdd(p.expiry);
  const personal = '<'.repeat(14);
  const fields = [
    number + checkDigit(number),
    birth + checkDigit(birth),
    expiry + checkDigit(expiry),
    personal + checkDigit(personal),
  ];
  const second = `${fields[0]}USA${fields[1]}${p.sex}${fields[2]}${fields[3]}${checkDigit(fields.join(''))}`;
  return [first, second];
}

/** A passport's data page: the printed fields and, at the foot, its machine-readable zone. */
function passportHtml(mrz: [string, string], p: { surname: string; given: string; expiry: string }): string {
  const shown = (iso: string) =>
    new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', {
      day: '2-digit',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
  return `<div style="width:880px;font:18px sans-serif;background:#e9eef6;padding:20px">
    <div style="font-size:24px;font-weight:bold">PASSPORT &nbsp; UNITED STATES OF AMERICA</div>
    <div style="display:flex;gap:24px;margin-top:14px"><div style="width:180px;height:230px;background:#9aa7b8"></div>
    <div>Type P &nbsp; Code USA &nbsp; Passport No. ${esc(mrz[1].slice(0, 9))}<br/>Surname<br/><b>${esc(p.surname)}</b><br/>
    Given Names<br/><b>${esc(p.given)}</b><br/>Nationality UNITED STATES OF AMERICA<br/>
    Date of birth 02 Jan 1980<br/>Date of expiration ${shown(p.expiry)}</div></div>
    <div style="font:31px 'DejaVu Sans Mono',monospace;margin-top:26px;white-space:pre;letter-spacing:1px">${esc(mrz[0])}<br/>${esc(mrz[1])}</div></div>`;
}

/** The page as photographed: on a desk, turned and tilted by the given angles. */
async function photograph(
  page: Page,
  inner: string,
  t: { x: number; y: number; z: number },
  width = 1000,
): Promise<Buffer> {
  await page.setContent(
    `<body style="margin:0;background:#6b5b4b;width:1400px;height:1500px;display:flex;align-items:center;justify-content:center;perspective:1600px">
      <div style="background:#fbf8f1;width:${width}px;padding:50px;box-shadow:0 10px 40px #0008;transform:rotateX(${t.x}deg) rotateY(${t.y}deg) rotateZ(${t.z}deg)">${inner}</div></body>`,
  );
  return page.screenshot({ type: 'jpeg', quality: 85, fullPage: false });
}

/** Makes the set in `dir`; returns its labels (also written as `labels.json`). */
export async function generateReadingSet(dir: string, today = new Date()): Promise<Labelled[]> {
  await mkdir(dir, { recursive: true });
  const labels: Labelled[] = [];
  const browser = await chromium.launch(chromiumLaunchOptions());
  const page = await browser.newPage({ viewport: { width: 1400, height: 1500 } });
  const save = async (file: string, bytes: Buffer, label: Omit<Labelled, 'file'>) => {
    await writeFile(path.join(dir, file), bytes);
    labels.push({ file, ...label });
  };
  const tilts = [
    { x: 8, y: -6, z: 3 },
    { x: -10, y: 8, z: -5 },
    { x: 14, y: 4, z: 8 },
    { x: 4, y: -12, z: -2 },
  ];
  const tiltOf = (i: number) => tilts[i % tilts.length] ?? { x: 0, y: 0, z: 0 };
  try {
    let n = 0;
    for (const form of Object.keys(FORMS)) {
      const year = form === 'Banking Info' || form === 'License/Other Identification' ? undefined : TAX_YEAR;
      const slug = form.replace(/[^A-Za-z0-9]+/g, '-');
      for (let layout = 0; layout < 4; layout += 1) {
        n += 1;
        const kind = form === 'License/Other Identification' ? 'id-front' : 'photo';
        const width = kind === 'id-front' ? 640 : 1000;
        await save(
          `${slug}-photo-${layout}.jpg`,
          await photograph(page, formHtml(form, layout, TAX_YEAR, n), tiltOf(layout), width),
          {
            kind,
            form,
            ...(year && { year }),
          },
        );
      }
      await page.setContent(`<body style="margin:40px">${formHtml(form, 0, TAX_YEAR, n)}</body>`);
      await save(`${slug}-born-digital.pdf`, await page.pdf({ format: 'Letter' }), {
        kind: 'pdf',
        form,
        ...(year && { year }),
      });
    }
    for (const form of ['W-2', '1099-INT', '1098-T']) {
      n += 1;
      await save(
        `${form}-last-year.jpg`,
        await photograph(page, formHtml(form, n, TAX_YEAR - 1, n), tiltOf(n)),
        {
          kind: 'photo',
          form,
          year: TAX_YEAR - 1,
        },
      );
    }
    await page.setContent(`<body style="margin:40px">${formHtml('W-2', 1, TAX_YEAR - 1, n)}</body>`);
    await save('W-2-last-year-born-digital.pdf', await page.pdf({ format: 'Letter' }), {
      kind: 'pdf',
      form: 'W-2',
      year: TAX_YEAR - 1,
    });
    for (let i = 0; i < 3; i += 1)
      await save(`blank-${i}.jpg`, await photograph(page, '<div style="height:1100px"></div>', tiltOf(i)), {
        kind: 'blank',
        form: null,
      });
    for (const [i, html] of UNRELATED.entries()) {
      await save(`unrelated-${i}.jpg`, await photograph(page, html, tiltOf(i)), {
        kind: 'unrelated',
        form: null,
      });
      await save(`unrelated-${i}-flat.jpg`, await photograph(page, html, { x: 0, y: 0, z: 1 }), {
        kind: 'unrelated',
        form: null,
      });
    }
    for (let i = 0; i < 12; i += 1) {
      const expired = i % 2 === 0;
      const base = new Date(today.getTime() + (expired ? -1 : 1) * (30 + i * 97) * 86_400_000);
      const idExpiry = base.toISOString().slice(0, 10);
      // `columns` is one of the barcode writer's own options, passed through (not in bwip-js's types).
      const options = { bcid: 'pdf417', text: aamva(idExpiry, i), scale: 2, height: 10, columns: 8 };
      const png = await bwipjs.toBuffer(options);
      const card = `<div style="width:560px;font:16px sans-serif">MICHIGAN - back of card<br/><img style="width:540px;margin-top:12px" src="data:image/png;base64,${png.toString('base64')}"/></div>`;
      const tilt = { x: (i % 3) * 5, y: ((i % 4) - 2) * 4, z: (i % 5) - 2 };
      await save(`id-back-${i}.jpg`, await photograph(page, card, tilt, 600), {
        kind: 'id-back',
        form: 'License/Other Identification',
        idExpiry,
        expired,
      });
    }
    const names: [string, string][] = [
      ['GONZALEZ', 'MARIA ELENA'],
      ['BECKER', 'TOM'],
      ['RAHMAN', 'AISHA'],
      ['LI', 'WEI'],
      ['OKAFOR', 'CHIDI'],
      ['NGUYEN', 'THI HOA'],
    ];
    for (const [i, [surname, given]] of names.entries()) {
      const expired = i % 2 === 0;
      const idExpiry = new Date(today.getTime() + (expired ? -1 : 1) * (45 + i * 131) * 86_400_000)
        .toISOString()
        .slice(0, 10);
      const mrz = passportMrz({
        surname,
        given,
        number: `A${String(40123456 + i * 7919)}`,
        birth: '1980-01-02',
        sex: i % 2 ? 'M' : 'F',
        expiry: idExpiry,
      });
      const tilt = { x: (i % 3) * 4, y: ((i % 4) - 2) * 3, z: (i % 5) - 2 };
      await save(
        `passport-${i}.jpg`,
        await photograph(page, passportHtml(mrz, { surname, given, expiry: idExpiry }), tilt, 920),
        { kind: 'passport', form: 'License/Other Identification', idExpiry, expired },
      );
    }
  } finally {
    await browser.close();
  }
  await writeFile(path.join(dir, 'labels.json'), `${JSON.stringify(labels, null, 1)}\n`);
  return labels;
}
