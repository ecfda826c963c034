import { useLingui } from '@lingui/react/macro';
import type { MedicalFile } from '@kinchart/shared/files';
import { Modal } from '../../../components/ui/modal';
import { UploadRecordForm } from './upload-record-form';

export interface UploadRecordModalProps {
  open: boolean;
  onClose: () => void;
  /** Called after each successful upload. */
  onUploaded?: (file: MedicalFile) => void;
  /** The person the "For" choice starts on (else the dashboard's choice, else yourself). */
  personId?: string | null;
}

/**
 * SPEC §2 Upload: the modal variant 'Upload Medical Record', with the same form as the page. It
 * closes itself once every chosen file is uploaded; otherwise it stays open on the results.
 */
export function UploadRecordModal({ open, onClose, onUploaded, personId }: UploadRecordModalProps) {
  const { t } = useLingui();
  return (
    <Modal open={open} onClose={onClose} title={t`Upload Medical Record`} size="lg">
      <UploadRecordForm
        headingLevel={3}
        personId={personId}
        onUploaded={onUploaded}
        onFinished={({ uploaded, notUploaded }) => {
          if (uploaded.length > 0 && notUploaded === 0) onClose();
        }}
      />
    </Modal>
  );
}
