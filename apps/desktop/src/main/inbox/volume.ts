/**
 * Whether a folder's volume is a remote one on macOS and Windows, where `statfs().type` says nothing
 * portable (macOS numbers its file-system types in the order they were loaded; Windows has none).
 * Node exposes neither the macOS mount flags nor the Windows drive type, and a native addon for one
 * question is not worth its build: the OS's own commands answer it (`mount` lists every volume
 * with its type and whether it is `local`; .NET's `DriveInfo` tells a mapped network drive). The
 * command runner is injected so the reading of their outputs is tested anywhere with recorded ones.
 */
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Runs a program (no shell) and resolves with its standard output. */
export type RunCommand = (file: string, args: readonly string[]) => Promise<string>;

/** The default runner: 10 s at most, so a hung command leaves the folder taken as local. */
const runCommand: RunCommand = async (file, args) =>
  (await execFileAsync(file, [...args], { timeout: 10_000, windowsHide: true })).stdout;

/** macOS file-system types that are network ones, whatever the flags say. */
const MAC_NETWORK_TYPES = new Set(['smbfs', 'nfs', 'afpfs', 'webdav', 'cifs', 'ftp', 'macfuse', 'osxfuse']);
/** Types without the `local` flag that are no network volume (`autofs` holds mounts made on use). */
const MAC_NOT_NETWORK = new Set(['autofs', 'devfs', 'nullfs']);

/** One line of macOS `mount`: `//user@server/scans on /Volumes/scans (smbfs, nodev, nosuid, mounted by desk)`. */
const MOUNT_LINE = /^(.+?) on (\/.*) \(([^,()]+)((?:, [^,()]+)*)\)$/;

/**
 * The network file system (its `mount` type) the path is on, from macOS `mount` output: the
 * volume mounted at the longest prefix of the path is the path's; it is a network one when its
 * type is (smbfs, nfs, afpfs, webdav …) or when it lacks the `local` flag (MNT_LOCAL).
 * @internal Exported for its tests.
 */
export function macNetworkType(mountOutput: string, path: string): string | null {
  let best: { point: string; type: string; local: boolean } | null = null;
  for (const line of mountOutput.split('\n')) {
    const match = MOUNT_LINE.exec(line.trim());
    if (!match) continue;
    const [, , point = '', type = '', flags = ''] = match;
    const prefix = point.endsWith('/') ? point : `${point}/`;
    if (path !== point && !path.startsWith(prefix)) continue;
    if (best && best.point.length >= point.length) continue;
    best = { point, type, local: flags.split(', ').includes('local') };
  }
  if (!best) return null;
  if (MAC_NETWORK_TYPES.has(best.type)) return best.type;
  return best.local || MAC_NOT_NETWORK.has(best.type) ? null : best.type;
}

/**
 * The drive letter of `Z:\Scans` or `\\?\Z:\Scans`, upper case; null for other paths.
 * @internal Exported for its tests.
 */
export function windowsDrive(path: string): string | null {
  const match = /^(?:[\\/]{2}\?[\\/])?([a-z]):/i.exec(path);
  return match?.[1]?.toUpperCase() ?? null;
}

/** The .NET drive type of a letter (`Network`, `Fixed`, `Removable` …), as PowerShell prints it. */
function driveTypeCommand(letter: string): [string, string[]] {
  return [
    'powershell.exe',
    ['-NoProfile', '-NonInteractive', '-Command', `[System.IO.DriveInfo]::new('${letter}:').DriveType`],
  ];
}

/**
 * Asks the OS whether the folder is on a remote volume: macOS by `mount`, Windows by the drive type
 * of its letter (a UNC path needs no asking: filesystem.ts tells it by its form). Linux and others:
 * null (their `statfs` type says it). Anything failing answers null: the folder is watched and an
 * admin can still choose `Poll`.
 */
export async function remoteVolume(
  platform: NodeJS.Platform,
  path: string,
  run: RunCommand = runCommand,
): Promise<string | null> {
  try {
    if (platform === 'darwin') {
      // /tmp is /private/tmp, /Volumes/x may be a link: the mount table lists real paths.
      return macNetworkType(await run('/sbin/mount', []), await realpath(path));
    }
    if (platform === 'win32') {
      const letter = windowsDrive(path);
      if (letter === null) return null;
      const [file, args] = driveTypeCommand(letter);
      return (await run(file, args)).trim() === 'Network' ? 'network drive' : null;
    }
  } catch {
    return null;
  }
  return null;
}
