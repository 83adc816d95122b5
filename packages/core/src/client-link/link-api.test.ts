import { describe, expect, it, vi } from 'vitest';
import { CSRF_HEADER } from '../api/endpoint-def.js';
import { endpoints } from '../api/endpoints.js';
import { createLinkApi, LINK_CALLS } from './link-api.js';

describe('link api', () => {
  it('calls exactly what the contract table says', () => {
    for (const [name, [method, path]] of Object.entries(LINK_CALLS)) {
      const def = endpoints[name as keyof typeof endpoints];
      expect([def.method, def.path], name).toEqual([method, path]);
    }
    expect(CSRF_HEADER).toBe('x-csrf-token');
  });

  it('sends the CSRF header and raises the server’s error with its code', async () => {
    const fetch = vi.fn(
      async () => new Response(JSON.stringify({ error: 'Gone.', code: 'link_expired' }), { status: 410 }),
    );
    const api = createLinkApi({ fetch, getCookie: (n) => (n === 'csrf_token' ? 'tok' : undefined) });
    await expect(api.linkOpen({ body: { token: 'x'.repeat(43) } })).rejects.toMatchObject({
      status: 410,
      message: 'Gone.',
      code: 'link_expired',
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/link/open');
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBe('tok');
    expect(init.credentials).toBe('include');
  });
});
