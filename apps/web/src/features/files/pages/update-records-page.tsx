import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { MedicalFile } from '@kinchart/shared/files';
import { PageHeader } from '../../../components/ui/page-header';
import { UploadRecordForm } from '../components/upload-record-form';
import { recordName } from '../utils/record-list';

/**
 * /update-records — SPEC §2 Upload: the 'Upload Medical Records' page. `?person={id}` (from View
 * Records' empty state for one person) starts the "For" choice on that person.
 */
export function UpdateRecordsPage() {
  const { t } = useLingui();
  const [searchParams] = useSearchParams();
  const [uploaded, setUploaded] = useState<MedicalFile | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);

  const onUploaded = (file: MedicalFile) => {
    setUploaded(file);
    // The form folds back to the picker; keep keyboard focus on what happened, not on <body>.
    window.setTimeout(() => statusRef.current?.focus(), 0);
  };

  const uploadedName = uploaded ? recordName(uploaded) : '';

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t`Upload Medical Records`}
        subtitle={t`Drag and drop a file or click to choose one, then add the details of the visit.`}
      />
      <div role="status" className="empty:hidden">
        {uploaded ? (
          <p ref={statusRef} tabIndex={-1} className="mb-6 rounded-lg border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-800">
            <Trans>
              Uploaded “{uploadedName}” successfully.{' '}
              <Link to="/view-records" className="font-semibold text-green-900 underline">
                View Records
              </Link>
            </Trans>
          </p>
        ) : null}
      </div>
      <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        {/* The banner is about the last upload: it goes as soon as another one begins. */}
        <UploadRecordForm onUploaded={onUploaded} onStarted={() => setUploaded(null)} personId={searchParams.get('person')} />
      </div>
    </div>
  );
}
