import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { buttonClassName } from '../../../components/ui/button';
import { DocumentTitle } from '../../../components/ui/page-header';
import { MarketingHero, MarketingSection } from '../components/marketing-section';

// SPEC §2: /howitworks shows six steps.
const steps = [
  {
    title: msg`Create your account`,
    text: msg`Sign up with a username, your email address and a password. It takes less than a minute, and nothing is shared until you choose to share it.`,
  },
  {
    title: msg`Complete your health profile`,
    text: msg`Add your basic details, blood type, height and weight, then your medical conditions, allergies, emergency contacts, healthcare providers and medications.`,
  },
  {
    title: msg`Add your family — and your pets`,
    text: msg`Create a profile for each person you look after, and for your pets too. Everyone gets their own conditions, medications and contacts.`,
  },
  {
    title: msg`Upload and organise your records`,
    text: msg`Drag in PDFs, photos and documents and note the visit date, provider, location and reason. Search, filter, sort and rename them later, and share selected files with a provider.`,
  },
  {
    title: msg`Track prescriptions and appointments`,
    text: msg`Keep current medications apart from your medication history, and plan visits with your doctors in a month, week, day or agenda calendar.`,
  },
  {
    title: msg`Set up your emergency QR codes`,
    text: msg`Choose a 4-digit PIN to switch on a QR code for yourself and for each family member. Whoever scans it and enters the PIN sees the essentials — and you get a notification straight away.`,
  },
];

export function HowItWorksPage() {
  const { t } = useLingui();
  return (
    <>
      <DocumentTitle title={t`How It Works`} />
      <MarketingHero
        title={t`How Kinchart works`}
        lead={t`From sign-up to an emergency-ready QR code in six steps. You can stop after any of them and pick up where you left off.`}
      />
      <MarketingSection labelledBy="steps-heading">
        <h2 id="steps-heading" className="sr-only">
          <Trans>The six steps</Trans>
        </h2>
        <ol className="mx-auto grid max-w-5xl gap-6 md:grid-cols-2">
          {steps.map((step, index) => {
            const number = index + 1;
            return (
              <li key={index} className="flex gap-5 rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
                <span
                  aria-hidden="true"
                  className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-700 text-xl font-bold text-white"
                >
                  {index + 1}
                </span>
                <div>
                  <h3 className="text-xl font-semibold text-slate-900">
                    <span className="sr-only">
                      <Trans>Step {number}:</Trans>{' '}
                    </span>
                    {t(step.title)}
                  </h3>
                  <p className="mt-2 text-slate-700">{t(step.text)}</p>
                </div>
              </li>
            );
          })}
        </ol>
        <div className="mt-12 text-center">
          <Link to="/signup" className={buttonClassName('primary', 'lg')}>
            <Trans>Get started</Trans>
          </Link>
        </div>
      </MarketingSection>
    </>
  );
}
