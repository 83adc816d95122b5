/**
 * Registers the bridge handlers on IPC. Every call must come from a frame on the app's own origin;
 * payload checks and the work itself live in the plain-Node `bridge-handlers.ts`.
 */
import {
  BrowserWindow,
  dialog,
  ipcMain,
  nativeImage,
  type OpenDialogOptions,
  type SaveDialogOptions,
} from 'electron';
import { channels } from '../../shared/bridge.js';
import { createBridgeHandlers, type BridgeDeps, type InvokeMethod } from '../bridge-handlers.js';
import { isAppUrl } from './origin.js';

/** Handler dependencies minus the two Electron provides here. */
export type IpcDeps = Omit<BridgeDeps, 'chooseFolder' | 'chooseSaveFile' | 'thumbnail'> & { origin: string };

/** Registers one IPC handler per bridge method. */
export function registerIpc(deps: IpcDeps): void {
  const handlers = createBridgeHandlers({ ...deps, chooseFolder, chooseSaveFile, thumbnail });
  for (const method of Object.keys(handlers) as InvokeMethod[]) {
    ipcMain.handle(channels[method], async (event, payload: unknown) => {
      if (!isAppUrl(event.senderFrame?.url ?? '', deps.origin)) throw new Error('Refused: not the app.');
      return handlers[method](payload);
    });
  }
}

async function chooseFolder(): Promise<string | null> {
  const options: OpenDialogOptions = {
    title: 'Scanner folder',
    properties: ['openDirectory', 'createDirectory'],
  };
  const window = BrowserWindow.getFocusedWindow();
  const result = await (window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options));
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

async function chooseSaveFile(name: string): Promise<string | null> {
  const options: SaveDialogOptions = { defaultPath: name, filters: [{ name: 'ZIP', extensions: ['zip'] }] };
  const window = BrowserWindow.getFocusedWindow();
  const result = await (window ? dialog.showSaveDialog(window, options) : dialog.showSaveDialog(options));
  return result.canceled || !result.filePath ? null : result.filePath;
}

/** The OS thumbnailer where there is one (Windows, macOS; PDFs too), else a scaled image; null for what neither can read. */
async function thumbnail(path: string): Promise<string | null> {
  try {
    const image = await nativeImage.createThumbnailFromPath(path, { width: 160, height: 160 });
    if (!image.isEmpty()) return image.toDataURL();
  } catch {
    // Not supported on Linux: fall through.
  }
  const image = nativeImage.createFromPath(path);
  return image.isEmpty() ? null : image.resize({ width: 160 }).toDataURL();
}
