// wouter imports `use-sync-external-store/shim` for React versions without the hook; React 19 has it,
// so the build points the shim here (vite.config.ts) and the first download carries no shim.
export { useSyncExternalStore } from 'react';
