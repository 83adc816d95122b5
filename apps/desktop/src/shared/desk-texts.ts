/**
 * The desk's own texts about its scanner folder (docs/behaviour.md#desktop-kiosk), in one place for
 * main, the page and the headless intake; and the desk bar's status line made of them.
 */

/** Every sentence the desk shows about its scanner folder. */
export const deskTexts = {
  notReachable: 'The scanner folder is not reachable.',
  damaged: 'This scan could not be read. Scan it again.',
  duplicate: (original: string) => `Same file as ${original}, uploaded already.`,
  dismiss: 'Dismiss',
  watching: (folder: string) => `Watching ${folder}`,
  polling: (folder: string, seconds: number) => `Polling ${folder} every ${seconds} s`,
  waiting: (count: number) =>
    count === 0 ? 'No scans waiting' : count === 1 ? '1 scan waiting' : `${count} scans waiting`,
  lastScan: (time: string) => `last scan ${time}`,
  modeInUse: {
    watch: 'In use: Watch (file-system events)',
    poll: 'In use: Poll',
  },
} as const;

/** What the status line is made of (the inbox host's `desk` part of the inbox state). */
export interface DeskLineInput {
  folder: string | null;
  mode: 'watch' | 'poll';
  intervalMs: number;
  reachable: boolean;
  waiting: number;
  lastScanAt: number | null;
}

/**
 * The desk bar's one line: `Watching D:\Scans · 12 scans waiting · last scan 14:32`, or
 * `Polling \\server\scans every 2 s · …`; the folder not reachable says only that. `time` formats
 * the last scan's time (the page's locale).
 */
export function deskStatusLine(input: DeskLineInput, time: (ms: number) => string): string {
  if (!input.folder) return '';
  if (!input.reachable) return deskTexts.notReachable;
  const seconds = Math.round((input.intervalMs / 1000) * 10) / 10;
  const parts = [
    input.mode === 'poll' ? deskTexts.polling(input.folder, seconds) : deskTexts.watching(input.folder),
    deskTexts.waiting(input.waiting),
  ];
  if (input.lastScanAt !== null) parts.push(deskTexts.lastScan(time(input.lastScanAt)));
  return parts.join(' · ');
}
