/**
 * The cookie rules of main's transport, against a scripted server: what is sent where, and what the
 * renderer can learn. The end-to-end path through the bridge is in test/transport.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '../shared/bridge.js';
import { createServerFetch, type FetchLike } from './server-fetch.js';

/** A server that answers each path with its Set-Cookie lines and records each request's Cookie header. */
function scripted(answers: Record<string, string[]>) {
  const sent: Array<{ url: string; cookie: string | null }> = [];
  const fetch: FetchLike = async (url, init) => {
    sent.push({ url, cookie: new Headers(init?.headers).get('cookie') });
    const headers = new Headers({ 'content-type': 'application/json' });
    for (const line of answers[new URL(url).pathname] ?? []) headers.append('set-cookie', line);
    return new Response('{"ok":true}', { headers });
  };
  return { fetch, lastCookie: () => sent.at(-1)?.cookie ?? null };
}

const get = (url: string): ApiRequest => ({ url, method: 'GET', headers: [], credentials: 'include' });

afterEach(() => {
  vi.useRealTimers();
});

describe('server transport cookies', () => {
  it('never sends a Secure cookie over plain http to another machine', async () => {
    const server = scripted({
      '/api/auth/login-verify': ['vita_session=s1; Path=/; HttpOnly; Secure', 'theme=dark; Path=/'],
    });
    const main = createServerFetch({ serverUrl: 'http://192.168.1.20:3000', fetch: server.fetch });
    await main.fetch('http://192.168.1.20:3000/api/auth/login-verify');
    await main.fetch('http://192.168.1.20:3000/api/me');
    expect(server.lastCookie()).toBe('theme=dark');
  });

  it('sends Secure cookies over https, and over http to this machine itself', async () => {
    for (const serverUrl of ['https://vita.example.org', 'http://localhost:3000', 'http://127.0.0.1:3000']) {
      const server = scripted({ '/api/auth/login-verify': ['vita_session=s1; Path=/; HttpOnly; Secure'] });
      const main = createServerFetch({ serverUrl, fetch: server.fetch });
      await main.fetch(`${serverUrl}/api/auth/login-verify`);
      await main.fetch(`${serverUrl}/api/me`);
      expect(server.lastCookie(), serverUrl).toBe('vita_session=s1');
    }
  });

  it('stops sending a cookie once it expires, however often it was sent before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const server = scripted({
      '/api/auth/reset-verify': ['reset=g1; Path=/; HttpOnly; Max-Age=60'],
      '/api/old': ['stale=1; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT'],
    });
    const main = createServerFetch({ serverUrl: 'https://vita.example.org', fetch: server.fetch });
    await main.fetch('https://vita.example.org/api/old');
    await main.fetch('https://vita.example.org/api/auth/reset-verify');
    for (let second = 0; second < 59; second += 1) {
      vi.advanceTimersByTime(1000);
      await main.fetch('https://vita.example.org/api/me');
      expect(server.lastCookie()).toBe('reset=g1');
    }
    vi.advanceTimersByTime(1000);
    await main.fetch('https://vita.example.org/api/me');
    expect(server.lastCookie()).toBeNull();
  });

  it('keeps a cookie to its Path and refuses one for another domain', async () => {
    const server = scripted({
      '/api/auth/forgot-verify': [
        'reset=g1; Path=/api/auth; HttpOnly',
        'tracker=1; Path=/; Domain=elsewhere.example',
      ],
    });
    const main = createServerFetch({ serverUrl: 'https://vita.example.org', fetch: server.fetch });
    await main.fetch('https://vita.example.org/api/auth/forgot-verify');
    await main.fetch('https://vita.example.org/api/me');
    expect(server.lastCookie()).toBeNull();
    await main.fetch('https://vita.example.org/api/auth/reset');
    expect(server.lastCookie()).toBe('reset=g1');
  });

  it('gives the renderer the CSRF token, never the value of an HttpOnly cookie', async () => {
    const server = scripted({
      '/api/me': [
        'csrf_token=tok%2B1; Path=/; SameSite=Strict',
        'vita_session=secret-s1; Path=/; HttpOnly; SameSite=Strict',
      ],
      '/api/locked': ['csrf_token=locked-t2; Path=/; HttpOnly'],
    });
    const main = createServerFetch({ serverUrl: 'https://vita.example.org', fetch: server.fetch });
    const request = get('https://vita.example.org/api/me');

    const answer = await main.relay(request, 'csrf_token');
    expect(answer.csrfToken).toBe('tok+1');
    expect(main.getCookie('vita_session')).toBeUndefined();
    // Whatever the cookie name asked for, nothing that crosses to the renderer holds the session.
    const asked = await main.relay(request, 'vita_session');
    expect(asked.csrfToken).toBeUndefined();
    expect(JSON.stringify({ ...asked, body: new TextDecoder().decode(asked.body) })).not.toContain(
      'secret-s1',
    );
    expect(server.lastCookie()).toContain('vita_session=secret-s1');

    // Over https the server names it __Host-csrf_token.
    const hosted = scripted({ '/api/me': ['__Host-csrf_token=tok3; Path=/; Secure; SameSite=Strict'] });
    const secure = createServerFetch({ serverUrl: 'https://vita.example.org', fetch: hosted.fetch });
    expect((await secure.relay(request, 'csrf_token')).csrfToken).toBe('tok3');

    // A CSRF cookie the server marked HttpOnly stays in main too.
    const locked = await main.relay(get('https://vita.example.org/api/locked'), 'csrf_token');
    expect(locked.csrfToken).toBeUndefined();
  });

  it('never relays the journal key to the renderer, however its path is spelled; main itself gets it', async () => {
    const server = scripted({});
    const sent: string[] = [];
    const main = createServerFetch({
      serverUrl: 'https://vita.example.org',
      fetch: (url, init) => (sent.push(url), server.fetch(url, init)),
    });
    for (const path of [
      '/api/me/journal-key',
      '/api/me/journal-key/',
      '/api//me/journal-key',
      '/api/me/journal%2Dkey',
      '/API/ME/Journal-Key',
      '/api/me/journal-key?t=1',
    ]) {
      const answer = await main.relay(get(`https://vita.example.org${path}`), 'csrf_token');
      expect(answer.status, path).toBe(403);
      expect(new TextDecoder().decode(answer.body), path).toBe(
        '{"error":"Only the kiosk itself asks for this."}',
      );
    }
    expect(sent).toEqual([]);
    await main.fetch('https://vita.example.org/api/me/journal-key');
    expect(sent).toEqual(['https://vita.example.org/api/me/journal-key']);
    expect((await main.relay(get('https://vita.example.org/api/me'), 'csrf_token')).status).toBe(200);
  });
});
