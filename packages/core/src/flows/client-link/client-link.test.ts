import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import type { LinkChecklist } from '../../api/link-schemas.js';
import { CLIENT_LINK_TEXTS } from '../../client-link/texts.js';
import { createClientLinkFlow, type ClientLinkFlowOptions } from './client-link.js';

const TOKEN = 'A'.repeat(43);
const checklist = (over: Partial<LinkChecklist> = {}): LinkChecklist => ({
  firstName: 'Jane',
  programme: 'Site 12',
  volunteer: 'Vera',
  message: null,
  language: 'es',
  consented: false,
  consent: { version: '3', en: 'I agree.', es: 'Acepto.' },
  readDocuments: true,
  expiresAt: '2026-12-01T00:00:00.000Z',
  rows: [{ docType: 'W-2', files: [], missing: null }],
  ...over,
});
const http = (status: number, message = 'x', code?: 'link_expired') =>
  new ApiError('http', status, message, code ? { code } : undefined);

function fakeApi(): ClientLinkFlowOptions['api'] {
  let consented = false;
  let missing: { note: string | null } | null = null;
  return {
    linkOpen: vi.fn(async () => ({
      state: 'open' as const,
      programme: 'Site 12',
      volunteer: 'Vera',
      language: 'es' as const,
      codeSentTo: 'j•••@example.org',
      needsPin: false,
    })),
    linkVerify: vi.fn(async ({ body }: { body: { code?: string } }) => {
      if (body.code !== '123456') throw http(400, CLIENT_LINK_TEXTS.en.wrongAnswer);
      return { ok: true as const };
    }),
    linkChecklist: vi.fn(async () =>
      checklist({ consented, rows: [{ docType: 'W-2', files: [], missing }] }),
    ),
    linkConsent: vi.fn(async () => {
      consented = true;
      return { ok: true as const };
    }),
    linkAnswer: vi.fn(async () => {
      missing = { note: null };
      return { ok: true as const };
    }),
    linkRemove: vi.fn(async () => ({ ok: true as const })),
    linkDone: vi.fn(async () => ({ ok: true as const })),
  };
}

/** A checklist read before the code is entered: no link session yet. */
function signedOut(api: ReturnType<typeof fakeApi>) {
  vi.mocked(api.linkChecklist).mockRejectedValueOnce(http(401));
}

describe('client link flow', () => {
  it('opens, proves with the code, consents, answers and finishes', async () => {
    const api = fakeApi();
    signedOut(api);
    const flow = createClientLinkFlow({ api, token: TOKEN });
    await flow.send({ type: 'start' });
    expect(flow.getState()).toMatchObject({
      status: 'prove',
      codeSentTo: 'j•••@example.org',
      language: 'es',
    });
    await flow.send({ type: 'prove', code: '000000' });
    expect(flow.getState()).toMatchObject({ status: 'prove', error: CLIENT_LINK_TEXTS.es.wrongAnswer });
    await flow.send({ type: 'prove', code: '123456' });
    expect(flow.getState()).toMatchObject({ status: 'consent' });
    await flow.send({ type: 'consent', name: '  ' });
    expect(api.linkConsent).not.toHaveBeenCalled();
    await flow.send({ type: 'consent', name: ' Jane Doe ' });
    // The version shown, the language it was read in, the typed name and the phone's time zone.
    expect(api.linkConsent).toHaveBeenCalledWith({
      body: { version: '3', language: 'es', name: 'Jane Doe', timeZone: expect.any(String) },
    });
    expect(flow.getState()).toMatchObject({ status: 'checklist', busy: false });
    await flow.send({ type: 'missing', docType: 'W-2', note: ' none ' });
    expect(api.linkAnswer).toHaveBeenCalledWith({ body: { docType: 'W-2', missing: true, note: 'none' } });
    await flow.send({ type: 'finish' });
    expect(flow.getState()).toEqual({
      status: 'done',
      language: 'es',
      who: { programme: 'Site 12', volunteer: 'Vera' },
    });
  });

  it('asks before finishing while a requested row has neither a file nor an answer', async () => {
    const api = fakeApi();
    vi.mocked(api.linkChecklist).mockResolvedValue(
      checklist({
        consented: true,
        rows: [
          { docType: 'W-2', files: [], missing: null },
          { docType: 'Other', files: [], missing: null, extra: true },
        ],
      }),
    );
    const flow = createClientLinkFlow({ api, token: TOKEN });
    await flow.send({ type: 'start' });
    await flow.send({ type: 'finish' });
    expect(flow.getState()).toMatchObject({ status: 'checklist', confirming: true });
    expect(api.linkDone).not.toHaveBeenCalled();
    await flow.send({ type: 'goBack' });
    expect(flow.getState()).toMatchObject({ status: 'checklist', confirming: false });
    await flow.send({ type: 'finish' });
    await flow.send({ type: 'sendAnyway' });
    expect(api.linkDone).toHaveBeenCalledOnce();
    expect(flow.getState().status).toBe('done');
  });

  it('says the documents were sent when a finished link is opened again', async () => {
    const api = fakeApi();
    signedOut(api);
    vi.mocked(api.linkOpen).mockResolvedValueOnce({
      state: 'done',
      programme: 'Site 12',
      volunteer: 'Vera',
      language: 'es',
      codeSentTo: null,
      needsPin: false,
    });
    const flow = createClientLinkFlow({ api, token: TOKEN });
    await flow.send({ type: 'start' });
    expect(flow.getState()).toEqual({
      status: 'finished',
      language: 'es',
      who: { programme: 'Site 12', volunteer: 'Vera' },
    });
  });

  it('goes straight to the checklist with a link session kept from before', async () => {
    const api = fakeApi();
    vi.mocked(api.linkChecklist).mockResolvedValueOnce(checklist({ consented: true }));
    const flow = createClientLinkFlow({ api, token: null });
    await flow.send({ type: 'start' });
    expect(flow.getState()).toMatchObject({ status: 'checklist' });
    expect(api.linkOpen).not.toHaveBeenCalled();
  });

  it('says only that the link expired when it is gone, or opened without a token', async () => {
    const api = fakeApi();
    signedOut(api);
    vi.mocked(api.linkOpen).mockRejectedValueOnce(http(410, CLIENT_LINK_TEXTS.en.expired, 'link_expired'));
    const flow = createClientLinkFlow({ api, token: TOKEN });
    await flow.send({ type: 'start' });
    expect(flow.getState()).toEqual({ status: 'gone', language: 'en', who: null });

    const noToken = fakeApi();
    signedOut(noToken);
    const bare = createClientLinkFlow({ api: noToken, token: null });
    await bare.send({ type: 'start' });
    expect(bare.getState().status).toBe('gone');
  });

  it('shows the lock after too many wrong answers', async () => {
    const api = fakeApi();
    signedOut(api);
    vi.mocked(api.linkVerify).mockRejectedValueOnce(http(429, CLIENT_LINK_TEXTS.en.locked));
    const flow = createClientLinkFlow({ api, token: TOKEN });
    await flow.send({ type: 'start' });
    await flow.send({ type: 'prove', code: '123456' });
    expect(flow.getState()).toEqual({ status: 'locked', language: 'es' });
  });

  it('goes to gone when the link is revoked while the checklist is open', async () => {
    const api = fakeApi();
    vi.mocked(api.linkChecklist).mockResolvedValueOnce(checklist({ consented: true }));
    const flow = createClientLinkFlow({ api, token: TOKEN });
    await flow.send({ type: 'start' });
    vi.mocked(api.linkDone).mockRejectedValueOnce(http(410, CLIENT_LINK_TEXTS.en.expired, 'link_expired'));
    await flow.send({ type: 'sendAnyway' });
    expect(flow.getState().status).toBe('gone');
  });

  it('switches language', async () => {
    const api = fakeApi();
    signedOut(api);
    const flow = createClientLinkFlow({ api, token: TOKEN });
    await flow.send({ type: 'start' });
    await flow.send({ type: 'language', language: 'en' });
    expect(flow.getState().language).toBe('en');
  });
});
