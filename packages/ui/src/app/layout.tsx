import { Suspense } from 'react';
import type { MouseEvent, ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ScreenErrorBoundary } from '../components/error-boundary';
import { Header } from '../components/header';
import { Loading } from '../components/page';
import { useFocusRescue } from '../hooks/use-focus-rescue';
import '../styles/base.css';
import '../styles/layout.css';
import '../styles/forms.css';

function focusMain(event: MouseEvent<HTMLAnchorElement>) {
  // Move focus, not just the scroll position, and keep the URL free of a #main fragment.
  event.preventDefault();
  document.getElementById('main')?.focus();
}

function Frame({ children }: { children: ReactNode }) {
  useFocusRescue();
  return (
    <>
      <a className="skip-link" href="#main" onClick={focusMain}>
        Skip to content
      </a>
      <Header />
      <main id="main" className="app-main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/**
 * Header, skip link and the current screen. A lazily loaded screen shows a loading line inside the
 * frame the first time; later navigations run in a transition, so the old screen stays until the
 * new one is ready.
 */
export function RootLayout() {
  const { pathname } = useLocation();
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
          <Outlet />
        </Suspense>
      </ScreenErrorBoundary>
    </Frame>
  );
}
