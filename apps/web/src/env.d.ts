/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The programme's website, linked from the landing page; a default applies when unset. */
  readonly VITE_PROGRAMME_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
