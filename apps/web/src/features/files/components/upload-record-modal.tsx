import type { MedicalFile } from '@kinchart/shared/files';
import { Modal } from '../../../components/ui/modal';
import { UploadRecordForm } from './upload-record-form';

export interface UploadRecordModalProps {
  open: boolean;
  onClose: () => void;
  /** Called after a successful upload; the modal closes itself as well. */
  onUploaded?: (file: MedicalFile) => void;
}

/** SPEC §2 Upload: the modal variant 'Upload Medical Record', with the same form as the page. */
export function UploadRecordModal({ open, onClose, onUploaded }: UploadRecordModalProps) {
  return (
    <Modal open={open} onClose={onClose} title="Upload Medical Record" size="lg">
      <UploadRecordForm
        headingLevel={3}
        onUploaded={(file) => {
          onUploaded?.(file);
          onClose();
        }}
      />
    </Modal>
  );
}
