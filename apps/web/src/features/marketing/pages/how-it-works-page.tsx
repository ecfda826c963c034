import { Link } from 'react-router';
import { buttonClassName } from '../../../components/ui/button';
import { DocumentTitle } from '../../../components/ui/page-header';
import { MarketingHero, MarketingSection } from '../components/marketing-section';

// SPEC §2: /howitworks shows six steps.
const steps = [
  {
    title: 'Create your account',
    text: 'Sign up with a username, your email address and a password. It takes less than a minute, and nothing is shared until you choose to share it.',
  },
  {
    title: 'Complete your health profile',
    text: 'Add your basic details, blood type, height and weight, then your medical conditions, allergies, emergency contacts, healthcare providers and medications.',
  },
  {
    title: 'Add your family — and your pets',
    text: 'Create a profile for each person you look after, and for your pets too. Everyone gets their own conditions, medications and contacts.',
  },
  {
    title: 'Upload and organise your records',
    text: 'Drag in PDFs, photos and documents and note the visit date, provider, location and reason. Search, filter, sort and rename them later, and share selected files with a provider.',
  },
  {
    title: 'Track prescriptions and appointments',
    text: 'Keep current medications apart from your medication history, and plan visits with your doctors in a month, week, day or agenda calendar.',
  },
  {
    title: 'Set up your emergency QR codes',
    text: 'Choose a 4-digit PIN to switch on a QR code for yourself and for each family member. Whoever scans it and enters the PIN sees the essentials — and you get a notification straight away.',
  },
];

export function HowItWorksPage() {
  return (
    <>
      <DocumentTitle title="How It Works" />
      <MarketingHero
        title="How Kinchart works"
        lead="From sign-up to an emergency-ready QR code in six steps. You can stop after any of them and pick up where you left off."
      />
      <MarketingSection labelledBy="steps-heading">
        <h2 id="steps-heading" className="sr-only">
          The six steps
        </h2>
        <ol className="mx-auto grid max-w-5xl gap-6 md:grid-cols-2">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-5 rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
              <span
                aria-hidden="true"
                className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-700 text-xl font-bold text-white"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="text-xl font-semibold text-slate-900">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-2 text-slate-700">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <div className="mt-12 text-center">
          <Link to="/signup" className={buttonClassName('primary', 'lg')}>
            Get started
          </Link>
        </div>
      </MarketingSection>
    </>
  );
}
