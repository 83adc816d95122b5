/**
 * Test helpers for storage: real sample files and a minimal HTTP server that mounts only the local
 * store's routes. Used by the storage tests in src/storage and by route tests that need a store.
 */
import Fastify from 'fastify';
import { localStorageRoutes } from '../src/storage/local-routes.js';
import type { LocalObjectStore } from '../src/storage/local.js';

/** A real 8×8 baseline JPEG (made with libvips). */
export const SAMPLE_JPEG: Buffer = Buffer.from(
  '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMo' +
    'GhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAA' +
    'AAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABQf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEA' +
    'PwCEAHq+/9k=',
  'base64',
);

/**
 * A valid one-page PDF saying `text`, with a correct cross-reference table. `padBytes` adds a
 * comment of that size before the trailer, to make a large file that is still a real PDF.
 */
export function samplePdf(text = 'VITA test document', padBytes = 0): Buffer {
  const content = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  if (padBytes > 0) body += `%${'x'.repeat(Math.max(0, padBytes - 2))}\n`;
  const xrefAt = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A running server with only the local storage routes under `/api/storage`. */
export interface StorageTestServer {
  /** `http://127.0.0.1:{port}`: resolve path-only presigned URLs against it. */
  origin: string;
  close(): Promise<void>;
}

/** Starts a minimal Fastify instance on a random port serving `store`'s signed URLs. */
export async function startStorageServer(store: LocalObjectStore): Promise<StorageTestServer> {
  const app = Fastify({ logger: false });
  await app.register(localStorageRoutes(store), { prefix: '/api/storage' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  return { origin: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}
