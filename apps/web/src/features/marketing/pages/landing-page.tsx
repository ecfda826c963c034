import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { buttonClassName } from '../../../components/ui/button';
import { DocumentTitle } from '../../../components/ui/page-header';
import { SUPPORT_EMAIL } from '../../../lib/site';
import { MarketingSection } from '../components/marketing-section';
import { TestimonialCarousel } from '../components/testimonial-carousel';

const features = [
  {
    title: msg`All your records in one place`,
    text: msg`Upload lab results, scans, letters and prescriptions as PDF, JPG, PNG, DOCX and more. Add the visit date, provider, location and reason, then search, filter and sort whenever you need them. Files are stored encrypted.`,
    iconPath: 'M7 3h7l5 5v13H7zM14 3v5h5M10 13h6M10 17h6',
  },
  {
    title: msg`Profiles for the whole family`,
    text: msg`Keep a health profile for yourself, your partner, your children, your parents — and your pets. Conditions, allergies, medications, emergency contacts and healthcare providers for each of them, a tap away.`,
    iconPath:
      'M8 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM16 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 20c0-3 3-5 6-5s6 2 6 5M12 20c0-3 3-5 6-5 2 0 4 1 4 3',
  },
  {
    title: msg`Emergency QR codes`,
    text: msg`Give each person a QR code protected by a 4-digit PIN. A first responder scans it, enters the PIN and sees allergies, conditions, medications and contacts — and you get a notification the moment it is opened.`,
    iconPath: 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 14h2v2h-2zM14 18h2v2h-2zM18 18h2v2h-2z',
  },
];

// A proper name: the same in every language.
const PRODUCT_NAME = 'Kinchart';

const extras = [
  msg`Appointments with your doctors in a calendar`,
  msg`Current medications and medication history`,
  msg`Real-time notifications when your emergency information is viewed`,
  msg`Share selected records with a provider through a link or QR code`,
];

export function LandingPage() {
  const { t } = useLingui();
  return (
    <>
      <DocumentTitle title={PRODUCT_NAME} />
      <div className="on-dark bg-brand-900 text-white">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-2 lg:px-8">
          <div>
            <p className="font-semibold tracking-wide text-brand-200 uppercase">{PRODUCT_NAME}</p>
            <h1 className="mt-3 text-4xl font-bold tracking-tight sm:text-6xl">
              <Trans>Empowering Patients</Trans>
            </h1>
            <p className="mt-6 text-xl text-brand-100">
              <Trans>Your health records, simplified. Access and manage your medical info.</Trans>
            </p>
            <p className="mt-4 max-w-xl text-brand-100">
              <Trans>
                Kinchart keeps your medical history, your family’s and even your pets’ in one secure place — ready for the next appointment,
                and for the moment someone needs it in an emergency.
              </Trans>
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/signup" className={buttonClassName('inverse', 'lg')}>
                <Trans>Create your free account</Trans>
              </Link>
              <Link to="/howitworks" className={buttonClassName('outline-inverse', 'lg')}>
                <Trans>See how it works</Trans>
              </Link>
            </div>
          </div>
          <ul className="grid gap-3 rounded-2xl bg-brand-800 p-6 sm:p-8" aria-label={t`What else Kinchart does`}>
            {extras.map((extra, index) => (
              <li key={index} className="flex gap-3 text-brand-50">
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  className="mt-0.5 size-5 shrink-0"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2.5"
                >
                  <path d="M5 12l5 5L20 7" />
                </svg>
                {t(extra)}
              </li>
            ))}
          </ul>
        </div>
      </div>

      <MarketingSection labelledBy="features-heading">
        <h2 id="features-heading" className="text-center text-3xl font-bold tracking-tight">
          <Trans>Built for the way families look after each other</Trans>
        </h2>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {features.map((feature) => (
            <li key={feature.iconPath} className="rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
              <span className="inline-flex size-12 items-center justify-center rounded-xl bg-brand-700 text-white">
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  className="size-6"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinejoin="round"
                  strokeLinecap="round"
                >
                  <path d={feature.iconPath} />
                </svg>
              </span>
              <h3 className="mt-4 text-xl font-semibold text-slate-900">{t(feature.title)}</h3>
              <p className="mt-2 text-slate-700">{t(feature.text)}</p>
            </li>
          ))}
        </ul>
      </MarketingSection>

      <MarketingSection tone="tint">
        <TestimonialCarousel />
      </MarketingSection>

      <MarketingSection labelledBy="contact-heading">
        <div className="mx-auto max-w-3xl text-center">
          <h2 id="contact-heading" className="text-3xl font-bold tracking-tight">
            <Trans>Get in touch</Trans>
          </h2>
          <p className="mt-4 text-slate-700">
            <Trans>
              Questions about your account, your privacy or using Kinchart for your family? Write to us and a person will answer, usually
              within two working days. Please do not send medical records by email — upload them to your account instead.
            </Trans>
          </p>
          <p className="mt-6 text-lg">
            <a href={`mailto:${SUPPORT_EMAIL}`} className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900">
              {SUPPORT_EMAIL}
            </a>
          </p>
        </div>
      </MarketingSection>

      <MarketingSection tone="dark" labelledBy="cta-heading">
        <div className="flex flex-col items-center gap-6 text-center">
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight">
            <Trans>Take charge of your family’s health records</Trans>
          </h2>
          <p className="max-w-2xl text-brand-100">
            <Trans>Setting up takes a few minutes: create an account, complete your profile and add the people you look after.</Trans>
          </p>
          <Link to="/signup" className={buttonClassName('inverse', 'lg')}>
            <Trans>Sign up for Kinchart</Trans>
          </Link>
        </div>
      </MarketingSection>
    </>
  );
}
