/**
 * The corner editor's own words beside the capture texts' `Adjust corners`, `Reset`, `Use whole
 * photo` and `Save`: each handle's accessible name, the photo's, and what shows while it loads. Loaded
 * with the editor, never with a screen.
 */
import type { ClientLinkLanguage } from '@vita-docs/core';

interface CornerTexts {
  /** The handles, in the order top-left, top-right, bottom-right, bottom-left. */
  corners: readonly [string, string, string, string];
  photo: string;
  loading: string;
}

export const CORNER_TEXTS: Readonly<Record<ClientLinkLanguage, CornerTexts>> = {
  en: {
    corners: ['Top-left corner', 'Top-right corner', 'Bottom-right corner', 'Bottom-left corner'],
    photo: 'The photo, with the page’s outline',
    loading: 'Loading the photo…',
  },
  es: {
    corners: [
      'Esquina superior izquierda',
      'Esquina superior derecha',
      'Esquina inferior derecha',
      'Esquina inferior izquierda',
    ],
    photo: 'La foto, con el contorno de la página',
    loading: 'Cargando la foto…',
  },
};
