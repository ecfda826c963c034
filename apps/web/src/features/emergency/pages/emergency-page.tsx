import { DocumentTitle } from '../../../components/ui/page-header';

/** /emergency/:shareId and /family/emergency/:shareId. The share id is never shown (SPEC §2). */
export function EmergencyPage() {
  return (
    <>
      <DocumentTitle title="Emergency information" />
      <h1 className="text-2xl font-bold text-slate-900">Emergency information</h1>
    </>
  );
}
