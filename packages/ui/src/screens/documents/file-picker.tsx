import type { ChangeEvent } from 'react';

/** What "Upload files" accepts: PDF or images. */
export const UPLOAD_ACCEPT = 'application/pdf,.pdf,image/*,.heic,.heif';

/** What "Take Photo" accepts: the camera on phones, a picker of images elsewhere. */
export const PHOTO_ACCEPT = 'image/*';

interface FilePickerProps {
  label: string;
  /** A fuller name for screen readers, starting with `label` (`Retake Page 2`). */
  ariaLabel?: string;
  accept: string;
  /** `environment` asks phones for the back camera (Take Photo). */
  capture?: 'environment';
  multiple?: boolean;
  disabled?: boolean;
  onFiles: (files: File[]) => void;
  className?: string;
}

/**
 * A button that opens the native file picker or camera: a `<label>` styled as a button around a
 * visually hidden `<input type="file">`. The input stays in the page (not `display: none`), so it
 * is reachable by keyboard, named by the label, and works in every host, Electron included.
 */
export function FilePicker({
  label,
  ariaLabel,
  accept,
  capture,
  multiple,
  disabled,
  onFiles,
  className,
}: FilePickerProps) {
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.currentTarget.files ?? []);
    // Cleared so choosing the same file again still fires a change.
    event.currentTarget.value = '';
    if (files.length) onFiles(files);
  };
  const classes = ['button', 'file-picker', className, disabled ? 'file-picker--disabled' : ''].filter(
    Boolean,
  );
  return (
    <label className={classes.join(' ')}>
      <input
        type="file"
        className="visually-hidden"
        accept={accept}
        aria-label={ariaLabel}
        capture={capture}
        multiple={multiple}
        disabled={disabled}
        onChange={change}
      />
      {label}
    </label>
  );
}
