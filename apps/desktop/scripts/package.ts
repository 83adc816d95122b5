/**
 * Runs electron-builder with electron-builder.yml. Flags: `--dir` (unpacked app only, no
 * installer), `--linux` / `--win` / `--mac` (default: this platform). `ELECTRON_DIST` may point at
 * an unpacked Electron (or its zip) so packaging works where the Electron download is blocked.
 */
import { join } from 'node:path';
import { build, type Configuration } from 'electron-builder';

const args = new Set(process.argv.slice(2));
const electronDist = process.env.ELECTRON_DIST;
const config: Configuration = { extends: 'electron-builder.yml', ...(electronDist ? { electronDist } : {}) };

const platforms = {
  ...(args.has('--linux') ? { linux: [] } : {}),
  ...(args.has('--win') ? { win: [] } : {}),
  ...(args.has('--mac') ? { mac: [] } : {}),
};

const artifacts = await build({
  projectDir: join(import.meta.dirname, '..'),
  config,
  dir: args.has('--dir'),
  publish: 'never',
  ...platforms,
});
console.log(artifacts.length ? artifacts.join('\n') : 'Unpacked app written to release/');
