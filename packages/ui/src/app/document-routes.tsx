import { lazy } from 'react';

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

// The category screen shows its Uploaded list without waiting for the adding of files (with the upload
// queues' code, chunks of their own): those are fetched as soon as the screen's code is here.
export const CategoryRoute = lazy(async () => {
  const [screen, parts] = await Promise.all([
    import('../screens/documents/category'),
    import('../screens/documents/category-parts'),
  ]);
  void parts.loadCategoryUpload();
  return { default: screen.CategoryScreen };
});
