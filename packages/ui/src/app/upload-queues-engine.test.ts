// The upload queues with a session taken on trust (docs/behaviour.md#offline): files queued while the
// server has not vouched for the session wait, whatever the connection says, since the browser's
// cookie may by then be someone else's; once `GET /me` answers for the same person they go, once.
import { ApiError, createSessionFlow, createStore } from '@vita-docs/core';
import type { User } from '@vita-docs/core';
import {
  createFakeApi,
  createManualClock,
  createManualConnectivity,
  createMemoryStorage,
  createRecordingDialogs,
  createTestFile,
  createTestUser,
} from '@vita-docs/core/testing';
import { describe, expect, it, vi } from 'vitest';
import type { PhotoTools } from '../screens/documents/lazy-converter';
import { createUploadQueues } from './upload-queues-engine';
import { NO_OFFER } from './upload-queues';
import type { KeptOffer, QueuesSummary } from './upload-queues';

const vera = createTestUser({ email: 'vera@example.org', firstName: 'Vera' });

describe('upload queues under a session taken on trust', () => {
  it('send nothing until the server vouches for the session, then send each file once', async () => {
    const api = createFakeApi();
    api.world.session = { email: vera.email }; // the cookie the browser still holds
    const { clientId } = api.addClient({ firstName: 'Ada', createdBy: vera.email });
    let kept: User | null = vera;
    const me = vi.fn(async (): Promise<{ user: User }> =>
      Promise.reject(new ApiError('network', 0, 'Failed to fetch')),
    );
    const session = createSessionFlow({
      api: { me, logout: api.logout },
      platform: createRecordingDialogs(),
      remembered: { read: () => kept, write: (user) => void (kept = user) },
    });
    await session.send({ type: 'check' });
    expect(session.getState()).toMatchObject({ status: 'signedIn', offline: true });

    const connectivity = createManualConnectivity(); // the browser says online: a captive portal
    const photos: PhotoTools = {
      convert: async (file) => file,
      inspect: async () => [],
      canUse: async () => false,
      buildScan: async () => Promise.reject(new Error('no scans here')),
      dispose: () => undefined,
    };
    const queues = createUploadQueues(
      {
        api,
        platform: { ...createRecordingDialogs(), putFile: api.putFile, saveFile: async () => {} },
        clock: createManualClock(),
        sessionStorage: createMemoryStorage(),
        localStorage: createMemoryStorage(),
        config: { programmeUrl: 'https://programme.example.org/' },
        connectivity,
      },
      session,
      {
        photos,
        summary: createStore<QueuesSummary>({ items: [], finished: 0, finishedBytes: 0 }),
        offer: createStore<KeptOffer>(NO_OFFER),
        announceStored: () => undefined,
      },
    );
    const flow = queues.queues.queueFor({ clientId, docType: 'W-2' });
    await flow.send({ type: 'add', files: [createTestFile('w2.pdf', '%PDF-1.7 W-2', 'application/pdf')] });
    await flow.send({ type: 'upload' });
    expect(flow.getState().queue.map((item) => item.progress.status)).toEqual(['waiting']);
    expect(api.callNames()).not.toContain('presignUpload');

    me.mockResolvedValueOnce({ user: vera });
    await session.send({ type: 'check' });
    await vi.waitFor(() => expect(flow.getState().queue).toEqual([]));
    expect(api.callNames().filter((name) => name === 'presignUpload')).toHaveLength(1);
    expect([...api.world.docs.values()].map((doc) => doc.item.filename)).toEqual(['w2.pdf']);
    queues.dispose();
  });
});
