import { useParams } from 'react-router';
import { DocumentTitle } from '../../../components/ui/page-header';
import { DownloadFhirButton } from '../../export/components/download-fhir-button';
import { NOT_FOUND_TEXT, useEmergencyAccess } from '../api/use-emergency-access';
import { EmergencyInfoView } from '../components/emergency-info-view';
import { EmergencyPinForm } from '../components/emergency-pin-form';

function PageHeading() {
  return <h1 className="text-3xl font-extrabold text-black">Emergency information</h1>;
}

/**
 * /emergency/:shareId and /family/emergency/:shareId (SPEC §2, §4). Public: no session, no
 * header or footer, and the share id is never shown. Kept small — no query library state, no
 * date library — so it loads fast on a phone with a weak signal.
 */
export function EmergencyPage() {
  const { shareId = '' } = useParams();
  const { state, submitPin, retry } = useEmergencyAccess(shareId);

  let content;
  switch (state.step) {
    case 'loading':
      content = (
        <>
          <PageHeading />
          <p role="status" className="mt-6 text-xl text-black">
            Loading emergency information...
          </p>
        </>
      );
      break;
    case 'not-found':
      content = (
        <>
          <PageHeading />
          <div role="alert" className="mt-6 rounded-2xl border-4 border-red-800 bg-red-50 p-5 sm:p-6">
            <p className="text-2xl font-extrabold text-red-900">{NOT_FOUND_TEXT}</p>
            <p className="mt-2 text-lg text-black">
              Check that the whole link was opened. The owner may have switched this code off.
            </p>
          </div>
        </>
      );
      break;
    case 'unavailable':
      content = (
        <>
          <PageHeading />
          <div role="alert" className="mt-6 rounded-2xl border-4 border-red-800 bg-red-50 p-5 sm:p-6">
            <p className="text-xl font-bold text-red-900">{state.message}</p>
          </div>
          <button
            type="button"
            onClick={retry}
            className="mt-5 min-h-14 rounded-xl bg-black px-6 py-3 text-xl font-bold text-white hover:bg-slate-800"
          >
            Try Again
          </button>
        </>
      );
      break;
    case 'pin':
      content = (
        <EmergencyPinForm
          submitting={state.submitting}
          error={state.error}
          remainingAttempts={state.remainingAttempts}
          onSubmit={(pin) => void submitPin(pin)}
        />
      );
      break;
    case 'info':
      content = (
        <>
          <EmergencyInfoView info={state.info} />
          {/* Issue 7: after a successful PIN, the same information as a FHIR file for clinicians. */}
          {state.access ? <DownloadFhirButton shareId={shareId} kind={state.access.kind} pin={state.access.pin} /> : null}
        </>
      );
      break;
  }

  return (
    <div className="text-black">
      <DocumentTitle title="Emergency information" />
      {/* Health data behind a secret link: keep it out of search engines and other sites' logs. */}
      <meta name="robots" content="noindex, nofollow" />
      <meta name="referrer" content="no-referrer" />
      {content}
    </div>
  );
}
