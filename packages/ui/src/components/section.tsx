import { useId } from 'react';
import type { ReactNode } from 'react';
import { Loading } from './page';
import '../styles/section.css';

interface SectionProps {
  title: string;
  /** The list's load state: items already shown stay visible while it reloads. */
  status: 'loading' | 'ready' | 'error';
  count: number;
  /** What an empty list says. */
  empty: string;
  error?: string | null;
  children: ReactNode;
}

/** A dashboard section: heading, then its list, a loading line, the empty text or the load error. */
export function Section({ title, status, count, empty, error, children }: SectionProps) {
  const headingId = useId();
  let body: ReactNode = children;
  if (count === 0) {
    if (status === 'loading') body = <Loading />;
    else if (status === 'error') body = <p className="status status--error">{error}</p>;
    else body = <p className="status">{empty}</p>;
  }
  return (
    <section className="section" aria-labelledby={headingId} aria-busy={status === 'loading'}>
      <h2 className="section__title" id={headingId}>
        {title}
      </h2>
      {body}
    </section>
  );
}

/** A card in a section's list, named by its heading so it can be found by name. */
export function Card({
  title,
  children,
  actions,
}: {
  title: string;
  children?: ReactNode;
  actions: ReactNode;
}) {
  const headingId = useId();
  return (
    <li className="card-list__item">
      <article className="card" aria-labelledby={headingId}>
        <h3 className="card__title" id={headingId}>
          {title}
        </h3>
        {children}
        <div className="card__actions">{actions}</div>
      </article>
    </li>
  );
}
