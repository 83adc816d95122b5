// The signed-in browser the benchmarks drive: core's cookie-keeping fetch, echoing the CSRF cookie.
// Needs the build of @vita-docs/core (the scripts in package.json make it first).
import { createCookieJarFetch } from '@vita-docs/core/testing';

export class Session {
  constructor(base) {
    this.base = base;
    this.browser = createCookieJarFetch((url, init) => fetch(url, init), { pageUrl: base });
  }

  /** The Cookie header to hand to load generators and raw node:http requests. */
  get cookieHeader() {
    return this.browser.cookieHeader();
  }

  async call(method, p, body) {
    const headers = {};
    const csrf = this.browser.getCookie('csrf_token');
    if (csrf !== undefined) headers['x-csrf-token'] = csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.browser.fetch(this.base + p, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
}
