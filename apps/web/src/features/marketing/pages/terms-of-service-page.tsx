import { Trans, useLingui } from '@lingui/react/macro';
import { SUPPORT_EMAIL } from '../../../lib/site';
import { LegalPage, type LegalSection } from '../components/legal-page';

export function TermsOfServicePage() {
  const { t } = useLingui();
  const sections: LegalSection[] = [
    {
      heading: t`Using Kinchart`,
      body: (
        <p>
          <Trans>
            Kinchart lets you store and organise health information for yourself and for people and pets you care for. You must be old
            enough to agree to these terms where you live, and you should only add information about other people when you are entitled to
            manage it for them.
          </Trans>
        </p>
      ),
    },
    {
      heading: t`Not medical advice`,
      body: (
        <p>
          <Trans>
            Kinchart is a record-keeping tool. It does not give medical advice, diagnose or treat any condition, and it does not replace
            your healthcare providers. In an emergency, call your local emergency number.
          </Trans>
        </p>
      ),
    },
    {
      heading: t`Your account`,
      body: (
        <p>
          <Trans>
            Keep your password and your emergency PINs to yourself, and tell us straight away if you think someone else has used your
            account. You are responsible for the accuracy of the information you add.
          </Trans>
        </p>
      ),
    },
    {
      heading: t`Your content`,
      body: (
        <p>
          <Trans>
            The records and information you add remain yours. You give us permission to store and show them only as needed to run the
            service for you — for example, to display emergency information to someone with your QR code and PIN.
          </Trans>
        </p>
      ),
    },
    {
      heading: t`Availability and changes`,
      body: (
        <p>
          <Trans>
            We work to keep Kinchart available and your data safe, but we cannot promise uninterrupted service. We may update these terms;
            when we make significant changes we will tell you in the app or by email.
          </Trans>
        </p>
      ),
    },
    {
      heading: t`Ending your account`,
      body: (
        <p>
          <Trans>
            You can delete your account at any time from Settings. Questions about these terms:{' '}
            <a className="font-semibold text-brand-700 underline" href={`mailto:${SUPPORT_EMAIL}`}>
              {SUPPORT_EMAIL}
            </a>
            .
          </Trans>
        </p>
      ),
    },
  ];
  return (
    <LegalPage
      title={t`Terms of Service`}
      intro={
        <p>
          <Trans>These terms apply when you create a Kinchart account or use the service.</Trans>
        </p>
      }
      sections={sections}
    />
  );
}
