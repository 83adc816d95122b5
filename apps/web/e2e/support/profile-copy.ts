/**
 * What someone holding a copy of a browser profile can try on the app's kept uploads: read every
 * value the origin stored (every IndexedDB database and store, local and session storage, cookies,
 * Cache Storage) and try each as the key of every sealed record, as raw key bytes (whole, and every
 * 32-byte window of the short ones), decoded from base64 or hex, hashed, and as the CryptoKey objects
 * IndexedDB can hold, with and without the labels the app's source shows it binds into each record.
 */
import type { Page } from '@playwright/test';

/** What the copy held and what of it opened. */
export interface ProfileAttack {
  /** Sealed values found (`{ iv, data }` pairs: entries and files). */
  sealed: number;
  /** How many keys were tried on each. */
  candidates: number;
  /** Each sealed value that opened, and with what. */
  opened: string[];
  /** Whether any stored value contains one of the `secrets` (raw bytes, base64 or hex). */
  holdsSecret: boolean;
}

/**
 * Runs the attack inside `page` (a page of the app's origin with no session and no kept-uploads code
 * running: its memory holds nothing a copy of the profile would not). `secrets` are base64 strings
 * of key material the profile must not hold.
 */
export function attackProfile(page: Page, secrets: string[]): Promise<ProfileAttack> {
  return page.evaluate(async (secretList) => {
    const encoder = new TextEncoder();
    const values: unknown[] = [];
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
      });
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await request(indexedDB.open(name));
      for (const store of Array.from(db.objectStoreNames)) {
        const objects = db.transaction(store).objectStore(store);
        values.push(...(await request(objects.getAll())), ...(await request(objects.getAllKeys())));
      }
      db.close();
    }
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i) ?? '';
        values.push(key, storage.getItem(key));
      }
    }
    values.push(document.cookie);
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) values.push(req.url, await (await cache.match(req))?.text());
    }

    // Every CryptoKey, byte string and text anywhere in what was read; sealed values with the record holding them.
    const cryptoKeys: CryptoKey[] = [];
    type Bytes = Uint8Array<ArrayBuffer>;
    const copy = (view: ArrayBufferView): Bytes =>
      new Uint8Array(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    const bytes: Bytes[] = [];
    const texts: string[] = [];
    const sealed: { iv: Bytes; data: Bytes; record: Record<string, unknown> }[] = [];
    const walk = async (value: unknown, record: Record<string, unknown> | null): Promise<void> => {
      if (value instanceof CryptoKey) cryptoKeys.push(value);
      else if (value instanceof Blob) bytes.push(new Uint8Array(await value.arrayBuffer()));
      else if (value instanceof ArrayBuffer) bytes.push(new Uint8Array(value));
      else if (ArrayBuffer.isView(value)) bytes.push(copy(value));
      else if (typeof value === 'string') texts.push(value);
      else if (typeof value === 'number') texts.push(String(value));
      else if (value && typeof value === 'object') {
        const object = value as Record<string, unknown>;
        const { iv, data } = object;
        if (ArrayBuffer.isView(iv) && (data instanceof Blob || data instanceof ArrayBuffer)) {
          const raw = data instanceof Blob ? await data.arrayBuffer() : data;
          sealed.push({ iv: copy(iv), data: new Uint8Array(raw), record: record ?? object });
        }
        for (const inner of Object.values(object)) await walk(inner, record ?? object);
      }
    };
    for (const value of values) await walk(value, null);

    const decoded = (text: string): Bytes[] => {
      const out = [encoder.encode(text)];
      if (/^[0-9a-f]+$/i.test(text) && text.length % 2 === 0)
        out.push(Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16)));
      try {
        out.push(Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));
      } catch {
        // not base64
      }
      return out;
    };
    const materials = [...bytes, ...texts.flatMap(decoded)];
    const rawKeys: Bytes[] = [];
    for (const material of materials) {
      if ([16, 24, 32].includes(material.length)) rawKeys.push(material);
      rawKeys.push(new Uint8Array(await crypto.subtle.digest('SHA-256', material)));
      // A key kept inside a slightly longer value (with a nonce, a tag, a prefix).
      if (material.length > 32 && material.length <= 128)
        for (let at = 0; at + 32 <= material.length; at++) rawKeys.push(material.slice(at, at + 32));
    }
    const imported = await Promise.all(
      rawKeys.map((raw) =>
        crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']).catch(() => null),
      ),
    );
    const keys = [
      ...cryptoKeys.filter((k) => k.usages.includes('decrypt')),
      ...imported.filter((k) => k !== null),
    ];

    const opened: string[] = [];
    for (const { iv, data, record } of sealed) {
      const strings = Object.values(record).filter((v): v is string => typeof v === 'string');
      const id = typeof record.id === 'string' ? record.id : '';
      // The labels the app binds in, built from every string of the record; the first piece of a
      // file sealed in pieces is tried as a piece (its index and count appended).
      const labels: (Bytes | undefined)[] = [undefined];
      for (const s of strings) {
        labels.push(encoder.encode(`${s}/${id}/entry`));
        const label = encoder.encode(`${s}/${id}/bytes`);
        labels.push(label);
        for (const count of [1, 2, 3, 4]) {
          const piece = new Uint8Array(label.length + 8);
          piece.set(label);
          new DataView(piece.buffer).setUint32(label.length + 4, count);
          labels.push(piece);
        }
      }
      const piece = 512 * 1024 + 16;
      const targets = data.length > piece ? [data, data.slice(0, piece)] : [data];
      for (const [index, key] of keys.entries()) {
        for (const label of labels) {
          for (const target of targets) {
            const params: AesGcmParams = { name: 'AES-GCM', iv, ...(label && { additionalData: label }) };
            const plain = await crypto.subtle.decrypt(params, key, target).catch(() => null);
            if (plain)
              opened.push(
                `record ${id} with key ${index}${cryptoKeys.includes(key) ? ' (a stored CryptoKey)' : ''}`,
              );
          }
        }
      }
    }

    const holds = (needle: Bytes) =>
      materials.some((m) => {
        outer: for (let at = 0; at + needle.length <= m.length; at++) {
          for (let i = 0; i < needle.length; i++) if (m[at + i] !== needle[i]) continue outer;
          return true;
        }
        return false;
      });
    const holdsSecret = secretList.some((secret) => {
      const raw = Uint8Array.from(atob(secret), (c) => c.charCodeAt(0));
      const hex = Array.from(raw, (b) => b.toString(16).padStart(2, '0')).join('');
      return holds(raw) || texts.some((t) => t.includes(secret) || t.includes(hex));
    });
    return { sealed: sealed.length, candidates: keys.length, opened: [...new Set(opened)], holdsSecret };
  }, secrets);
}
