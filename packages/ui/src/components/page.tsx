import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from '../app/router';
import { PRODUCT_TITLE } from '../texts';

interface PageProps {
  /** The document title and, unless `heading` is given, the page's h1. */
  title: string;
  heading?: ReactNode;
  children?: ReactNode;
  /** `narrow` for forms, `wide` for the dashboard. */
  width?: 'narrow' | 'wide';
}

/** One screen: its title, its h1, its content. */
export function Page({ title, heading, children, width = 'narrow' }: PageProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { key } = useLocation();
  useEffect(() => {
    // After an in-app navigation, move focus to the new page's heading so screen readers announce it
    // and Tab continues from the top of the page; the first page load keeps the browser's focus, and
    // a page that focused its one field itself (the code on the verify screens) keeps that.
    const page = headingRef.current?.parentElement;
    if (key !== 'default' && !page?.contains(document.activeElement)) headingRef.current?.focus();
  }, [key]);
  return (
    <div className={`page page--${width}`}>
      <title>{`${title} · ${PRODUCT_TITLE}`}</title>
      <h1 ref={headingRef} tabIndex={-1} className="page__title">
        {heading ?? title}
      </h1>
      {children}
    </div>
  );
}

/** A placeholder line while something loads; it keeps the height the content will have. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="status" role="status">
      {label}
    </p>
  );
}
