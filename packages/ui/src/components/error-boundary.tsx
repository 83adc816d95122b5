import { Component } from 'react';
import type { ReactNode } from 'react';

interface State {
  error: Error | null;
}

/**
 * Keeps the header and the rest of the app alive when one screen fails to render or to load (a lazy
 * screen whose file is gone after a new deploy): the person sees what happened and can reload.
 * Give it a `key` per page so navigating elsewhere clears the error.
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="page page--narrow" role="alert">
        <h1 className="page__title">Something went wrong</h1>
        <p>This page could not be shown. Reloading usually helps.</p>
        <div className="actions">
          <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      </div>
    );
  }
}
