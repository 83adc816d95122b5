/**
 * The fields of the desk settings form, each a choice with its labels (also shown read-only for a
 * managed desk): scanner folder, after upload, folder mode with the mode in use, problem scans.
 */
import type { DesktopSettings, InboxState } from '../shared/bridge.js';
import { deskTexts } from '../shared/desk-texts.js';

/** The labels of the folder modes. */
export const FOLDER_MODES: Record<DesktopSettings['folderMode'], string> = {
  auto: 'Automatic: poll a folder on a network share, watch a local one',
  watch: 'Watch (file-system events)',
  poll: 'Poll every 2 seconds',
};

/** The labels of where duplicates and damaged scans go. */
export const PROBLEM_SCANS: Record<DesktopSettings['problemScans'], string> = {
  list: 'List them on the desk until dismissed',
  move: 'Move them to the “duplicates” and “could-not-read” folders',
};

/** How the folder is followed (an admin may force Watch or Poll), and the mode in use now. */
export function FolderModeChoice({ current, inbox }: { current: DesktopSettings; inbox: InboxState | null }) {
  const desk = inbox?.desk;
  const network = desk?.network ? ` (network share: ${desk.network})` : '';
  return (
    <fieldset>
      <legend>New scans</legend>
      {(['auto', 'watch', 'poll'] as const).map((mode) => (
        <label key={mode}>
          <input type="radio" name="folderMode" value={mode} defaultChecked={current.folderMode === mode} />{' '}
          {FOLDER_MODES[mode]}
        </label>
      ))}
      {desk && (
        <p className="hint" role="status">
          {`${deskTexts.modeInUse[desk.mode]}${network}`}
        </p>
      )}
    </fieldset>
  );
}

export function ProblemScansChoice({ current }: { current: DesktopSettings['problemScans'] }) {
  return (
    <fieldset>
      <legend>Duplicates and scans that could not be read</legend>
      {(['list', 'move'] as const).map((choice) => (
        <label key={choice}>
          <input type="radio" name="problemScans" value={choice} defaultChecked={current === choice} />{' '}
          {PROBLEM_SCANS[choice]}
        </label>
      ))}
    </fieldset>
  );
}

/** The scanner folder, chosen through the system's folder picker (typing a path is not offered). */
export function FolderField({ folder, onBrowse }: { folder: string; onBrowse: () => void }) {
  return (
    <>
      <label htmlFor="folder">Scanner folder</label>
      <div className="row">
        <input id="folder" readOnly required value={folder} />
        <button type="button" onClick={onBrowse}>
          Browse…
        </button>
      </div>
    </>
  );
}

export function AfterUploadChoice({ current }: { current: DesktopSettings['afterUpload'] }) {
  return (
    <fieldset>
      <legend>After a scan is uploaded</legend>
      <label>
        <input type="radio" name="afterUpload" value="move" defaultChecked={current === 'move'} /> Move it to
        the “uploaded” folder
      </label>
      <label>
        <input type="radio" name="afterUpload" value="delete" defaultChecked={current === 'delete'} /> Delete
        it
      </label>
    </fieldset>
  );
}
