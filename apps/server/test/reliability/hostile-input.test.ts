/**
 * The hostile-input scenario of the reliability report in its short form (1 000 fuzzed requests and a
 * few slow connections) against the production build, `node dist/main.js`: build the server first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatTable, serverDir } from '../../reliability/harness.js';
import { scenario } from '../../reliability/scenarios/6-hostile-input.js';

describe('reliability: hostile input, short form', () => {
  it('answers every hostile request without a 5xx, refuses in JSON { error }, stays up and gives its memory back', async () => {
    const main = path.join(serverDir, 'dist', 'main.js');
    expect(
      fs.existsSync(main),
      `${main} is missing: run \`pnpm --filter @vita-docs/server build\` first`,
    ).toBe(true);
    const row = await scenario.run({ short: true, log: () => undefined });
    expect(row.broke, `\n${formatTable([row])}\n`).toBe('');
  }, 180_000);
});
