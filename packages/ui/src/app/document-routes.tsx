import { lazy } from 'react';
import { loadUploadQueues } from './upload-queues-loader';

/**
 * The client and document screens, each loaded on first visit (route-level code
 * splitting), so the landing, login and dashboard never download the document screens or the upload
 * queue. The PDF converter is split once more: it loads when the first photo is converted.
 */
export const ClientListRoute = lazy(async () => ({
  default: (await import('../screens/clients/client-list')).ClientListScreen,
}));

export const NewClientRoute = lazy(async () => ({
  default: (await import('../screens/clients/new-client')).NewClientScreen,
}));

export const ClientDocsRoute = lazy(async () => ({
  default: (await import('../screens/documents/client-docs')).ClientDocsScreen,
}));

// The category screen queues files: the upload queues' code (its own chunk) comes with it.
export const CategoryRoute = lazy(async () => {
  const [screen] = await Promise.all([import('../screens/documents/category'), loadUploadQueues()]);
  return { default: screen.CategoryScreen };
});
