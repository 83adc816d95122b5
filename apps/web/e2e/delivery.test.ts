// How the built app reaches a phone: the landing page's scripts and style sheets come compressed (the
// build's .br copies) and marked as kept for a year (docs/architecture.md#ui-packagesui-and-web-appsweb).
import { messages } from '@vita-docs/core';
import type { Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from './support/app.js';
import type { TestApp } from './support/app.js';
import { seeHeading } from './support/journeys.js';

describe('delivery of the built app', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('sends the landing page its scripts and styles brotli-compressed, cached as immutable', async () => {
    const { page } = await app.visit();
    const assets: Response[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/assets/')) assets.push(response);
    });
    await page.goto('/');
    await seeHeading(page, messages.landingTagline);

    const kinds = new Set(assets.map((response) => new URL(response.url()).pathname.split('.').pop()));
    expect(kinds).toEqual(new Set(['js', 'css']));
    for (const response of assets) {
      const headers = await response.allHeaders();
      expect(headers['content-encoding'], response.url()).toBe('br');
      expect(headers['cache-control'], response.url()).toBe('public, max-age=31536000, immutable');
    }
  });
});
