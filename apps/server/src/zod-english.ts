/**
 * zod/mini ships no messages of its own (every failure reads "Invalid input"). The server words its
 * configuration errors (env.ts) and its 400s (http/errors.ts) from zod's English ones, so it loads them
 * once, here; the web app never shows a zod message and leaves them out of its download.
 */
import { z } from 'zod/mini';

z.config(z.locales.en());
