import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

/**
 * JSON bodies: an empty body reads as `{}` (a bodiless POST like logout is fine) and malformed
 * JSON gets a message a person understands.
 */
export function installJsonParser(app: FastifyInstance): void {
  // Only JSON: a text/plain or form body (the classic cross-site form post) is refused with 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, {});
      return;
    }
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(new HttpError(400, 'The request body is not valid JSON.'), undefined);
    }
  });
}
