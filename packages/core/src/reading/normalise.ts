/** Lower case, every run of whitespace one space: the rules match across OCR's line breaks. */
export function normaliseText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}
