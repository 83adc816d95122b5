/**
 * Whether a scanner folder is watched (native file-system events) or polled. Native events never
 * arrive for changes another computer makes on a network share (the scanner writes over SMB/NFS),
 * so a folder on a network file system is polled without anyone configuring it; an admin may force
 * either mode in the settings.
 */
import { statfs } from 'node:fs/promises';

/** How the inbox notices new files. */
export type FolderMode = 'watch' | 'poll';
/** The setting: `auto` polls network file systems and watches the rest. */
export type FolderModeSetting = 'auto' | FolderMode;

/**
 * Linux `statfs` magic numbers of network (and FUSE, which covers sshfs, rclone, gvfs) file
 * systems, from linux/magic.h and the file systems' sources.
 */
const NETWORK_FS_TYPES: ReadonlyMap<number, string> = new Map([
  [0xff534d42, 'cifs'],
  [0xfe534d42, 'smb2'],
  [0x517b, 'smb'],
  [0x6969, 'nfs'],
  [0x65735546, 'fuse'],
  [0x01021997, '9p'],
  [0x5346414f, 'afs'],
  [0x6b414653, 'afs'],
  [0x00c36400, 'ceph'],
  [0x73757245, 'coda'],
  [0x564c, 'ncp'],
  [0x47504653, 'gpfs'],
]);

/** `\\server\share\…` or `\\?\UNC\server\share\…`; not the device paths `\\?\C:\…` and `\\.\…`. */
const UNC = /^(?:[\\/]{2}\?[\\/]UNC[\\/]|[\\/]{2}(?![?.][\\/])[^\\/])/i;

/** What is known about where a folder lives. */
export interface FolderPlace {
  platform: NodeJS.Platform;
  /** The folder's absolute path. */
  path: string;
  /** `statfs().type` (Linux), when it could be read. */
  fsType?: number;
  /** What the OS said of the folder's volume on macOS and Windows (volume.ts): its network type, or null. */
  remote?: string | null;
}

/**
 * The kind of network file system the folder is on, or null for a local one (as far as can be
 * told): on Linux by the `statfs` type; on Windows by a UNC path (`\\server\share\…`) or a drive
 * letter whose drive type is `Network`; on macOS by the volume's type and `local` flag (both
 * asked of the OS in volume.ts, given here as `remote`).
 * @internal Exported for its tests.
 */
export function networkFilesystem(place: FolderPlace): string | null {
  if (place.platform === 'win32' && UNC.test(place.path)) return 'unc';
  if (place.platform === 'win32' || place.platform === 'darwin') return place.remote ?? null;
  if (place.platform === 'linux' && place.fsType !== undefined) {
    return NETWORK_FS_TYPES.get(place.fsType) ?? null;
  }
  return null;
}

/** The mode in use for a folder and why. */
export interface ModeChoice {
  mode: FolderMode;
  /** The network file system found (null: local, or not known), whatever the setting. */
  network: string | null;
}

/** The mode for a setting and a place: forced, or `poll` on a network file system. */
export function chooseMode(setting: FolderModeSetting, place: FolderPlace): ModeChoice {
  const network = networkFilesystem(place);
  if (setting !== 'auto') return { mode: setting, network };
  return { mode: network === null ? 'watch' : 'poll', network };
}

/** Reads the file-system type of a path; undefined when it cannot be read. */
export type FsTypeReader = (path: string) => Promise<number | undefined>;

/** `statfs().type` of the path. */
export const readFsType: FsTypeReader = async (path) => {
  try {
    return (await statfs(path)).type;
  } catch {
    return undefined;
  }
};
