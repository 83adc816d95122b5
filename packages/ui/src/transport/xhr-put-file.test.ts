import { describe, expect, it } from 'vitest';
import { createXhrPutFile } from './xhr-put-file';

/** Just enough of XMLHttpRequest to script one upload: progress events, then an answer or a failure. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  withCredentials = true;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } =
    {
      onprogress: null,
    };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  answer(status: number, text: string) {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
}

const putFile = createXhrPutFile(() => new FakeXhr() as unknown as XMLHttpRequest);
const file = new File([new Uint8Array(1000)], 'w2.pdf', { type: 'application/pdf' });

describe('upload over XMLHttpRequest', () => {
  it('PUTs the file with its type and no cookies, reporting progress byte by byte', async () => {
    const progress: [number, number][] = [];
    const done = putFile('/api/storage/put?sig=1', file, 'application/pdf', (loaded, total) =>
      progress.push([loaded, total]),
    );
    await Promise.resolve();
    await Promise.resolve();
    const xhr = FakeXhr.last;
    expect([xhr.method, xhr.url, xhr.headers['content-type'], xhr.withCredentials]).toEqual([
      'PUT',
      '/api/storage/put?sig=1',
      'application/pdf',
      false,
    ]);
    expect(xhr.body).toBe(file);
    xhr.upload.onprogress?.({ loaded: 400, total: 1000, lengthComputable: true });
    xhr.answer(200, '{"key":"k"}');
    expect(await done).toEqual({ status: 200, ok: true, body: '{"key":"k"}' });
    expect(progress).toEqual([
      [0, 1000],
      [400, 1000],
      [1000, 1000],
    ]);
  });

  it('sets the further headers signed into the URL', async () => {
    const done = putFile('/put', file, 'application/pdf', undefined, {
      'x-amz-checksum-sha256': 'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=',
      'if-none-match': '*',
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(FakeXhr.last.headers).toEqual({
      'x-amz-checksum-sha256': 'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=',
      'if-none-match': '*',
      'content-type': 'application/pdf',
    });
    FakeXhr.last.answer(200, '');
    expect(await done).toMatchObject({ ok: true });
  });

  it('an HTTP failure resolves with its status and body; a network failure rejects', async () => {
    const refused = putFile('/put', file, 'application/pdf');
    await Promise.resolve();
    await Promise.resolve();
    FakeXhr.last.answer(500, 'disk full');
    expect(await refused).toEqual({ status: 500, ok: false, body: 'disk full' });

    const lost = putFile('/put', file, 'application/pdf');
    await Promise.resolve();
    await Promise.resolve();
    FakeXhr.last.onerror?.();
    await expect(lost).rejects.toThrow(/could not reach the server/);
  });
});
