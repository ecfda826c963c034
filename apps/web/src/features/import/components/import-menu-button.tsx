import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { IMPORT_ACCEPT } from '@kinchart/shared/export';
import { FILE_INPUT_ACCEPT } from '@kinchart/shared/files';
import { FilePickerButton } from '../../../components/ui/file-picker-button';
// The one place this feature reaches into files: a medical file chosen here is uploaded exactly as
// the navigation bar's Upload does it (SPEC §2 Layout, §7 POST /api/user/upload).
import { useQuickUpload } from '../../files/hooks/use-quick-upload';
import { ImportDialog } from './import-dialog';

/** A Kinchart export, a FHIR Bundle or a C-CDA document, as opposed to a medical record file. */
export function isDataFile(file: File): boolean {
  return (
    /\.(zip|json|xml)$/i.test(file.name) ||
    [
      'application/zip',
      'application/x-zip-compressed',
      'application/json',
      'application/fhir+json',
      'application/xml',
      'text/xml',
    ].includes(file.type)
  );
}

/**
 * SPEC §2 Layout: the mobile menu's Import opens the file picker. Whatever the person brings in:
 * a medical file (PDF, image, document) is uploaded as a record, with a toast, like the bar's
 * Upload; a Kinchart export (.zip) or a FHIR Bundle (.json) opens the import dialog (decision 0004), which
 * says what will happen — and, for a FHIR Bundle, asks whose it is — before anything is sent.
 */
export function ImportMenuButton({ className, onChosen }: { className: string; onChosen?: () => void }) {
  const { t } = useLingui();
  const [file, setFile] = useState<File | null>(null);
  const upload = useQuickUpload();

  const onFile = async (chosen: File) => {
    onChosen?.();
    if (isDataFile(chosen)) {
      setFile(chosen);
      return;
    }
    await upload.uploadWithToast(chosen);
  };

  return (
    <>
      <FilePickerButton
        label={t`Import`}
        busy={upload.isPending}
        accept={`${IMPORT_ACCEPT},${FILE_INPUT_ACCEPT}`}
        className={className}
        onFile={(chosen) => void onFile(chosen)}
      />
      <ImportDialog file={file} onClose={() => setFile(null)} />
    </>
  );
}
