import { parseDocKey } from '@vita-docs/core';
import type { ClientDocsFlow, ClientDocsState, LinkStatusResponse } from '@vita-docs/core';
import { useId } from 'react';
import { Link } from '../../app/router';
import { paths } from '../../app/paths';
import { Loading } from '../../components/page';
import { linkTexts } from '../../texts';

/** The Required Documents list: each category with a green dot and Ready or a red dot and Missing. */
export function RequiredDocuments({
  flow,
  state,
  clientId,
  link,
}: {
  flow: ClientDocsFlow;
  state: ClientDocsState;
  clientId: string;
  /** What came back through request links: files per category and `I don't have this` answers. */
  link?: LinkStatusResponse | null;
}) {
  const headingId = useId();
  const fromClient = new Map<string, number>();
  for (const key of link?.fromClient ?? []) {
    const docType = parseDocKey(key)?.docType;
    if (docType) fromClient.set(docType, (fromClient.get(docType) ?? 0) + 1);
  }
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
            <ClientAnswer
              files={fromClient.get(category.name) ?? 0}
              answer={link?.answers.find((a) => a.docType === category.name)}
            />
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

/** What the client sent for a category through a request link: files, or `I don't have this` with the note. */
function ClientAnswer({
  files,
  answer,
}: {
  files: number;
  answer: LinkStatusResponse['answers'][number] | undefined;
}) {
  if (files === 0 && !answer) return null;
  return (
    <span className="doc-type__client">
      {files > 0 && <span className="tag">{`${linkTexts.fromClient}: ${files}`}</span>}
      {answer && (
        <span className="doc-type__missing-answer">
          {linkTexts.clientDontHave}
          {answer.note ? ` — ${answer.note}` : ''}
        </span>
      )}
    </span>
  );
}
