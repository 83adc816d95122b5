/**
 * The desk settings, shown on first run (nothing set) and from the desk bar's Settings button. Main
 * decides who may change them (`settingsAccess`, checked again on save): on first run anyone, then
 * an admin signed in on the configured server; never when a managed file sets them.
 */
import { useEffect, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import type { DesktopBridge, DesktopSettings, InboxState, SettingsAccess } from '../shared/bridge.js';
import {
  AfterUploadChoice,
  FOLDER_MODES,
  FolderField,
  FolderModeChoice,
  PROBLEM_SCANS,
  ProblemScansChoice,
} from './settings-fields.js';

interface SetupScreenProps {
  bridge: DesktopBridge;
  current: DesktopSettings;
  /** The running inbox, for the mode in use (null before main answered, or on first run). */
  inbox?: InboxState | null;
  onSaved: (settings: DesktopSettings) => void;
  /** Absent on first run: there is nothing to go back to. */
  onCancel?: () => void;
}

/** Electron prefixes remote errors with the channel; the person only needs the reason. */
const reason = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(
    /^Error invoking remote method '[^']+': (\w*Error: )?/,
    '',
  );

const stringField = (form: FormData, name: string): string => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** Who may change the settings, as main answers; null while it has not. */
function useSettingsAccess(bridge: DesktopBridge): SettingsAccess | null {
  const [access, setAccess] = useState<SettingsAccess | null>(null);
  useEffect(() => {
    let live = true;
    bridge.settingsAccess().then(
      (answer) => {
        if (live) setAccess(answer);
      },
      (error: unknown) => {
        if (live) setAccess({ allowed: false, managed: false, reason: reason(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [bridge]);
  return access;
}

/** The page around every state of the screen but the form. */
function Notice({
  heading,
  cancel,
  children,
}: {
  heading: ReactNode;
  cancel: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="setup">
      {heading}
      {children}
      <div className="row">{cancel}</div>
    </main>
  );
}

/** Settings a managed file sets: shown, never editable here. */
function ManagedSettings({ access, current }: { access: SettingsAccess; current: DesktopSettings }) {
  return (
    <>
      <p>{access.reason}</p>
      <p>
        Settings file: <code>{access.managedFile}</code>
      </p>
      {access.problem !== undefined && (
        <p role="alert" className="error">
          {access.problem}
        </p>
      )}
      <dl>
        <dt>Server address</dt>
        <dd>{current.serverUrl ?? 'Not set'}</dd>
        <dt>Scanner folder</dt>
        <dd>{current.watchedFolder ?? 'Not set'}</dd>
        <dt>After a scan is uploaded</dt>
        <dd>{current.afterUpload === 'delete' ? 'Delete it' : 'Move it to the “uploaded” folder'}</dd>
        <dt>New scans</dt>
        <dd>{FOLDER_MODES[current.folderMode]}</dd>
        <dt>Duplicates and scans that could not be read</dt>
        <dd>{PROBLEM_SCANS[current.problemScans]}</dd>
      </dl>
    </>
  );
}

const formChoice = <T extends string>(form: FormData, name: string, choices: readonly T[], fallback: T): T =>
  choices.find((choice) => choice === form.get(name)) ?? fallback;

interface SettingsFormProps extends Pick<SetupScreenProps, 'bridge' | 'current' | 'onSaved'> {
  inbox: InboxState | null;
  heading: ReactNode;
  cancel: ReactNode;
}

/** Saves the form through main, which checks again who may; answers why when it refuses. */
function useSaveSettings(
  bridge: DesktopBridge,
  folder: string,
  onSaved: (settings: DesktopSettings) => void,
) {
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setMessage('');
    setSaving(true);
    try {
      onSaved(
        await bridge.saveSettings({
          serverUrl: stringField(form, 'serverUrl'),
          watchedFolder: folder,
          afterUpload: form.get('afterUpload') === 'delete' ? 'delete' : 'move',
          folderMode: formChoice(form, 'folderMode', ['auto', 'watch', 'poll'] as const, 'auto'),
          problemScans: formChoice(form, 'problemScans', ['list', 'move'] as const, 'list'),
        }),
      );
    } catch (error) {
      setMessage(reason(error));
    } finally {
      setSaving(false);
    }
  };
  return { save, message, saving };
}

/** The form, for whoever may change the settings; main checks again on save. */
function SettingsForm({ bridge, current, inbox, onSaved, heading, cancel }: SettingsFormProps) {
  const [folder, setFolder] = useState(current.watchedFolder ?? '');
  const { save, message, saving } = useSaveSettings(bridge, folder, onSaved);
  const browse = async () => {
    const chosen = await bridge.chooseFolder();
    if (chosen) setFolder(chosen);
  };

  return (
    <main className="setup">
      <form onSubmit={(event) => void save(event)}>
        {heading}
        <label htmlFor="server">Server address</label>
        <input
          id="server"
          name="serverUrl"
          type="url"
          required
          placeholder="https://vita.example.org"
          defaultValue={current.serverUrl ?? ''}
        />
        <FolderField folder={folder} onBrowse={() => void browse()} />
        <AfterUploadChoice current={current.afterUpload} />
        <FolderModeChoice current={current} inbox={inbox} />
        <ProblemScansChoice current={current.problemScans} />
        <p role="alert" className="error">
          {message}
        </p>
        <div className="row">
          <button type="submit" disabled={saving}>
            Save
          </button>
          {cancel}
        </div>
      </form>
    </main>
  );
}

export function SetupScreen({ bridge, current, inbox = null, onSaved, onCancel }: SetupScreenProps) {
  const access = useSettingsAccess(bridge);
  const firstRun = current.serverUrl === null && access?.managed !== true;
  const heading = <h1>{firstRun ? 'Set up this intake desk' : 'Desk settings'}</h1>;
  const cancel = onCancel && (
    <button type="button" onClick={onCancel}>
      Cancel
    </button>
  );

  if (access === null) {
    return (
      <Notice heading={heading} cancel={cancel}>
        <p>Checking who may change these settings…</p>
      </Notice>
    );
  }
  if (access.managed) {
    return (
      <Notice heading={heading} cancel={cancel}>
        <ManagedSettings access={access} current={current} />
      </Notice>
    );
  }
  if (!access.allowed) {
    return (
      <Notice heading={heading} cancel={cancel}>
        <p role="alert" className="error">
          {access.reason}
        </p>
      </Notice>
    );
  }
  return (
    <SettingsForm
      bridge={bridge}
      current={current}
      inbox={inbox}
      onSaved={onSaved}
      heading={heading}
      cancel={cancel}
    />
  );
}
