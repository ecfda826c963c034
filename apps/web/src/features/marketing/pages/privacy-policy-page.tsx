import { Trans, useLingui } from '@lingui/react/macro';
import { SUPPORT_EMAIL } from '../../../lib/site';
import { LegalPage, type LegalSection } from '../components/legal-page';

export function PrivacyPolicyPage() {
  const { t } = useLingui();
  const sections: LegalSection[] = [
    {
      heading: t`Information we collect`,
      body: (
        <>
          <p>
            <Trans>Account details: your username, email address and a password, which we store only as a one-way hash.</Trans>
          </p>
          <p>
            <Trans>
              Health information you choose to add: profiles for you and your family members or pets, medical conditions, medications,
              emergency contacts, healthcare providers, appointments and the files you upload.
            </Trans>
          </p>
          <p>
            <Trans>Technical records needed to run the service safely, such as sign-in times and when an emergency code was opened.</Trans>
          </p>
        </>
      ),
    },
    {
      heading: t`How we use it`,
      body: (
        <p>
          <Trans>
            We use your information only to provide Kinchart to you: to show it back to you, to display emergency information to someone who
            has your QR code and its PIN, and to notify you about activity on your account. We do not sell your information or use it for
            advertising.
          </Trans>
        </p>
      ),
    },
    {
      heading: t`Emergency access`,
      body: (
        <p>
          <Trans>
            When you switch on an emergency QR code, anyone who has the code and its PIN can see a read-only summary of that person’s
            emergency information. They cannot see files, appointments or account details. You can change the PIN or switch the code off at
            any time, and you are notified whenever it is opened.
          </Trans>
        </p>
      ),
    },
    {
      heading: t`How we protect it`,
      body: (
        <p>
          <Trans>
            Files are encrypted before they are stored, connections are encrypted, sessions expire after a period of inactivity, and
            repeated wrong PINs lock an emergency code.
          </Trans>
        </p>
      ),
    },
    {
      heading: t`Your choices and rights`,
      body: (
        <p>
          <Trans>
            You can view, correct, export and delete your information in the app. Deleting your account removes your profiles, files and
            emergency codes.
          </Trans>
        </p>
      ),
    },
    {
      heading: t`Contact`,
      body: (
        <p>
          <Trans>
            Questions about this policy:{' '}
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
      title={t`Privacy Policy`}
      intro={
        <p>
          <Trans>This policy explains what information Kinchart holds about you, why, and the choices you have.</Trans>
        </p>
      }
      sections={sections}
    />
  );
}
