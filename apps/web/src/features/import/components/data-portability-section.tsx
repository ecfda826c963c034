import { Trans } from '@lingui/react/macro';
import { ExportButton } from '../../export/components/export-button';
import { buttonClassName } from '../../../components/ui/button';
import { ImportForm } from './import-form';

/**
 * Settings → Account Settings: take everything out, or bring it back in (decision 0004). The Export
 * here is the top bar's Export; Import is the same as the mobile menu's.
 */
export function DataPortabilitySection() {
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <p className="text-sm text-slate-700">
          <Trans>
            Download everything in your account — profiles, family members, medications, appointments, notifications and files — as one zip,
            with a FHIR R4 patient summary for each person that other health systems can read.
          </Trans>
        </p>
        <div>
          <ExportButton className={buttonClassName('secondary', 'md')} />
        </div>
      </div>
      <div className="flex flex-col gap-2 border-t border-slate-200 pt-4">
        <h4 className="text-base font-semibold text-slate-900">
          <Trans>Import</Trans>
        </h4>
        <ImportForm />
      </div>
    </div>
  );
}
