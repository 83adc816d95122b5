/**
 * What main does for each bridge method, without Electron: payloads are parsed with the shared zod
 * schemas here, so the Electron IPC layer (electron/ipc.ts) and the browser test harness run the
 * same checks and the same code. Only the folder dialog and thumbnails come from Electron.
 */
import { CSRF_COOKIE } from '@vita-docs/core';
import type { z } from 'zod';
import type { DesktopBridge, DesktopSettings, SettingsAccess } from '../shared/bridge.js';
import {
  ApiRequestSchema,
  DropPathsSchema,
  DropTokenSchema,
  KeepUploadSchema,
  KeptIdSchema,
  KeptOwnerSchema,
  MarkFailedSchema,
  MarkUploadingSchema,
  NoPayloadSchema,
  ScanIdSchema,
  SeasonYearSchema,
  SettingsInputSchema,
} from '../shared/schemas.js';
import type { DropRegistry } from './drop-registry.js';
import type { InboxHost } from './inbox-host.js';
import type { KeptUploadsHost } from './kept-uploads.js';
import { downloadToFile } from './server-download.js';
import type { ServerFetch } from './server-fetch.js';

/** The bridge methods main answers (the event subscription is not one: main pushes it). */
export type InvokeMethod = Exclude<keyof DesktopBridge, 'onInboxChanged'>;

/** One handler: an untrusted payload in, a result out. */
export type BridgeHandler = (payload: unknown) => Promise<unknown>;

/** What the handlers work with; owned by the composition root. */
export interface BridgeDeps {
  host: InboxHost;
  drops: DropRegistry;
  kept: KeptUploadsHost;
  settings(): DesktopSettings;
  /**
   * Saves and applies settings that already passed the schema (saving validates again), when
   * `settingsAccess` allows it; rejects with its reason otherwise.
   */
  saveSettings(input: unknown): Promise<DesktopSettings>;
  /** Whether settings may be changed now: first run, or an admin signed in on the configured server. */
  settingsAccess(): Promise<SettingsAccess>;
  server(): ServerFetch | null;
  /** The system folder picker; null when cancelled. */
  chooseFolder(): Promise<string | null>;
  /** The system save dialog, offering `name`; null when cancelled. */
  chooseSaveFile(name: string): Promise<string | null>;
  /** A data: URL preview of a file, or null. */
  thumbnail(path: string): Promise<string | null>;
}

/** Parses with `schema`; a refusal carries the first problem's message (it may reach a person). */
function parse<S extends z.ZodType>(schema: S, payload: unknown): z.output<S> {
  const result = schema.safeParse(payload);
  if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'Invalid request.');
  return result.data;
}

/** The handler per method. Every payload goes through its schema before anything else happens. */
export function createBridgeHandlers(deps: BridgeDeps): Record<InvokeMethod, BridgeHandler> {
  return {
    getSettings: async () => deps.settings(),
    saveSettings: async (payload) => deps.saveSettings(parse(SettingsInputSchema, payload)),
    settingsAccess: async (payload) => {
      parse(NoPayloadSchema, payload);
      return deps.settingsAccess();
    },
    chooseFolder: () => deps.chooseFolder(),
    apiFetch: async (payload) => {
      const request = parse(ApiRequestSchema, payload);
      const server = deps.server();
      if (!server) throw new Error('Set the server address first.');
      return server.relay(request, CSRF_COOKIE);
    },
    getInbox: async () => deps.host.state(),
    readScan: async (payload) => deps.host.read(parse(ScanIdSchema, payload)),
    scanThumbnail: async (payload) => deps.thumbnail(deps.host.pathOf(parse(ScanIdSchema, payload))),
    dismissScanNotice: async (payload) => deps.host.dismiss(parse(ScanIdSchema, payload)),
    markScanUploading: async (payload) => {
      const { id, target } = parse(MarkUploadingSchema, payload);
      await deps.host.markUploading(id, target);
    },
    markScanUploaded: async (payload) => deps.host.markUploaded(parse(ScanIdSchema, payload)),
    markScanFailed: async (payload) => {
      const { id, error } = parse(MarkFailedSchema, payload);
      await deps.host.markFailed(id, error);
    },
    expandDrop: async (payload) => deps.drops.expand(parse(DropPathsSchema, payload)),
    readDroppedFile: async (payload) => deps.drops.read(parse(DropTokenSchema, payload)),
    openKeptUploads: async (payload) => deps.kept.open(parse(KeptOwnerSchema, payload)),
    readKeptUpload: async (payload) => deps.kept.read(parse(KeptIdSchema, payload)),
    keepUpload: async (payload) => deps.kept.keep(parse(KeepUploadSchema, payload)),
    forgetKeptUpload: async (payload) => deps.kept.forget(parse(KeptIdSchema, payload)),
    deleteKeptUploads: async (payload) => {
      parse(NoPayloadSchema, payload);
      await deps.kept.destroy();
    },
    saveSeasonArchive: async (payload) => {
      const year = parse(SeasonYearSchema, payload);
      const server = deps.server();
      if (!server) throw new Error('Set the server address first.');
      const file = await deps.chooseSaveFile(`season-${year}-all-documents.zip`);
      if (!file) return null;
      // The server decides who may have it (admins): the desk's own session goes with the request.
      await downloadToFile(server.fetch, `${server.apiUrl}admin/season/download`, file);
      return file;
    },
  };
}
