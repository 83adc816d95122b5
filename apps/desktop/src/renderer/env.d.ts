import type { DesktopBridge } from '../shared/bridge.js';

declare global {
  interface Window {
    /** Exposed by the preload; absent when the renderer is opened in a plain browser. */
    readonly vitaDesktop?: DesktopBridge;
  }
}
