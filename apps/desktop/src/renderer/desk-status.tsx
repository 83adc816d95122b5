/**
 * What the desk bar says about the scanner folder: one status line (how it is followed, scans
 * waiting, the last scan's time; or that the folder is not reachable), and the files listed for
 * someone to look at — damaged scans and duplicates of uploaded ones — each with `Dismiss`.
 */
import { useEffect, useState } from 'react';
import type { DeskNotice, DesktopBridge, InboxState } from '../shared/bridge.js';
import { deskStatusLine, deskTexts } from '../shared/desk-texts.js';

/** The inbox as main last published it (null until the first answer). */
export function useInboxState(bridge: DesktopBridge): InboxState | null {
  const [state, setState] = useState<InboxState | null>(null);
  useEffect(() => {
    let live = true;
    const unsubscribe = bridge.onInboxChanged((next) => live && setState(next));
    bridge.getInbox().then(
      (first) => live && setState((current) => current ?? first),
      () => undefined,
    );
    return () => {
      live = false;
      unsubscribe();
    };
  }, [bridge]);
  return state;
}

const time = (ms: number): string =>
  new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The status line; `role="status"` so a screen reader hears the folder going and coming back. */
export function DeskStatusLine({ state }: { state: InboxState | null }) {
  const desk = state?.desk;
  if (!state?.folder || !desk) return null;
  const line = deskStatusLine({ ...desk, folder: state.folder }, time);
  return (
    <span className={`desk-bar__status${desk.reachable ? '' : ' desk-bar__status--error'}`} role="status">
      {line}
    </span>
  );
}

function NoticeRow({ notice, onDismiss }: { notice: DeskNotice; onDismiss: () => void }) {
  const text = notice.kind === 'damaged' ? deskTexts.damaged : deskTexts.duplicate(notice.duplicateOf ?? '');
  return (
    <li className="desk-notices__item" aria-label={notice.relPath}>
      <strong>{notice.relPath}</strong> <span>{text}</span>{' '}
      <button type="button" className="button button--small" onClick={onDismiss}>
        {deskTexts.dismiss}
      </button>
    </li>
  );
}

/** Damaged scans and duplicates, shown once each until dismissed (main remembers the dismissal). */
export function DeskNotices({ bridge, state }: { bridge: DesktopBridge; state: InboxState | null }) {
  const [problem, setProblem] = useState('');
  const notices = state?.desk?.notices ?? [];
  if (notices.length === 0 && !problem) return null;
  const dismiss = (id: string) => {
    setProblem('');
    bridge.dismissScanNotice(id).catch((error: unknown) => {
      setProblem(error instanceof Error ? error.message : String(error));
    });
  };
  return (
    <section className="desk-notices" aria-label="Scans to look at">
      <ul>
        {notices.map((notice) => (
          <NoticeRow key={notice.id} notice={notice} onDismiss={() => dismiss(notice.id)} />
        ))}
      </ul>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </section>
  );
}
