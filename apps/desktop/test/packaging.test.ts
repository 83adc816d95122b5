/**
 * The packaged kiosk's Electron fuses and archive. No Electron binary can be packaged on the test
 * machine, so this checks the packaging configuration (electron-builder's `electronFuses`, `asar`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The `key: value` lines of one top-level block of a flat YAML file. */
function block(text: string, name: string): Record<string, string> {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trimEnd() === `${name}:`);
  const entries: Record<string, string> = {};
  for (const line of start < 0 ? [] : lines.slice(start + 1)) {
    const match = /^\s+([A-Za-z]+):\s*(\S+)/.exec(line);
    if (!match) break;
    entries[match[1] ?? ''] = match[2] ?? '';
  }
  return entries;
}

describe('packaging', () => {
  it('turns the risky Electron fuses off and asar integrity on', async () => {
    const config = await readFile(join(import.meta.dirname, '..', 'electron-builder.yml'), 'utf8');
    expect(block(config, 'electronFuses')).toEqual({
      runAsNode: 'false',
      enableCookieEncryption: 'true',
      enableNodeOptionsEnvironmentVariable: 'false',
      enableNodeCliInspectArguments: 'false',
      enableEmbeddedAsarIntegrityValidation: 'true',
      onlyLoadAppFromAsar: 'true',
    });
    expect(config).toMatch(/^asar: true$/m);
  });

  it("keeps the reader's files out of the archive, where src/main/reader.ts looks for them", async () => {
    const config = await readFile(join(import.meta.dirname, '..', 'electron-builder.yml'), 'utf8');
    expect(config).toMatch(/^asarUnpack:\n {2}- dist\/reader\/\*\*$/m);
  });
});
