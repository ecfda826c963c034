import { Trans } from '@lingui/react/macro';
import { useRef } from 'react';

export interface FilePickerButtonProps {
  /** The button's text and the hidden input's accessible name. */
  label: string;
  /** While true the button says 'Uploading...' and does not open the picker. */
  busy: boolean;
  /** The input's accept list. */
  accept: string;
  className: string;
  /** The chosen file; choosing the same file again is a new choice. */
  onFile: (file: File) => void;
}

/** A button that opens the system file picker (a hidden file input) and hands over the file chosen. */
export function FilePickerButton({ label, busy, accept, className, onFile }: FilePickerButtonProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        aria-disabled={busy}
        onClick={() => {
          if (!busy) inputRef.current?.click();
        }}
        className={`${className} aria-disabled:cursor-wait aria-disabled:opacity-70`}
      >
        {busy ? <Trans>Uploading...</Trans> : label}
      </button>
      <input
        ref={inputRef}
        type="file"
        hidden
        tabIndex={-1}
        aria-label={label}
        accept={accept}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so that choosing the same file again still counts as a change.
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}
