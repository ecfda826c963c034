import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { buttonClassName } from '../../../components/ui/button';
import { DocumentTitle } from '../../../components/ui/page-header';
import { MarketingHero, MarketingSection } from '../components/marketing-section';

const values = [
  {
    title: msg`Your records belong to you`,
    text: msg`You decide what goes into Kinchart, who sees it and when it is deleted. You can export your files or close your account at any time.`,
  },
  {
    title: msg`Private by design`,
    text: msg`Files are encrypted before they are stored. Emergency information is only shown to someone who has both the QR code and its PIN, and you are told every time it is opened.`,
  },
  {
    title: msg`Made for real families`,
    text: msg`Children, ageing parents, a partner with a chronic condition, a dog on daily medication — Kinchart keeps everyone’s health details together without mixing them up.`,
  },
];

const team = [
  {
    name: msg`Patient experience`,
    text: msg`Designers and researchers who test every screen with patients and carers, on phones and with screen readers, so that the app works for people who are tired, worried or in a hurry.`,
  },
  {
    name: msg`Engineering and security`,
    text: msg`Engineers who build and run Kinchart, encrypt every file, keep sessions short-lived and review each change with your privacy in mind.`,
  },
  {
    name: msg`Clinical advisors`,
    text: msg`Nurses, paramedics and family doctors who tell us what information matters in an appointment and in an emergency — and what only gets in the way.`,
  },
  {
    name: msg({ message: 'Support', context: 'team' }),
    text: msg`The people who answer your emails, help you set up your family’s profiles and turn your feedback into the next improvement.`,
  },
];

export function AboutPage() {
  const { t } = useLingui();
  return (
    <>
      <DocumentTitle title={t`About`} />
      <MarketingHero
        title={t`About Kinchart`}
        lead={t`Our mission is to put patients and the people who care for them in charge of their own health information — organised, private, and available the moment it is needed.`}
      />

      <MarketingSection labelledBy="mission-heading">
        <div className="mx-auto max-w-3xl space-y-5 text-lg text-slate-700">
          <h2 id="mission-heading" className="text-3xl font-bold tracking-tight text-slate-900">
            <Trans>Our mission</Trans>
          </h2>
          <p>
            <Trans>
              Medical information is scattered across hospitals, clinics, pharmacies, email attachments and kitchen drawers. When a new
              doctor asks about allergies, past surgeries or current medications, it is usually the patient — or a worried relative — who
              has to remember.
            </Trans>
          </p>
          <p>
            <Trans>
              Kinchart gives that information one home. You keep your own health profile and the profiles of the people you look after,
              upload your records with the details of each visit, track prescriptions and appointments, and share what matters with your
              healthcare providers.
            </Trans>
          </p>
          <p>
            <Trans>
              And because emergencies do not wait for a login, every profile can carry a PIN-protected emergency QR code that shows first
              responders the essentials: allergies, conditions, medications and who to call.
            </Trans>
          </p>
        </div>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {values.map((value, index) => (
            <li key={index} className="rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
              <h3 className="text-xl font-semibold text-slate-900">{t(value.title)}</h3>
              <p className="mt-2 text-slate-700">{t(value.text)}</p>
            </li>
          ))}
        </ul>
      </MarketingSection>

      <MarketingSection tone="tint" labelledBy="team-heading">
        <h2 id="team-heading" className="text-center text-3xl font-bold tracking-tight text-slate-900">
          <Trans>Our team</Trans>
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-center text-slate-700">
          <Trans>Kinchart is built by a small team of patients, carers, clinicians and engineers.</Trans>
        </p>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {team.map((member, index) => (
            <li key={index} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <h3 className="text-lg font-semibold text-slate-900">{t(member.name)}</h3>
              <p className="mt-2 text-slate-700">{t(member.text)}</p>
            </li>
          ))}
        </ul>
        <div className="mt-12 text-center">
          <Link to="/signup" className={buttonClassName('primary', 'lg')}>
            <Trans>Join Kinchart</Trans>
          </Link>
        </div>
      </MarketingSection>
    </>
  );
}
