/**
 * The reliability report's slow-clients scenario in its short form: ten ZIP downloads read at
 * 10 KB/s while volunteers work. It runs the production build (`dist/main.js`), so it is skipped
 * until the server has been built (`pnpm --filter @vita-docs/server build`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverDir } from '../reliability/harness.js';
import { scenario } from '../reliability/scenarios/7-slow-clients.js';

const built = existsSync(path.join(serverDir, 'dist', 'main.js'));

describe.skipIf(!built)('reliability: slow clients (short form)', () => {
  it('keeps serving the others, holds little per slow download and frees it when they hang up', { timeout: 90_000 }, async () => {
    const row = await scenario.run({ short: true, log: () => undefined });
    expect(row.broke).toBe('');
    expect(row.held).toContain('the server still answers afterwards');
  });
});
