import type { KeyValueStorage } from '../../ports.js';
import { STORAGE_KEYS } from '../storage-keys.js';

/** The "Convert images to PDF (fit to Letter)" preference: stored as 1 or 0, on by default. */
export function readConvertPreference(storage: KeyValueStorage): boolean {
  return storage.getItem(STORAGE_KEYS.convertToPdf) !== '0';
}

/** Stores the convert-to-PDF preference. */
export function writeConvertPreference(storage: KeyValueStorage, enabled: boolean): void {
  storage.setItem(STORAGE_KEYS.convertToPdf, enabled ? '1' : '0');
}
