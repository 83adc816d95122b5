import { Component, lazy, Suspense } from 'react';
import type { ReactNode } from 'react';
import { loadUploadQueues } from '../app/upload-queues-loader';

/**
 * The parts of the frame only a signed-in person with queued or kept files needs — the upload tray
 * and the kept-uploads offer — load in their own chunks, so the landing page does not carry them.
 * They are fetched at sign-in ({@link preloadUploadParts}): the tray must appear when the first file
 * is queued even if the network is gone by then.
 */
const loadTray = () => import('./upload-tray');
// The offer queues the files it resumes: the upload queues' code comes with it.
const loadOffer = () =>
  Promise.all([import('./kept-uploads-offer'), loadUploadQueues()]).then(([offer]) => offer);

const Tray = lazy(() => loadTray().then((m) => ({ default: m.UploadTray })));
const Offer = lazy(() => loadOffer().then((m) => ({ default: m.KeptUploadsOffer })));

/** Fetches both parts now (at sign-in); a failure shows later as nothing rather than a broken page. */
export function preloadUploadParts(): void {
  void loadTray().catch(() => undefined);
  void loadOffer().catch(() => undefined);
}

/** Renders nothing if its part could not be loaded: a missing tray must never take the page down. */
class Quiet extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? null : <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}

export function LazyUploadTray() {
  return (
    <Quiet>
      <Tray />
    </Quiet>
  );
}

export function LazyKeptUploadsOffer() {
  return (
    <Quiet>
      <Offer />
    </Quiet>
  );
}
