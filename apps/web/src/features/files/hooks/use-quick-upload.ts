import { notify } from '../../../lib/toast';
import { useUploadFile } from '../api/upload-file';
import { useAnnounceUpload } from './use-announce-upload';

/**
 * SPEC §2 Layout / §7 Files / §8: the navigation bar's upload of one file to POST /api/user/upload,
 * with 'Successfully uploaded {name}' or 'Failed to upload file'. Shared by the top bar's Upload
 * and the mobile menu's Import.
 */
export function useQuickUpload() {
  const upload = useUploadFile();
  const announce = useAnnounceUpload();
  const uploadWithToast = async (file: File): Promise<void> => {
    try {
      await upload.mutateAsync(file);
      notify.success(`Successfully uploaded ${file.name}`);
      announce(file.name);
    } catch (error) {
      console.error('Error uploading file:', error);
      notify.error('Failed to upload file');
    }
  };
  return { uploadWithToast, isPending: upload.isPending };
}
