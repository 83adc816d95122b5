/**
 * Network shares on macOS and Windows: the OS's answers are recorded outputs of `mount` and of
 * PowerShell's DriveInfo (the real commands run only on those systems); the folder, the inbox and
 * its polling are real.
 */
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseMode, networkFilesystem } from './filesystem.js';
import { putFile, removeFolder, startRecorded, tempFolder, type RecordedInbox } from './test-support.js';
import { macNetworkType, remoteVolume, windowsDrive, type RunCommand } from './volume.js';

/** A Mac's `mount` with a share, an NFS export with a space in its mount point, sshfs and a USB stick. */
const MAC_MOUNT = [
  '/dev/disk3s1s1 on / (apfs, sealed, local, read-only, journaled)',
  'devfs on /dev (devfs, local, nobrowse)',
  '/dev/disk3s5 on /System/Volumes/Data (apfs, local, journaled, nobrowse, protect)',
  'map auto_home on /System/Volumes/Data/home (autofs, automounted, nobrowse)',
  '//desk@fileserver/scans on /Volumes/scans (smbfs, nodev, nosuid, mounted by desk)',
  'fileserver:/export/scans on /Volumes/nfs scans (nfs, nodev, nosuid, mounted by desk)',
  'desk@host:/scans on /Users/desk/mnt (macfuse, nodev, nosuid, synchronous, mounted by desk)',
  'server:/x on /Volumes/other (acmefs, nodev, nosuid)',
  '/dev/disk4s1 on /Volumes/USB (msdos, local, nodev, nosuid, noowners)',
].join('\n');

/** A runner that answers from a table and records what it was asked. */
function recorded(answers: Record<string, string | Error>): { run: RunCommand; calls: string[][] } {
  const calls: string[][] = [];
  const run: RunCommand = async (file, args) => {
    calls.push([file, ...args]);
    const answer = answers[[file, ...args].join(' ')] ?? answers[file];
    if (answer === undefined) throw new Error(`unexpected command ${file}`);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { run, calls };
}

const driveType = (letter: string) =>
  `powershell.exe -NoProfile -NonInteractive -Command [System.IO.DriveInfo]::new('${letter}:').DriveType`;

describe('macOS: the volume of the folder, from mount', () => {
  it('is a network one by its type or by lacking the local flag', () => {
    expect(macNetworkType(MAC_MOUNT, '/Volumes/scans')).toBe('smbfs');
    expect(macNetworkType(MAC_MOUNT, '/Volumes/scans/desk 1')).toBe('smbfs');
    expect(macNetworkType(MAC_MOUNT, '/Volumes/nfs scans/in')).toBe('nfs');
    expect(macNetworkType(MAC_MOUNT, '/Users/desk/mnt/Scans')).toBe('macfuse');
    expect(macNetworkType(MAC_MOUNT, '/Volumes/other/Scans')).toBe('acmefs');
  });

  it('is local for the system disk, a USB stick, an automount point, and a name that only starts like a share', () => {
    expect(macNetworkType(MAC_MOUNT, '/Users/desk/Scans')).toBeNull();
    expect(macNetworkType(MAC_MOUNT, '/Volumes/USB/Scans')).toBeNull();
    expect(macNetworkType(MAC_MOUNT, '/System/Volumes/Data/home/desk')).toBeNull();
    expect(macNetworkType(MAC_MOUNT, '/Volumes/scans2/in')).toBeNull();
    expect(macNetworkType('', '/Volumes/scans')).toBeNull();
  });
});

describe('Windows: UNC paths and mapped network drives', () => {
  it('asks the drive type of the letter, and no command for a UNC path', async () => {
    const { run, calls } = recorded({ [driveType('Z')]: 'Network\r\n', [driveType('C')]: 'Fixed\r\n' });
    expect(await remoteVolume('win32', 'Z:\\Scans', run)).toBe('network drive');
    expect(await remoteVolume('win32', '\\\\?\\z:\\Scans', run)).toBe('network drive');
    expect(await remoteVolume('win32', 'C:\\Scans', run)).toBeNull();
    expect(calls).toHaveLength(3);
    expect(await remoteVolume('win32', '\\\\server\\scans', run)).toBeNull();
    expect(calls).toHaveLength(3);
    expect(networkFilesystem({ platform: 'win32', path: '\\\\server\\scans' })).toBe('unc');
  });

  it('polls a mapped network drive, watches a fixed one', () => {
    const place = { platform: 'win32' as const, path: 'Z:\\Scans' };
    expect(chooseMode('auto', { ...place, remote: 'network drive' })).toEqual({
      mode: 'poll',
      network: 'network drive',
    });
    expect(chooseMode('auto', { ...place, remote: null })).toEqual({ mode: 'watch', network: null });
  });

  it('reads drive letters the ways Windows writes them', () => {
    expect(windowsDrive('d:\\Scans')).toBe('D');
    expect(windowsDrive('D:/Scans')).toBe('D');
    expect(windowsDrive('\\\\?\\D:\\Scans')).toBe('D');
    expect(windowsDrive('\\\\server\\scans')).toBeNull();
    expect(windowsDrive('Scans')).toBeNull();
  });
});

describe('when the OS cannot say', () => {
  it('takes the folder as local (watched) when the command fails, and asks nothing on Linux', async () => {
    const failing = recorded({
      '/sbin/mount': new Error('spawn ENOENT'),
      'powershell.exe': new Error('EPERM'),
    });
    expect(await remoteVolume('darwin', '/', failing.run)).toBeNull();
    expect(await remoteVolume('win32', 'Z:\\Scans', failing.run)).toBeNull();
    expect(await remoteVolume('linux', '/mnt/scans', failing.run)).toBeNull();
    expect(failing.calls.map((c) => c[0])).toEqual(['/sbin/mount', 'powershell.exe']);
  });
});

describe('an inbox on a Mac share', () => {
  let root: string;
  let folder: string;
  const open: RecordedInbox[] = [];

  beforeEach(async () => {
    root = await tempFolder();
    folder = join(root, 'Scans');
    await mkdir(folder);
  });

  afterEach(async () => {
    for (const r of open.splice(0)) await r.inbox.close();
    await removeFolder(root);
  });

  it('polls a folder on an SMB volume without being told, and finds scans by polling', async () => {
    // The share is mounted at the temporary folder (by its real path, as mount lists it).
    const mount = `${MAC_MOUNT}\n//desk@fileserver/scans on ${await realpath(root)} (smbfs, nodev, nosuid, mounted by desk)`;
    const { run } = recorded({ '/sbin/mount': mount });
    const inbox = await startRecorded({
      folder,
      platform: 'darwin',
      runCommand: run,
      intervalMs: 200,
      stableMs: 300,
    });
    open.push(inbox);
    expect(inbox.inbox.status()).toMatchObject({ mode: 'poll', setting: 'auto', network: 'smbfs' });
    await putFile(folder, 'w2.pdf');
    await inbox.added('w2.pdf');
  });

  it('watches a folder on a local volume', async () => {
    const { run } = recorded({ '/sbin/mount': MAC_MOUNT.replace('/Volumes/USB', await realpath(root)) });
    const inbox = await startRecorded({ folder, platform: 'darwin', runCommand: run });
    open.push(inbox);
    expect(inbox.inbox.status()).toMatchObject({ mode: 'watch', network: null });
  });
});
