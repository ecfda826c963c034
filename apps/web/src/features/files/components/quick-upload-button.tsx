import { FILE_INPUT_ACCEPT } from '@kinchart/shared/files';
import { FilePickerButton } from '../../../components/ui/file-picker-button';
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
  const upload = useQuickUpload();
  return (
    <FilePickerButton
      label={label}
      busy={upload.isPending}
      accept={FILE_INPUT_ACCEPT}
      className={className}
      onFile={(file) => {
        onChosen?.();
        void upload.uploadWithToast(file);
      }}
    />
  );
}
