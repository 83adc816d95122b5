/**
 * An upload flow: a whole upload with hostile but acceptable text wherever a person types it, each
 * step a well-formed request of its own (through fetch), its answer judged like the others'. The
 * file's bytes are a real PDF or image, so the steps get through storage, listing, download and ZIP.
 */
import { createHash } from 'node:crypto';
import { randomPdf } from '../../harness.js';
import type { AnswerCheck } from './checks.js';
import type { Answer } from './raw-client.js';
import type { Flow, Spec } from './spec.js';
import { excerpt, type Tally } from './tally.js';
import type { Identity } from './wire.js';

/** Bytes the store recognises as a PNG and a JPEG (their signatures, then filler): enough for a flow. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(1_000, 7),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(1_000, 9)]);

export interface FlowContext {
  url: string;
  identity: Identity;
  /** The clients the identity may work on. */
  clients: readonly string[];
  tally: Tally;
  holds: readonly AnswerCheck[];
}

type StepBody = { json: unknown } | { bytes: Buffer; type: string; headers?: Record<string, string> };

const parseJson = (answer: Answer | undefined): Record<string, unknown> | null => {
  try {
    return answer && answer.status < 300 && /json/.test(answer.headers.get('content-type') ?? '')
      ? (JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
};

/** One step: sent, timed, judged; its JSON answer when it succeeded. */
function stepper(ctx: FlowContext, spec: Spec) {
  const { url, identity, tally } = ctx;
  return async (label: string, method: string, target: string, body?: StepBody) => {
    const signed = !target.startsWith('/');
    const headers: Record<string, string> = signed
      ? {}
      : {
          cookie: identity.cookie,
          'x-csrf-token': identity.csrf,
          'x-forwarded-for': `10.67.${spec.ip >> 8}.${spec.ip & 255}`,
        };
    let payload: Buffer | undefined;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      payload = Buffer.from(JSON.stringify(body.json));
    } else if (body) {
      Object.assign(headers, body.headers, { 'content-type': body.type });
      payload = body.bytes;
    }
    tally.flowRequests += 1;
    const began = performance.now();
    const answer = await fetch(signed ? target : `${url}/api${target}`, {
      method,
      headers,
      ...(payload && { body: new Uint8Array(payload) }),
    }).then(
      async (res): Promise<Answer> => ({
        status: res.status,
        headers: new Map(res.headers),
        body: Buffer.from(await res.arrayBuffer()),
      }),
      () => undefined,
    );
    tally.latencies.push(performance.now() - began);
    const found = tally.judge(answer ? [answer] : [], method, ctx.holds);
    if (!answer) found.add('no answer');
    const repro = () =>
      `[upload flow, as ${spec.who}] ${method} ${JSON.stringify(target.slice(0, 200))} body ${payload ? excerpt(payload, 160) : '""'} → ${answer ? `${answer.status} ${answer.headers.get('content-type') ?? '(no type)'} ${excerpt(answer.body, 160)}` : 'no answer'}`;
    for (const failure of found) tally.fail(`${failure} on ${label}`, payload?.length ?? 0, repro());
    return parseJson(answer);
  };
}

export async function runFlow(ctx: FlowContext, spec: Spec, flow: Flow): Promise<void> {
  const step = stepper(ctx, spec);
  const clientId = ctx.clients[flow.client % ctx.clients.length] ?? '';
  const id = encodeURIComponent(clientId);
  const added = await step('POST /api/clients/:id/docs/types', 'POST', `/clients/${id}/docs/types`, {
    json: { template: flow.template, note: flow.note },
  });
  const docType = typeof added?.docType === 'string' ? added.docType : 'Banking Info';
  const bytes =
    flow.contentType === 'application/pdf' ? randomPdf(2_000) : flow.contentType === 'image/png' ? PNG : JPEG;
  const presigned = await step('POST /api/docs/presign/:id', 'POST', `/docs/presign/${id}`, {
    json: {
      docType,
      filename: flow.filename,
      contentType: flow.contentType,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  });
  if (typeof presigned?.url === 'string' && typeof presigned.key === 'string') {
    const signedHeaders = (presigned.headers ?? {}) as Record<string, string>;
    await step('PUT /api/storage/put', 'PUT', presigned.url, {
      bytes,
      type: flow.contentType,
      headers: signedHeaders,
    });
    const completed = await step('POST /api/docs/complete', 'POST', '/docs/complete', {
      json: { key: presigned.key },
    });
    await step('GET /api/docs/list/:id', 'GET', `/docs/list/${id}?docType=${encodeURIComponent(docType)}`);
    const key = (completed?.item as { key?: string } | undefined)?.key ?? presigned.key;
    const download = await step('POST /api/docs/presign-get', 'POST', '/docs/presign-get', {
      json: { key, downloadAs: flow.downloadAs },
    });
    if (typeof download?.url === 'string') await step('GET /api/storage/get', 'GET', download.url);
    const view = await step('POST /api/docs/presign-view', 'POST', '/docs/presign-view', { json: { key } });
    if (typeof view?.url === 'string') await step('GET /api/storage/get', 'GET', view.url);
    await step('POST /api/docs/rename', 'POST', '/docs/rename', { json: { key, filename: flow.rename } });
    await step(
      'GET /api/clients/:id/docs/download-all',
      'GET',
      `/clients/${id}/docs/download-all?include=${encodeURIComponent(docType)}`,
    );
  }
  // The category goes again (with its file), so the flows do not pile up categories.
  if (docType !== 'Banking Info')
    await step(
      'DELETE /api/clients/:id/docs/types',
      'DELETE',
      `/clients/${id}/docs/types?docType=${encodeURIComponent(docType)}`,
    );
}
