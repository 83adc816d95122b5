import type { ClientDocsFlow, ClientDocsState } from '@vita-docs/core';
import { useId } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Loading } from '../../components/page';

/** The Required Documents list: each category with a green dot and Ready or a red dot and Missing. */
export function RequiredDocuments({
  flow,
  state,
  clientId,
}: {
  flow: ClientDocsFlow;
  state: ClientDocsState;
  clientId: string;
}) {
  const headingId = useId();
  let body;
  if (state.categories.length === 0) {
    body = state.status === 'error' ? <p className="status status--error">{state.error}</p> : <Loading />;
  } else {
    body = (
      <ul className="doc-types">
        {state.categories.map((category) => (
          <li key={category.name} className="doc-type">
            <Link className="doc-type__link" to={paths.clientDocType(clientId, category.name)}>
              {category.name}
            </Link>
            <span className={`doc-type__status doc-type__status--${category.hasFiles ? 'ready' : 'missing'}`}>
              <span className="dot" aria-hidden="true" />
              {category.hasFiles ? 'Ready' : 'Missing'}
            </span>
            {category.custom && (
              <button
                type="button"
                className="button button--small button--danger doc-type__delete"
                disabled={state.status !== 'ready' || state.deleting !== null}
                onClick={() => void flow.send({ type: 'deleteType', name: category.name })}
              >
                Delete Type
              </button>
            )}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <section className="panel" aria-labelledby={headingId} aria-busy={state.status === 'loading'}>
      <h2 className="panel__title" id={headingId}>
        Required Documents
      </h2>
      {body}
    </section>
  );
}
