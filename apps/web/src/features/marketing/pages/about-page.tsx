import { Link } from 'react-router';
import { buttonClassName } from '../../../components/ui/button';
import { DocumentTitle } from '../../../components/ui/page-header';
import { MarketingHero, MarketingSection } from '../components/marketing-section';

const values = [
  {
    title: 'Your records belong to you',
    text: 'You decide what goes into Kinchart, who sees it and when it is deleted. You can export your files or close your account at any time.',
  },
  {
    title: 'Private by design',
    text: 'Files are encrypted before they are stored. Emergency information is only shown to someone who has both the QR code and its PIN, and you are told every time it is opened.',
  },
  {
    title: 'Made for real families',
    text: 'Children, ageing parents, a partner with a chronic condition, a dog on daily medication — Kinchart keeps everyone’s health details together without mixing them up.',
  },
];

const team = [
  {
    name: 'Patient experience',
    text: 'Designers and researchers who test every screen with patients and carers, on phones and with screen readers, so that the app works for people who are tired, worried or in a hurry.',
  },
  {
    name: 'Engineering and security',
    text: 'Engineers who build and run Kinchart, encrypt every file, keep sessions short-lived and review each change with your privacy in mind.',
  },
  {
    name: 'Clinical advisors',
    text: 'Nurses, paramedics and family doctors who tell us what information matters in an appointment and in an emergency — and what only gets in the way.',
  },
  {
    name: 'Support',
    text: 'The people who answer your emails, help you set up your family’s profiles and turn your feedback into the next improvement.',
  },
];

export function AboutPage() {
  return (
    <>
      <DocumentTitle title="About" />
      <MarketingHero
        title="About Kinchart"
        lead="Our mission is to put patients and the people who care for them in charge of their own health information — organised, private, and available the moment it is needed."
      />

      <MarketingSection labelledBy="mission-heading">
        <div className="mx-auto max-w-3xl space-y-5 text-lg text-slate-700">
          <h2 id="mission-heading" className="text-3xl font-bold tracking-tight text-slate-900">
            Our mission
          </h2>
          <p>
            Medical information is scattered across hospitals, clinics, pharmacies, email attachments and kitchen drawers. When a new doctor
            asks about allergies, past surgeries or current medications, it is usually the patient — or a worried relative — who has to
            remember.
          </p>
          <p>
            Kinchart gives that information one home. You keep your own health profile and the profiles of the people you look after, upload
            your records with the details of each visit, track prescriptions and appointments, and share what matters with your healthcare
            providers.
          </p>
          <p>
            And because emergencies do not wait for a login, every profile can carry a PIN-protected emergency QR code that shows first
            responders the essentials: allergies, conditions, medications and who to call.
          </p>
        </div>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {values.map((value) => (
            <li key={value.title} className="rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
              <h3 className="text-xl font-semibold text-slate-900">{value.title}</h3>
              <p className="mt-2 text-slate-700">{value.text}</p>
            </li>
          ))}
        </ul>
      </MarketingSection>

      <MarketingSection tone="tint" labelledBy="team-heading">
        <h2 id="team-heading" className="text-center text-3xl font-bold tracking-tight text-slate-900">
          Our team
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-center text-slate-700">
          Kinchart is built by a small team of patients, carers, clinicians and engineers.
        </p>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {team.map((member) => (
            <li key={member.name} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <h3 className="text-lg font-semibold text-slate-900">{member.name}</h3>
              <p className="mt-2 text-slate-700">{member.text}</p>
            </li>
          ))}
        </ul>
        <div className="mt-12 text-center">
          <Link to="/signup" className={buttonClassName('primary', 'lg')}>
            Join Kinchart
          </Link>
        </div>
      </MarketingSection>
    </>
  );
}
