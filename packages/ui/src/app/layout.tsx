import { offlineKeptMessage } from '@vita-docs/core';
import { Suspense, useEffect, useState } from 'react';
import type { MouseEvent, ReactNode } from 'react';
import { useLocation, useNavigate } from './router';
import { ScreenErrorBoundary } from '../components/error-boundary';
import { Header } from '../components/header';
import { LazyKeptUploadsOffer } from '../components/lazy-parts';
import { Loading } from '../components/page';
import { useFocusRescue } from '../hooks/use-focus-rescue';
import { useFlow } from '../hooks/use-flow';
import { useOnline } from '../hooks/use-online';
import { texts } from '../texts';
import { useUploadQueues } from './upload-queues';
import { loginFor, paths, worksOffline } from './paths';
import { useSession, useSessionFlow } from './session';
import '../styles/base.css';
import '../styles/layout.css';
import '../styles/forms.css';

function focusMain(event: MouseEvent<HTMLAnchorElement>) {
  // Move focus, not just the scroll position, and keep the URL free of a #main fragment.
  event.preventDefault();
  document.getElementById('main')?.focus();
}

/**
 * Offline, said plainly (docs/behaviour.md#offline): a banner while there is no connection, and a
 * page that needs the server (every one until the session is known) says so instead of failing.
 * When the connection returns, a session check that failed for want of it is asked again.
 */
/** How often a session taken on trust is asked again while the browser says it is online. */
const RECHECK_MS = 15_000;

function useOffline(): { offline: boolean; blocked: boolean } {
  const online = useOnline();
  const session = useSession();
  const flow = useSessionFlow();
  const { pathname } = useLocation();
  // `stale`: the server could not be asked who is signed in (no connection); `rechecking`: asked again.
  const [check, setCheck] = useState<'done' | 'stale' | 'rechecking'>('done');
  // Who last signed in here, taken on trust: only the screens that work offline show.
  const trusted = session.status === 'signedIn' && session.offline === true;
  const unknown = (session.status === 'signedOut' && !session.expired && !session.reason) || trusted;
  if (!online && unknown && check === 'done') setCheck('stale');
  // Online by the browser's word, yet the server was not reached (a captive portal, the server down):
  // asked again now and then, since no `online` event will come.
  useEffect(() => {
    if (!trusted || !online || check !== 'done') return;
    const timer = setTimeout(() => setCheck('stale'), RECHECK_MS);
    return () => clearTimeout(timer);
  }, [trusted, online, check]);
  useEffect(() => {
    if (!online || check !== 'stale') return;
    setCheck('rechecking');
    void flow.send({ type: 'check' }).finally(() => setCheck('done'));
  }, [online, check, flow]);
  const blocked =
    ((!online || check !== 'done') && session.status !== 'signedIn') || (trusted && !worksOffline(pathname));
  return { offline: !online, blocked };
}

/**
 * With no connection: how many of the person's files the device keeps for it — those read back on
 * this page's queues and those it cannot read until the session is live again (after a reload) —
 * or, with none, that files added are kept. Its own component: the queues' summary changes with
 * every upload's progress, which need not render the whole frame.
 */
function OfflineBanner() {
  const queues = useUploadQueues();
  const { sealed = 0 } = useFlow(queues.offer);
  const queued = useFlow(queues.summary).items.filter((item) => item.saved).length;
  const kept = sealed + queued;
  return (
    <p className="offline-banner" role="status">
      {kept > 0 ? offlineKeptMessage(kept) : texts.offline}
    </p>
  );
}

function Frame({ children }: { children: ReactNode }) {
  useFocusRescue();
  const { files, lost, deletedForOthers } = useFlow(useUploadQueues().offer);
  const offered = files.length > 0 || lost.length > 0 || deletedForOthers > 0;
  const { offline, blocked } = useOffline();
  return (
    <>
      <a className="skip-link" href="#main" onClick={focusMain}>
        Skip to content
      </a>
      <Header />
      <main id="main" className="app-main" tabIndex={-1}>
        {offline && <OfflineBanner />}
        {offered && <LazyKeptUploadsOffer />}
        {blocked ? <p className="lead">{texts.needsConnection}</p> : children}
      </main>
    </>
  );
}

/** Screens that are for signed-out people anyway: an expired session does not move anyone from them. */
const SIGNED_OUT_PATHS = new Set<string>([
  paths.landing,
  paths.login,
  paths.loginVerify,
  paths.register,
  paths.registerPending,
  paths.forgot,
  paths.forgotVerify,
  paths.forgotReset,
]);

/**
 * When the server ends the session under a screen (a 401 on any signed-in call), the person goes to
 * login and comes back to where they were, their upload queues kept (docs/behaviour.md#session-check).
 */
function useReturnAfterExpiry(): void {
  const session = useSession();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  // A role change is told on the login page even when the app's first question found it out.
  const expired =
    session.status === 'signedOut' && (session.expired === true || session.reason === 'role_changed');
  useEffect(() => {
    if (expired && !SIGNED_OUT_PATHS.has(pathname))
      void navigate(loginFor(`${pathname}${search}`), { replace: true });
  }, [expired, pathname, search, navigate]);
}

/**
 * Header, skip link and the current screen. A lazily loaded screen shows a loading line inside the
 * frame the first time; later navigations run in a transition, so the old screen stays until the
 * new one is ready.
 */
export function RootLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  useReturnAfterExpiry();
  return (
    <Frame>
      <ScreenErrorBoundary key={pathname}>
        <Suspense
          fallback={
            <div className="page page--narrow">
              <Loading />
            </div>
          }
        >
          {children}
        </Suspense>
      </ScreenErrorBoundary>
    </Frame>
  );
}
