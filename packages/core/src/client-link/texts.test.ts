import { describe, expect, it } from 'vitest';
import { STAFF_SCAN_TEXTS, type ScanTexts } from '../flows/scan/scan-texts.js';
import { CLIENT_CAPTURE_TEXTS, clientQualityWarning, clientScanTexts } from './capture-texts.js';
import { CLIENT_LINK_LANGUAGES } from './languages.js';
import { CLIENT_LINK_TEXTS, clientLinkText, maskEmail } from './texts.js';
import { CATEGORY_HINTS, categoryHint } from './category-hints.js';
import { CATEGORY_TEMPLATES, FIXED_CATEGORIES } from '../domain/categories.js';

/** Both tables the client page speaks from: the page's and its capture parts'. */
const TABLES = { page: CLIENT_LINK_TEXTS, capture: CLIENT_CAPTURE_TEXTS } as const;

describe('client link texts', () => {
  it.each(Object.entries(TABLES))(
    'has every key of the %s table in every language, and no language has one the others lack',
    (_, table) => {
      const keys = CLIENT_LINK_LANGUAGES.map((l) => Object.keys(table[l]).sort());
      for (const list of keys) expect(list).toEqual(keys[0]);
      for (const l of CLIENT_LINK_LANGUAGES)
        for (const [key, text] of Object.entries(table[l])) expect(text, `${l}.${key}`).not.toBe('');
    },
  );

  it.each(Object.entries(TABLES))(
    'keeps each text’s places of the %s table in every language',
    (_, table) => {
      const places = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      const es: Readonly<Record<string, string>> = table.es;
      for (const [key, text] of Object.entries(table.en))
        expect(places(es[key] ?? ''), key).toEqual(places(text));
    },
  );

  it('has the issue’s English texts exactly', () => {
    expect(clientLinkText('en', 'greeting', { firstName: 'Jane' })).toBe(
      'Hi Jane, please add these documents',
    );
    expect(clientLinkText('en', 'codeSent', { email: maskEmail('jane@example.org') })).toBe(
      'We sent a 6-digit code to j•••@example.org.',
    );
    expect(CLIENT_LINK_TEXTS.en.locked).toBe('Too many wrong tries. Try again in 30 minutes.');
    expect(CLIENT_LINK_TEXTS.en.thanks).toBe('Thank you. Your volunteer has been told.');
    expect(CLIENT_LINK_TEXTS.en.expired).toBe('This link has expired. Ask your volunteer for a new one.');
    expect(CLIENT_LINK_TEXTS.en.dontHave).toBe("I don't have this");
    expect(CLIENT_LINK_TEXTS.en.done).toBe("I'm done");
  });
});

describe('the capture texts on the client page', () => {
  const warnings = ['tooDark', 'washedOut', 'blurry', 'blank', 'tooSmall'] as const;

  it('are in English exactly the staff screens’ words', () => {
    const sample = (t: ScanTexts) => [
      ...[t.title, t.addPage, t.hint, t.cancel, t.making, t.pagesLabel, t.retake, t.remove],
      ...[t.rotateLeft, t.rotateRight, t.moveUp, t.moveDown, t.tooManyPages],
      ...[t.done(1), t.done(2), t.page(3), t.discard(1), t.discard(2)],
      t.refused(['a.docx', 'b.heic']),
      t.failed('no memory'),
      ...warnings.map((w) => t.warning(w)),
    ];
    expect(sample(clientScanTexts('en'))).toEqual(sample(STAFF_SCAN_TEXTS));
  });

  it('are in Spanish in the Spanish table', () => {
    const es = clientScanTexts('es');
    expect(es.title).toBe('Escanear páginas');
    expect(es.done(1)).toBe('Listo (1 página)');
    expect(es.done(2)).toBe('Listo (2 páginas)');
    expect(es.page(3)).toBe('Página 3');
    expect(es.discard(2)).toBe('¿Descartar las 2 páginas escaneadas?');
    expect(es.refused(['a.docx'])).toContain('a.docx');
    expect(clientQualityWarning('es', 'tooDark')).toBe('Esta foto se ve muy oscura.');
    for (const w of warnings) expect(clientQualityWarning('es', w)).not.toBe(clientQualityWarning('en', w));
  });
});

describe('what to bring', () => {
  it('has one sentence for every fixed category and template (21) in both languages', () => {
    const all = [...FIXED_CATEGORIES, ...CATEGORY_TEMPLATES];
    expect(all).toHaveLength(21);
    for (const language of CLIENT_LINK_LANGUAGES)
      for (const name of all) expect(categoryHint(language, name).hint, `${language} ${name}`).toMatch(/\.$/);
  });

  it('has the issue’s two sentences exactly', () => {
    expect(categoryHint('en', 'Banking Info').hint).toBe(
      'A check or a letter from your bank with the routing and account numbers, for a direct deposit of your refund.',
    );
    expect(categoryHint('es', 'License/Other Identification').hint).toBe(
      'Una identificación con foto para usted (y su cónyuge): licencia de manejo, identificación estatal o pasaporte. También la tarjeta del Seguro Social o la carta del ITIN de cada persona en la declaración.',
    );
  });

  it('shows a custom category’s note as written, after its template’s sentence', () => {
    expect(categoryHint('es', 'W-2 (Acme Inc.)')).toEqual({
      hint: CATEGORY_HINTS.es['W-2'],
      note: 'Acme Inc.',
    });
    expect(categoryHint('en', 'Unknown thing')).toEqual({ hint: null, note: null });
  });
});
