/**
 * Keys the flows use in the storages they are given. The login and forgot emails belong in the
 * session storage, the convert-to-PDF preference in the local one (docs/behaviour.md#browser-storage).
 */
export const STORAGE_KEYS = {
  loginEmail: 'vita.loginEmail',
  forgotEmail: 'vita.forgotEmail',
  convertToPdf: 'vita.convertToPdf',
} as const;
