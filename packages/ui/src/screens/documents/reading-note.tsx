import { errorMessage, READING_TEXTS, verdictText } from '@vita-docs/core';
import { useServices } from '../../app/services';
import type { ApiClient, CategoryTemplate, ReadingVerdict } from '@vita-docs/core';
import { useState } from 'react';

/**
 * What the device read about a file, on its row: another form (`Move to {form}` / `Keep here`),
 * another tax year, an expired ID. `onMove` is absent where the file cannot be moved from here.
 */
export function ReadingNote({
  verdict,
  category,
  onMove,
  onKeep,
}: {
  verdict: ReadingVerdict;
  category: string;
  onMove?: (form: string) => Promise<void>;
  onKeep: () => void;
}) {
  const t = READING_TEXTS.en;
  const [moving, setMoving] = useState(false);
  const { platform } = useServices();
  return (
    <div className="reading-note" role="status">
      <span className="reading-note__text">{verdictText(t, verdict, category)}</span>
      {verdict.kind === 'other-form' && (
        <span className="actions actions--tight">
          {onMove && (
            <button
              type="button"
              className="button button--small"
              disabled={moving}
              onClick={() => {
                setMoving(true);
                void onMove(verdict.form)
                  .catch((error: unknown) => platform.alert(errorMessage(error)))
                  .finally(() => setMoving(false));
              }}
            >
              {t.move(verdict.form)}
            </button>
          )}
          <button type="button" className="button button--small" disabled={moving} onClick={onKeep}>
            {t.keep}
          </button>
        </span>
      )}
    </div>
  );
}

/**
 * Makes `form` a category of the client if it is a template it lacks. The server refuses a category
 * the client already has and a fixed category's name (no template): either way there is nothing to
 * add. Not asked here with `isCategoryTemplate`, whose module would then be split out of the chunk
 * the category page loads first, growing that page's first load.
 */
export async function ensureCategory(api: ApiClient, clientId: string, form: string): Promise<void> {
  const template = form as CategoryTemplate;
  await api.addDocType({ params: { id: clientId }, body: { template } }).catch(() => undefined);
}
