import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createRecordingDialogs } from '../../testing/index.js';
import { canDownload, createDownloadAllFlow, downloadPercent, expectedZipBytes } from './download-all.js';
import type { DownloadAllState } from './download-all.js';

const CHOICES = [
  { name: '13614-C', hasFiles: true },
  { name: 'Banking Info', hasFiles: false },
  { name: 'W-2 (Acme, Inc.)', hasFiles: true },
];

/** A ZIP answer streamed in `chunks` pieces of 100 bytes, with the server's size headers. */
function zipResponse(chunks: number) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < chunks; i++) controller.enqueue(new Uint8Array(100).fill(i));
      controller.close();
    },
  });
  return new Response(body, {
    headers: { 'x-content-bytes': String(chunks * 100 - 258), 'x-file-count': '1' },
  });
}

function setup() {
  const api = { downloadAll: vi.fn(async (..._args: unknown[]) => zipResponse(10)) };
  const saved: { name: string; data: Blob }[] = [];
  const platform = {
    ...createRecordingDialogs(),
    saveFile: async (name: string, data: Blob) => void saved.push({ name, data }),
  };
  const flow = createDownloadAllFlow({
    api,
    platform,
    clientId: 'client-0001',
  });
  const states: DownloadAllState[] = [];
  flow.subscribe((s) => states.push(s));
  return { api, platform, saved, flow, states };
}

describe('Download All', () => {
  it('starts with the types that have files ticked; Select All ticks every one', async () => {
    const { flow } = setup();
    await flow.send({ type: 'open', choices: CHOICES });
    expect(flow.getState()).toMatchObject({ status: 'choosing', selected: ['13614-C', 'W-2 (Acme, Inc.)'] });
    await flow.send({ type: 'toggle', name: '13614-C' });
    await flow.send({ type: 'toggle', name: 'W-2 (Acme, Inc.)' });
    expect(canDownload(flow.getState())).toBe(false);
    await flow.send({ type: 'toggle', name: 'W-2 (Acme, Inc.)' });
    await flow.send({ type: 'toggle', name: '13614-C' });
    // Selection keeps the list's order, whatever the clicking order.
    expect(flow.getState()).toMatchObject({ selected: ['13614-C', 'W-2 (Acme, Inc.)'] });
    await flow.send({ type: 'selectAll' });
    expect(flow.getState()).toMatchObject({ selected: CHOICES.map((c) => c.name) });
  });

  it('a subset asks for those types only, shows progress, and saves client-{id}-all-docs.zip', async () => {
    const { flow, api, saved, states } = setup();
    await flow.send({ type: 'open', choices: CHOICES });
    await flow.send({ type: 'download' });
    expect(api.downloadAll).toHaveBeenCalledWith(
      { params: { id: 'client-0001' }, query: { include: '13614-C,W-2 (Acme, Inc.)' } },
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    const progress = states.filter((s) => s.status === 'downloading').map((s) => downloadPercent(s));
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toBeLessThanOrEqual(99);
    expect(saved).toHaveLength(1);
    expect(saved[0]!.name).toBe('client-client-0001-all-docs.zip');
    expect(saved[0]!.data.size).toBe(1000);
    expect(flow.getState().status).toBe('closed');
  });

  it('every type chosen: no include list', async () => {
    const { flow, api } = setup();
    await flow.send({ type: 'open', choices: CHOICES });
    await flow.send({ type: 'selectAll' });
    await flow.send({ type: 'download' });
    expect(api.downloadAll.mock.calls[0]![0]).toEqual({ params: { id: 'client-0001' } });
  });

  it('a failure is alerted and the choice stays open', async () => {
    const { flow, api, platform, saved } = setup();
    api.downloadAll.mockRejectedValueOnce(
      new ApiError('http', 403, 'This client belongs to another volunteer.'),
    );
    await flow.send({ type: 'open', choices: CHOICES });
    await flow.send({ type: 'download' });
    expect(platform.alerts).toEqual(['This client belongs to another volunteer.']);
    expect(flow.getState().status).toBe('choosing');
    expect(saved).toEqual([]);
  });

  it('Cancel during the download stops it and saves nothing', async () => {
    const { flow, api, saved, platform } = setup();
    let signal: AbortSignal | undefined;
    api.downloadAll.mockImplementationOnce(
      (_args: unknown, options?: unknown) =>
        new Promise((_resolve, reject) => {
          signal = (options as { signal: AbortSignal }).signal;
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    await flow.send({ type: 'open', choices: CHOICES });
    const downloading = flow.send({ type: 'download' });
    await flow.send({ type: 'cancel' });
    await downloading;
    expect(signal?.aborted).toBe(true);
    expect(flow.getState().status).toBe('closed');
    expect(saved).toEqual([]);
    expect(platform.alerts).toEqual([]);
  });

  it('the size estimate comes from the headers, or is unknown', () => {
    expect(expectedZipBytes(new Headers({ 'x-content-bytes': '1000', 'x-file-count': '2' }))).toBe(
      1000 + 2 * 160 + 98,
    );
    expect(expectedZipBytes(new Headers())).toBeNull();
  });
});
