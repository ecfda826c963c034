import { useLingui } from '@lingui/react/macro';
import { Modal } from '../../../components/ui/modal';
import { ImportForm } from './import-form';

/** The import form in a dialog, opened with the file already chosen (the mobile menu's Import). */
export function ImportDialog({ file, onClose }: { file: File | null; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Modal open={file !== null} onClose={onClose} title={t`Import`} size="md" description={t`Bring records into Kinchart.`}>
      {file ? <ImportForm key={`${file.name}:${file.size}:${file.lastModified}`} initialFile={file} /> : null}
    </Modal>
  );
}
