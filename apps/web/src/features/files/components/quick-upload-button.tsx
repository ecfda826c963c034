import { useRef, type ChangeEvent } from 'react';
import { FILE_INPUT_ACCEPT } from '@kinchart/shared/files';
import { useQuickUpload } from '../hooks/use-quick-upload';

export interface QuickUploadButtonProps {
  /** 'Upload' in the top bar, 'Import' in the mobile menu (SPEC §2 Layout). */
  label: string;
  className: string;
  /** Called once a file was chosen, before the upload finishes (the mobile menu closes then). */
  onChosen?: () => void;
}

/**
 * SPEC §2 Layout / §7 Files: the navigation bar's own file-picker upload. A button opens the
 * picker; the chosen file goes to POST /api/user/upload with a toast on the result.
 */
export function QuickUploadButton({ label, className, onChosen }: QuickUploadButtonProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useQuickUpload();

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Clear the input so choosing the same file again still counts as a change.
    event.target.value = '';
    if (!file) return;
    onChosen?.();
    await upload.uploadWithToast(file);
  };

  return (
    <>
      <button
        type="button"
        aria-disabled={upload.isPending}
        onClick={() => {
          if (!upload.isPending) inputRef.current?.click();
        }}
        className={`${className} aria-disabled:cursor-wait aria-disabled:opacity-70`}
      >
        {upload.isPending ? 'Uploading...' : label}
      </button>
      <input
        ref={inputRef}
        type="file"
        hidden
        tabIndex={-1}
        aria-label={label}
        accept={FILE_INPUT_ACCEPT}
        onChange={(event) => void onChange(event)}
      />
    </>
  );
}
