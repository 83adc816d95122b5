import { messages, STORAGE_KEYS } from '@vita-docs/core';
import {
  createFakeApi,
  createManualClock,
  createMemoryStorage,
  createRecordingDialogs,
} from '@vita-docs/core/testing';
import { prerenderToNodeStream } from 'react-dom/static';
import { MemoryRouter } from './router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';
import type { AppServices } from './services';

/**
 * The first paint of a route, as a string: enough to check texts, labels and input attributes. Lazily
 * loaded screens are waited for (a prerender), as the browser waits for their chunk.
 */
async function render(path: string, session: Record<string, string> = {}): Promise<string> {
  const services: AppServices = {
    api: createFakeApi(),
    platform: { ...createRecordingDialogs(), putFile: createFakeApi().putFile, saveFile: async () => {} },
    clock: createManualClock(),
    sessionStorage: createMemoryStorage(session),
    localStorage: createMemoryStorage(),
    config: { programmeUrl: 'https://programme.example.org/' },
  };
  const { prelude } = await prerenderToNodeStream(
    <AppProviders services={services}>
      <MemoryRouter path={path}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return html;
}

describe('routes (first paint)', () => {
  it('every page has the header with the product title and a Home link to /home', async () => {
    for (const path of ['/', '/login', '/register', '/register/pending']) {
      const html = await render(path);
      expect(html).toContain('<header class="app-header">');
      expect(html).toContain('VITA Documents');
      expect(html).toMatch(/<a[^>]*href="\/home"[^>]*>Home<\/a>/);
    }
  });

  it('the landing page has the tagline, Login, Register and the configured programme link', async () => {
    const html = await render('/');
    expect(html).toContain(messages.landingTagline);
    expect(html).toMatch(/href="\/login"[^>]*>Login</);
    expect(html).toMatch(/href="\/register"[^>]*>Register</);
    expect(html).toContain('href="https://programme.example.org/"');
  });

  it('the register form labels its four fields', async () => {
    const html = await render('/register');
    expect(html).toContain('New Volunteer Account');
    for (const label of ['First name', 'Last name', 'Email', 'Password PIN'])
      expect(html).toContain(`>${label}</label>`);
  });

  it('the verify page asks for the code with a numeric keypad and at most 6 characters', async () => {
    const html = await render('/login/verify', { [STORAGE_KEYS.loginEmail]: 'vera@example.org' });
    expect(html).toContain('vera@example.org');
    expect(html).toMatch(
      /<input[^>]*inputMode="numeric"[^>]*maxLength="6"|<input[^>]*maxLength="6"[^>]*inputMode="numeric"/i,
    );
    expect(html).toContain('>Resend code</button>');
  });
});
