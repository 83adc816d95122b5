import { createHash, randomBytes } from 'node:crypto';
import type { Agent } from './harness.js';

/** Bytes that pass the PDF magic-number check, with random content so hashes differ. */
export function pdfBytes(size = 4096): Buffer {
  const head = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  return Buffer.concat([head, randomBytes(Math.max(0, size - head.length - 6)), Buffer.from('\n%%EOF')]);
}

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Creates a client owned by the agent's user; returns its id. */
export async function createClient(
  agent: Agent,
  email = `c${Date.now()}${Math.random()}@example.org`.replace('0.', ''),
): Promise<string> {
  const res = await agent.post('/api/clients/new', {
    firstName: 'Cli',
    lastName: 'Ent',
    email,
    phone: '(734) 555-0100',
  });
  if (res.status !== 200) throw new Error(`create client: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.client.clientId as string;
}

/** The real upload path: presign, then a direct PUT of the bytes. Returns the key. */
export async function upload(
  agent: Agent,
  clientId: string,
  docType: string,
  filename: string,
  bytes: Uint8Array,
  contentType = 'application/pdf',
): Promise<string> {
  const presign = await agent.post(`/api/docs/presign/${clientId}`, { docType, filename, contentType });
  if (presign.status !== 200) throw new Error(`presign: ${presign.status} ${JSON.stringify(presign.body)}`);
  const put = await fetch(presign.body.url, {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: bytes,
  });
  if (!put.ok) throw new Error(`PUT: ${put.status} ${await put.text()}`);
  return presign.body.key as string;
}

/**
 * A new client of `volunteer` (with an email) and a document request for `categories`; returns the
 * client, their email, the link's token (from the URL's fragment) and the answer.
 */
export async function requestLink(
  volunteer: Agent,
  categories: string[],
  extra: Record<string, unknown> = {},
) {
  const email = `client-${Math.random().toString(36).slice(2)}@example.org`;
  const clientId = await createClient(volunteer, email);
  const res = await volunteer.post(`/api/clients/${clientId}/link`, { categories, ...extra });
  if (res.status !== 200) throw new Error(`the link was not sent: ${JSON.stringify(res.body)}`);
  const token = /\/u#([A-Za-z0-9_-]+)$/.exec(res.body.url as string)?.[1] ?? '';
  return { clientId, email, token, res };
}
