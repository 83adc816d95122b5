/**
 * The client page's capture words (Scan pages, quality warnings, Keep anyway / Retake, thumbnails) in each
 * language of the client-link table (texts.ts). A table of their own: only the capture parts, which load
 * when first used, need them, so neither the page's first download nor the staff app carries them. The
 * English ones are the staff screens' words exactly (texts.test.ts holds them to `STAFF_SCAN_TEXTS`).
 */
import type { ScanTexts } from '../flows/scan/scan-texts.js';
import type { QualityWarning } from '../quality/assess.js';
import type { ClientLinkLanguage } from './languages.js';
import { CLIENT_LINK_TEXTS } from './texts.js';

const en = {
  scanTitle: 'Scan pages',
  scanAddPage: 'Add page',
  scanHint: 'Take a photo of each page, in order. You can also drop photos here.',
  cancel: 'Cancel',
  scanDoneOne: 'Done (1 page)',
  scanDoneMany: 'Done ({count} pages)',
  scanMaking: 'Making the PDF…',
  scanPagesLabel: 'Pages',
  scanPage: 'Page {number}',
  retake: 'Retake',
  keepAnyway: 'Keep anyway',
  rotateLeft: 'Rotate left',
  rotateRight: 'Rotate right',
  moveUp: 'Move up',
  moveDown: 'Move down',
  scanRefused:
    'These files cannot be scan pages: {names}. Add photos (JPEG, PNG, WebP or BMP), or use Upload files.',
  scanTooMany: 'A scan can have at most 30 pages.',
  scanDiscardOne: 'Discard the scanned page?',
  scanDiscardMany: 'Discard the {count} scanned pages?',
  scanFailed: 'The scan could not be made into a PDF: {reason}',
  photoTooDark: 'This photo looks too dark.',
  photoWashedOut: 'This photo looks washed out.',
  photoBlurry: 'This photo looks blurry.',
  pageBlank: 'This page looks blank.',
  photoTooSmall: 'This photo is too small to read.',
  photoGlare: 'This photo has glare. Tilt the page away from the light and retake.',
  edgesNotFound: 'Page edges not found. The whole photo is used.',
  adjustCorners: 'Adjust corners',
  cornersReset: 'Reset',
  cornersWholePhoto: 'Use whole photo',
  cornersSave: 'Save',
  preview: 'Preview of {name}',
  waitingForConnection: 'Waiting for connection…',
} as const;

export type CaptureTextKey = keyof typeof en;

const es = {
  scanTitle: 'Escanear páginas',
  scanAddPage: 'Agregar página',
  scanHint: 'Tome una foto de cada página, en orden. También puede soltar fotos aquí.',
  cancel: 'Cancelar',
  scanDoneOne: 'Listo (1 página)',
  scanDoneMany: 'Listo ({count} páginas)',
  scanMaking: 'Creando el PDF…',
  scanPagesLabel: 'Páginas',
  scanPage: 'Página {number}',
  retake: 'Tomar de nuevo',
  keepAnyway: 'Usarla así',
  rotateLeft: 'Girar a la izquierda',
  rotateRight: 'Girar a la derecha',
  moveUp: 'Subir',
  moveDown: 'Bajar',
  scanRefused:
    'Estos archivos no pueden ser páginas: {names}. Agregue fotos (JPEG, PNG, WebP o BMP) o use Subir archivos.',
  scanTooMany: 'Un escaneo puede tener como máximo 30 páginas.',
  scanDiscardOne: '¿Descartar la página escaneada?',
  scanDiscardMany: '¿Descartar las {count} páginas escaneadas?',
  scanFailed: 'No se pudo crear el PDF del escaneo: {reason}',
  photoTooDark: 'Esta foto se ve muy oscura.',
  photoWashedOut: 'Esta foto se ve descolorida.',
  photoBlurry: 'Esta foto se ve borrosa.',
  pageBlank: 'Esta página parece estar en blanco.',
  photoTooSmall: 'Esta foto es muy pequeña para leerla.',
  photoGlare: 'Esta foto tiene reflejos. Incline la página para alejarla de la luz y tome otra.',
  edgesNotFound: 'No se encontraron los bordes de la página. Se usa la foto completa.',
  adjustCorners: 'Ajustar esquinas',
  cornersReset: 'Restablecer',
  cornersWholePhoto: 'Usar la foto completa',
  cornersSave: 'Guardar',
  preview: 'Vista previa de {name}',
  waitingForConnection: 'Esperando conexión…',
} as const satisfies Readonly<Record<CaptureTextKey, string>>;

/** The capture texts of each language, by language. */
export const CLIENT_CAPTURE_TEXTS: Readonly<
  Record<ClientLinkLanguage, Readonly<Record<CaptureTextKey, string>>>
> = { en, es };

/** One capture text in a language, with its `{name}` places filled. */
export function clientCaptureText(
  language: ClientLinkLanguage,
  key: CaptureTextKey,
  values: Readonly<Record<string, string | number>> = {},
): string {
  return CLIENT_CAPTURE_TEXTS[language][key].replace(/\{(\w+)\}/g, (all, name: string) =>
    name in values ? String(values[name]) : all,
  );
}

const WARNING_KEYS = {
  tooDark: 'photoTooDark',
  washedOut: 'photoWashedOut',
  blurry: 'photoBlurry',
  blank: 'pageBlank',
  tooSmall: 'photoTooSmall',
  glare: 'photoGlare',
  edgesNotFound: 'edgesNotFound',
} as const satisfies Record<QualityWarning, CaptureTextKey>;

/** A photo's quality warning in the client's language (the staff's `qualityWarningMessage`). */
export function clientQualityWarning(language: ClientLinkLanguage, warning: QualityWarning): string {
  return CLIENT_CAPTURE_TEXTS[language][WARNING_KEYS[warning]];
}

/** The Scan pages dialog's words in the client's language (the staff's are `STAFF_SCAN_TEXTS`). */
export function clientScanTexts(language: ClientLinkLanguage): ScanTexts {
  const t = CLIENT_CAPTURE_TEXTS[language];
  const fill = (key: CaptureTextKey, values: Readonly<Record<string, string | number>>) =>
    clientCaptureText(language, key, values);
  return {
    refused: (names) => fill('scanRefused', { names: names.join(', ') }),
    tooManyPages: t.scanTooMany,
    discard: (count) => (count === 1 ? t.scanDiscardOne : fill('scanDiscardMany', { count })),
    failed: (reason) => fill('scanFailed', { reason }),
    title: t.scanTitle,
    addPage: t.scanAddPage,
    hint: t.scanHint,
    cancel: t.cancel,
    done: (count) => (count === 1 ? t.scanDoneOne : fill('scanDoneMany', { count })),
    making: t.scanMaking,
    pagesLabel: t.scanPagesLabel,
    page: (number) => fill('scanPage', { number }),
    retake: t.retake,
    rotateLeft: t.rotateLeft,
    rotateRight: t.rotateRight,
    moveUp: t.moveUp,
    moveDown: t.moveDown,
    remove: CLIENT_LINK_TEXTS[language].remove,
    warning: (warning) => clientQualityWarning(language, warning),
  };
}
