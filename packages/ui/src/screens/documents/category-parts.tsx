import { Suspense, useEffect } from 'react';
import type { ComponentType } from 'react';
import { loadUploadQueues } from '../../app/upload-queues-loader';
import { lazyPart } from '../../components/lazy-part';
import { Loading } from '../../components/page';
import { useFlow } from '../../hooks/use-flow';
import { texts } from '../../texts';
import type { CategoryUpload as CategoryUploadPart } from './category-upload';
import type { Observable } from '../../hooks/use-flow';
import type { LeaveDialog as LeaveDialogPart } from './leave-dialog';
import type { RenameDialog as RenameDialogPart } from './rename-dialog';
import type { ScanDialog as ScanDialogPart } from './scan-dialog';
import type { ScannerInboxPanel as ScannerInboxPart } from './scanner-inbox-panel';
import type { RowNotes as RowNotesPart } from './row-notes';
import type { ViewModal as ViewModalPart } from './view-modal';

/**
 * The category screen's parts that are not on it when it first shows, each in a chunk of its own: the
 * adding of files with the upload queues' code, the dialogs (viewing, renaming, scanning pages,
 * leaving with files queued) and the desktop's scanner inbox. Same props as the parts themselves, so
 * the screen uses them as it would the parts.
 */

// The queue needs the upload queues' code (a chunk of its own, fetched from sign-in on).
const upload = lazyPart(() =>
  Promise.all([import('./category-upload'), loadUploadQueues()]).then(([m]) => m.CategoryUpload),
);

/** Starts fetching the adding of files: the route does once the screen's own code is here. */
export const loadCategoryUpload = () => upload.load().catch(() => undefined);

const view = lazyPart(() => import('./view-modal').then((m) => m.ViewModal));
const rename = lazyPart(() => import('./rename-dialog').then((m) => m.RenameDialog));
const scan = lazyPart(() => import('./scan-dialog').then((m) => m.ScanDialog));
const leave = lazyPart(() => import('./leave-dialog').then((m) => m.LeaveDialog));
const inbox = lazyPart(() => import('./scanner-inbox-panel').then((m) => m.ScannerInboxPanel));
const notes = lazyPart(() => import('./row-notes').then((m) => m.RowNotes));

/**
 * Scanning pages and leaving with files queued both work without the server: their code is fetched
 * once the screen has shown (it does not wait for it), so it is at hand should the connection drop
 * before the app's files are kept on the device (the service worker).
 */
const preloadOfflineParts = () => Promise.all([scan.load(), leave.load()]);

/**
 * The adding of files: at once when its code is here (any visit after the first), else its panel's
 * title with `Loading…` until it is, in about the panel's height (the list below does not jump).
 */
export function CategoryUpload(props: Parameters<typeof CategoryUploadPart>[0]) {
  return (
    <Suspense
      fallback={
        <div>
          <section className="panel panel--loading">
            <h2 className="panel__title">{texts.addFiles}</h2>
            <Loading />
          </section>
        </div>
      }
    >
      <upload.Part {...props} />
    </Suspense>
  );
}

/** A dialog of a flow that is `closed` until opened: rendered (and fetched, if not yet) when open. */
function DialogOf<P extends { flow: Observable<{ status: string }> }>({
  Part,
  ...props
}: P & { Part: ComponentType<P> }) {
  const { status } = useFlow(props.flow);
  if (status === 'closed') return null;
  return (
    <Suspense fallback={null}>
      <Part {...(props as unknown as P)} />
    </Suspense>
  );
}

export function ViewModal(props: Parameters<typeof ViewModalPart>[0]) {
  return <DialogOf Part={view.Part} {...props} />;
}

export function RenameDialog(props: Parameters<typeof RenameDialogPart>[0]) {
  return <DialogOf Part={rename.Part} {...props} />;
}

/** Always on the screen: it fetches the parts that work offline once the screen has shown. */
export function ScanDialog(props: Parameters<typeof ScanDialogPart>[0]) {
  useEffect(() => {
    preloadOfflineParts().catch(() => undefined);
  }, []);
  return <DialogOf Part={scan.Part} {...props} />;
}

/** Rendered only while the person is leaving with files queued. */
export function LeaveDialog(props: Parameters<typeof LeaveDialogPart>[0]) {
  return (
    <Suspense fallback={null}>
      <leave.Part {...props} />
    </Suspense>
  );
}

/** Fetched on the screen's first render only on the desktop (the one host with a scanner inbox). */
export function ScannerInboxPanel(props: Parameters<typeof ScannerInboxPart>[0]) {
  return (
    <Suspense fallback={null}>
      <inbox.Part {...props} />
    </Suspense>
  );
}

/** An Uploaded row's notes (what the device read, a retake's warnings): nothing until its code is here. */
export function RowNotes(props: Parameters<typeof RowNotesPart>[0]) {
  return (
    <Suspense fallback={null}>
      <notes.Part {...props} />
    </Suspense>
  );
}
