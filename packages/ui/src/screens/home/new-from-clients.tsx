import { fullName, type NewFromClientsResponse } from '@vita-docs/core';
import { useEffect, useState } from 'react';
import { Link } from '../../app/router';
import { paths } from '../../app/paths';
import { useServices } from '../../app/services';
import { linkTexts } from '../../texts';

/**
 * `New from clients`: the volunteer's clients who pressed Done on a request link since the volunteer
 * last opened their documents page. Shown only when there are some.
 */
export function NewFromClients({ reloadKey }: { reloadKey: number }) {
  const { api } = useServices();
  const [items, setItems] = useState<NewFromClientsResponse['items']>([]);
  useEffect(() => {
    api.newFromClients().then(
      (answer) => setItems(answer.items),
      () => setItems([]),
    );
  }, [api, reloadKey]);
  if (items.length === 0) return null;
  return (
    <section className="section" aria-label={linkTexts.newFromClients}>
      <h2 className="section__title">{linkTexts.newFromClients}</h2>
      <ul className="new-from-clients">
        {items.map((item) => (
          <li key={item.clientId}>
            <Link to={paths.clientDocs(item.clientId)}>{fullName(item)}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
