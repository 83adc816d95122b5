/**
 * What the Client Documents page and a category screen both do with a client: find its card, delete a
 * custom category. Apart from the page's flow, so a category screen does not download that flow.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { Client } from '../../api/schemas.js';
import { isFixedCategory } from '../../domain/categories.js';
import { deleteCategoryConfirm, deleteFailedMessage } from '../../domain/messages.js';
import { canManageAllClients } from '../../domain/roles.js';
import type { Actor } from '../../domain/roles.js';
import type { Dialogs } from '../../ports.js';

/**
 * Deletes a custom category and its files after its confirm (docs/behaviour.md#categories). Resolves
 * true when it is gone. Shared by Delete Type (category list) and Delete Category (category screen).
 */
export async function deleteCategory(
  api: Pick<ApiClient, 'deleteDocType'>,
  platform: Dialogs,
  clientId: string,
  name: string,
): Promise<boolean> {
  if (isFixedCategory(name) || !(await platform.confirm(deleteCategoryConfirm(name)))) return false;
  try {
    await api.deleteDocType({ params: { id: clientId }, query: { docType: name } });
    return true;
  } catch (error) {
    await platform.alert(deleteFailedMessage(errorMessage(error)));
    return false;
  }
}

/**
 * A client's card from the lists the person may see (admins: all clients, others: their own); null
 * when it is not there or the list cannot be loaded — only the name is missing then, the documents
 * load on their own.
 */
export async function findClientCard(
  api: Pick<ApiClient, 'listClients' | 'listAllClients'>,
  actor: Actor,
  clientId: string,
): Promise<Client | null> {
  try {
    const { items } = canManageAllClients(actor) ? await api.listAllClients() : await api.listClients();
    return items.find((c) => c.clientId === clientId) ?? null;
  } catch {
    return null;
  }
}
